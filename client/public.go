package client

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/svc-feedback/svc/survey"
)

// PublicClient calls the widget endpoints with a publishable key, which is safe in client-side
// code. It cannot hold a secret key.
type PublicClient struct {
	t *transport
}

// NewPublic returns a PublicClient for the API at baseURL using publishableKey (svc_pk_...).
func NewPublic(baseURL, publishableKey string, opts ...Option) (*PublicClient, error) {
	if !strings.HasPrefix(publishableKey, "svc_pk_") {
		return nil, errors.New("client: NewPublic needs a publishable key (svc_pk_...); never put a secret key in client code")
	}
	t, err := newTransport(baseURL, opts, func(h http.Header) { h.Set("x-svc-pk", publishableKey) })
	if err != nil {
		return nil, err
	}
	return &PublicClient{t: t}, nil
}

// GetSurvey returns an active survey's public view.
func (c *PublicClient) GetSurvey(ctx context.Context, surveyID string) (*survey.Definition, error) {
	var d survey.Definition
	if err := c.t.do(ctx, "GET", pathf("/v1/svc/%s", surveyID), nil, nil, &d, true); err != nil {
		return nil, err
	}
	return &d, nil
}

// GetSurveyIn returns an active survey's public view in a language: lang ("de-AT", say) or
// the closest the survey has ("de"), else its default. It also returns the language served,
// "" for a survey without translations.
func (c *PublicClient) GetSurveyIn(ctx context.Context, surveyID, lang string) (*survey.Definition, string, error) {
	var v struct {
		survey.Definition
		Language string `json:"language"`
	}
	if err := c.t.do(ctx, "GET", pathf("/v1/svc/%s", surveyID), url.Values{"lang": {lang}}, nil, &v, true); err != nil {
		return nil, "", err
	}
	return &v.Definition, v.Language, nil
}

// History is a respondent's latest interactions with a survey; nil means never.
type History struct {
	LastRespondedAt *time.Time `json:"lastRespondedAt"`
	LastViewedAt    *time.Time `json:"lastViewedAt"`
	LastDismissedAt *time.Time `json:"lastDismissedAt"`
}

// GetHistory returns a respondent's interaction history with a survey.
func (c *PublicClient) GetHistory(ctx context.Context, surveyID, respondent string) (*History, error) {
	var h History
	if err := c.t.do(ctx, "GET", pathf("/v1/svc/%s/respondent/%s", surveyID, respondent), nil, nil, &h, true); err != nil {
		return nil, err
	}
	return &h, nil
}

// EventType is a respondent event.
type EventType string

// Event types.
const (
	EventView    EventType = "view"
	EventDismiss EventType = "dismiss"
)

// EventReceipt confirms a recorded event.
type EventReceipt struct {
	Type       EventType `json:"type"`
	RecordedAt time.Time `json:"recordedAt"`
}

// RecordEvent records that a respondent viewed or dismissed a survey. It is never retried, so
// an event is not counted twice.
func (c *PublicClient) RecordEvent(ctx context.Context, surveyID, respondent string, typ EventType) (*EventReceipt, error) {
	var r EventReceipt
	in := struct {
		Type EventType `json:"type"`
	}{typ}
	if err := c.t.do(ctx, "POST", pathf("/v1/svc/%s/respondent/%s/event", surveyID, respondent), nil, in, &r, false); err != nil {
		return nil, err
	}
	return &r, nil
}

// ResponseInput is the body of PutResponse: every answer given so far.
type ResponseInput struct {
	Respondent string            `json:"respondent"`
	Data       survey.Answers    `json:"data"`
	Metadata   map[string]string `json:"metadata"`
	Telemetry  *string           `json:"telemetry,omitempty"`
	// Language is the language the answers were given in: the one GetSurveyIn returned.
	Language string `json:"language,omitempty"`
	// Finished marks the response finished (send it with the last answer); a finished response
	// stays finished.
	Finished bool `json:"finished,omitempty"`
}

// PutResult is the reply of PutResponse, the same for a create and an update.
type PutResult struct {
	ID        string    `json:"id"`
	CreatedAt time.Time `json:"createdAt"`
}

// PutResponse creates the response with id responseID (see NewResponseID), or replaces its
// answers. It is idempotent, so it is retried.
func (c *PublicClient) PutResponse(ctx context.Context, surveyID, responseID string, in *ResponseInput) (*PutResult, error) {
	body := *in
	if body.Data == nil {
		body.Data = survey.Answers{}
	}
	if body.Metadata == nil {
		body.Metadata = map[string]string{}
	}
	var r PutResult
	if err := c.t.do(ctx, "PUT", pathf("/v1/svc/%s/response/%s", surveyID, responseID), nil, body, &r, true); err != nil {
		return nil, err
	}
	return &r, nil
}
