package client

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"time"

	"github.com/svc-feedback/svc/survey"
)

// SurveyInput is a survey to create: the fixture's survey object without its history.
type SurveyInput struct {
	// ID is the survey's cuid2; empty to have the server make one.
	ID string `json:"id,omitempty"`
	// Status is "active" or "inactive" (the default).
	Status string `json:"status,omitempty"`
	survey.Definition
	// WebhookURL receives a signed response.created for every new response; empty for none.
	WebhookURL string `json:"webhookUrl,omitempty"`
	// WebhookSecret signs deliveries; empty to make one later with RotateWebhookSecret.
	WebhookSecret string `json:"webhookSecret,omitempty"`
	// WebhookWaitSeconds holds each response's response.created until the response is
	// finished or has had no update for this long (0 to 86,400; 0 sends at once).
	WebhookWaitSeconds int `json:"webhookWaitSeconds,omitempty"`
}

// CreateSurvey creates a survey in the key's team and returns it with its ETag. A taken id is
// a conflict (IsConflict); a survey that breaks a rule is invalid (IsInvalid).
func (c *Client) CreateSurvey(ctx context.Context, in *SurveyInput) (*Survey, error) {
	return c.surveyCall(ctx, call{method: "POST", path: "/v1/protected/surveys", in: in})
}

// SurveyPatch changes a survey: each field set replaces that member, the others stay.
type SurveyPatch struct {
	Status                  *string
	Title                   *string
	Description             *string
	Questions               []survey.Question // replaced whole when not nil
	Confirmation            *survey.Confirmation
	IsBackNavigationAllowed *bool
	BackButtonLabel         *string
	WebhookURL              *string
	WebhookWaitSeconds      *int
	// RemoveDescription and RemoveWebhook remove those members (a JSON null in the patch).
	RemoveDescription bool
	RemoveWebhook     bool
}

// MarshalJSON writes the patch as a JSON merge patch (RFC 7396).
func (p SurveyPatch) MarshalJSON() ([]byte, error) {
	m := map[string]any{}
	set := func(name string, v any, ok bool) {
		if ok {
			m[name] = v
		}
	}
	set("status", p.Status, p.Status != nil)
	set("title", p.Title, p.Title != nil)
	set("description", p.Description, p.Description != nil)
	set("questions", p.Questions, p.Questions != nil)
	set("confirmation", p.Confirmation, p.Confirmation != nil)
	set("isBackNavigationAllowed", p.IsBackNavigationAllowed, p.IsBackNavigationAllowed != nil)
	set("backButtonLabel", p.BackButtonLabel, p.BackButtonLabel != nil)
	set("webhookUrl", p.WebhookURL, p.WebhookURL != nil)
	set("webhookWaitSeconds", p.WebhookWaitSeconds, p.WebhookWaitSeconds != nil)
	if p.RemoveDescription {
		m["description"] = nil
	}
	if p.RemoveWebhook {
		m["webhookUrl"] = nil
	}
	return json.Marshal(m)
}

// UpdateOptions are the options of UpdateSurvey and DeleteSurvey.
type UpdateOptions struct {
	// IfMatch, when set, is the ETag the change is based on: if the survey changed since, the
	// server refuses the change (IsPreconditionFailed) rather than overwrite another's.
	IfMatch string
}

func (o *UpdateOptions) header() http.Header {
	if o == nil || o.IfMatch == "" {
		return nil
	}
	return http.Header{"If-Match": {o.IfMatch}}
}

// UpdateSurvey changes a survey with a merge patch and returns it as changed, with its new ETag.
func (c *Client) UpdateSurvey(ctx context.Context, surveyID string, patch SurveyPatch, opts *UpdateOptions) (*Survey, error) {
	return c.surveyCall(ctx, call{method: "PATCH", path: pathf("/v1/protected/surveys/%s", surveyID), in: patch, header: opts.header()})
}

// DeleteSurvey deletes a survey (a soft delete: it is gone from every endpoint).
func (c *Client) DeleteSurvey(ctx context.Context, surveyID string, opts *UpdateOptions) error {
	resp, err := c.t.send(ctx, call{method: "DELETE", path: pathf("/v1/protected/surveys/%s", surveyID), header: opts.header()})
	if err != nil {
		return err
	}
	resp.Body.Close()
	return nil
}

// RotateWebhookSecret gives a survey a new webhook secret and returns it: it is shown only this
// once. The previous secret keeps signing deliveries beside it for 24 hours.
func (c *Client) RotateWebhookSecret(ctx context.Context, surveyID string) (string, error) {
	var out struct {
		Data struct {
			Secret string `json:"secret"`
		} `json:"data"`
	}
	if err := c.t.do(ctx, "POST", pathf("/v1/protected/surveys/%s/webhook-secret", surveyID), nil, nil, &out, false); err != nil {
		return "", err
	}
	return out.Data.Secret, nil
}

// GetResponse returns one response of a survey, with its telemetry.
func (c *Client) GetResponse(ctx context.Context, surveyID, responseID string) (*Response, error) {
	var out struct {
		Data Response `json:"data"`
	}
	if err := c.t.do(ctx, "GET", pathf("/v1/protected/surveys/%s/responses/%s", surveyID, responseID), nil, nil, &out, true); err != nil {
		return nil, err
	}
	return &out.Data, nil
}

// Export formats.
const (
	// ExportCSV is a header row (id, respondent, createdAt, updatedAt, finished, a column per
	// question in position order, metadata), then a row per response.
	ExportCSV = "csv"
	// ExportNDJSON is one Response per line.
	ExportNDJSON = "ndjson"
)

// ExportOptions choose what ExportResponses streams.
type ExportOptions struct {
	// Format is ExportCSV (the default) or ExportNDJSON.
	Format string
	// Respondent keeps one respondent's responses.
	Respondent string
	// After and Before bound createdAt, inclusive; zero values do not filter.
	After, Before time.Time
}

// ExportResponses streams every response of a survey that the options match, oldest first. The
// caller reads and closes it; its memory does not grow with the number of responses.
func (c *Client) ExportResponses(ctx context.Context, surveyID string, opts *ExportOptions) (io.ReadCloser, error) {
	q := url.Values{}
	if opts != nil {
		q = (&ResponseListOptions{Respondent: opts.Respondent, After: opts.After, Before: opts.Before}).values()
		if opts.Format != "" {
			q.Set("format", opts.Format)
		}
	}
	resp, err := c.t.send(ctx, call{method: "GET", path: pathf("/v1/protected/surveys/%s/responses/export", surveyID), q: q})
	if err != nil {
		return nil, err
	}
	return resp.Body, nil
}

// DeleteResponse deletes a response for good: it is gone from lists, stats, score
// distributions and history, and its unsent webhook delivery is cancelled.
func (c *Client) DeleteResponse(ctx context.Context, surveyID, responseID string) error {
	return c.t.do(ctx, "DELETE", pathf("/v1/protected/surveys/%s/responses/%s", surveyID, responseID), nil, nil, nil, true)
}

// Erased counts what EraseRespondent deleted.
type Erased struct {
	Responses int `json:"responses"`
	Events    int `json:"events"`
}

// EraseRespondent erases a person from every survey of the key's team: their responses, views
// and dismissals, and what webhook deliveries kept of them; stats and history become as if they
// never took part. Erasing again erases nothing and reports zeros.
func (c *Client) EraseRespondent(ctx context.Context, respondent string) (Erased, error) {
	var out struct {
		Data Erased `json:"data"`
	}
	err := c.t.do(ctx, "DELETE", pathf("/v1/protected/respondents/%s", respondent), nil, nil, &out, true)
	return out.Data, err
}
