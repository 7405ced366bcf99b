package client

import (
	"context"
	"encoding/json"
	"iter"
	"net/http"
	"time"

	"github.com/svc-feedback/svc/survey"
)

// Surveys: the team's list, one survey whole, and its changes.

// SurveySummary is an item of the survey list.
type SurveySummary struct {
	ID          string    `json:"id"`
	Title       string    `json:"title"`
	Description string    `json:"description"`
	Status      string    `json:"status"`
	CreatedAt   time.Time `json:"createdAt"`
	UpdatedAt   time.Time `json:"updatedAt"`
}

// ListSurveys returns one page of the team's surveys (active and inactive), newest first.
func (c *Client) ListSurveys(ctx context.Context, opts *ListOptions) (*Page[SurveySummary], error) {
	var p Page[SurveySummary]
	if err := c.t.do(ctx, "GET", "/v1/protected/surveys", opts.values(), nil, &p, true); err != nil {
		return nil, err
	}
	return &p, nil
}

// Surveys iterates over every survey from opts' cursor on, fetching pages as needed.
func (c *Client) Surveys(ctx context.Context, opts *ListOptions) iter.Seq2[SurveySummary, error] {
	return paginate(listOptions(opts), func(o ListOptions) (*Page[SurveySummary], error) { return c.ListSurveys(ctx, &o) })
}

// Survey is the whole survey as the protected API returns it. A question of a type this
// version does not know (added by a newer server) has survey.UnknownProperties, which keep its
// JSON.
type Survey struct {
	ID     string `json:"id"`
	Status string `json:"status"`
	survey.Definition
	// WebhookURL receives response.created deliveries; nil when the survey has no webhook.
	WebhookURL *string `json:"webhookUrl"`
	// WebhookSecretSet tells whether deliveries are signed; secrets are shown only when made.
	WebhookSecretSet bool `json:"webhookSecretSet"`
	// WebhookWaitSeconds holds each response's response.created until the response is
	// finished or has had no update for this long (0: sent at once).
	WebhookWaitSeconds int       `json:"webhookWaitSeconds"`
	CreatedAt          time.Time `json:"createdAt"`
	UpdatedAt          time.Time `json:"updatedAt"`
	// ETag identifies this version of the survey, for UpdateOptions.IfMatch (from the reply's
	// header, not its body).
	ETag string `json:"-"`
}

// GetSurvey returns a survey of the team, with its questions (to find question ids) and its
// ETag.
func (c *Client) GetSurvey(ctx context.Context, surveyID string) (*Survey, error) {
	return c.surveyCall(ctx, call{method: "GET", path: pathf("/v1/protected/surveys/%s", surveyID), retry: true})
}

// surveyCall sends c and reads the survey it replies, with its ETag.
func (c *Client) surveyCall(ctx context.Context, cl call) (*Survey, error) {
	resp, err := c.t.send(ctx, cl)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	var s Survey
	if err := decodeReply(resp, cl.method, cl.path, &s); err != nil {
		return nil, err
	}
	s.ETag = resp.Header.Get("ETag")
	return &s, nil
}

// SurveyInput is a survey to create: the fixture's survey object without its history. Set only
// what matters to you: members left at Go's zero value that the server has a default for are
// left out of the request (see MarshalJSON), so a question needs no more than its id, title and
// properties (a rating's scale, a select's options), as the same survey written as JSON.
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
	Questions               []survey.Question // replaced whole when not nil; zero values left out as SurveyInput's
	Confirmation            *survey.Confirmation
	IsBackNavigationAllowed *bool
	BackButtonLabel         *string
	Display                 *survey.Display   // the targeting rules, replaced whole when not nil
	Languages               *survey.Languages // the translations, replaced whole when not nil
	Link                    *survey.Link      // how the link page is answered
	WebhookURL              *string
	WebhookWaitSeconds      *int
	// RemoveDescription, RemoveDisplay and RemoveWebhook remove those members (a JSON null in
	// the patch).
	RemoveDescription bool
	RemoveDisplay     bool
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
	if p.Questions != nil {
		q, err := questionsJSON(p.Questions)
		if err != nil {
			return nil, err
		}
		m["questions"] = q
	}
	set("confirmation", p.Confirmation, p.Confirmation != nil)
	set("isBackNavigationAllowed", p.IsBackNavigationAllowed, p.IsBackNavigationAllowed != nil)
	set("backButtonLabel", p.BackButtonLabel, p.BackButtonLabel != nil)
	set("display", p.Display, p.Display != nil)
	set("languages", p.Languages, p.Languages != nil)
	set("link", p.Link, p.Link != nil)
	set("webhookUrl", p.WebhookURL, p.WebhookURL != nil)
	set("webhookWaitSeconds", p.WebhookWaitSeconds, p.WebhookWaitSeconds != nil)
	if p.RemoveDescription {
		m["description"] = nil
	}
	if p.RemoveDisplay {
		m["display"] = nil
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
