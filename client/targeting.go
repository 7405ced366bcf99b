package client

import (
	"context"
	"net/http"
	"time"

	"github.com/svc-feedback/svc/survey"
)

// Ask is what a page asks svc's targeting with: who is on which page, what happened, and what
// the page knows of them (untrusted: the attributes the team stored win).
type Ask struct {
	Respondent string         `json:"respondent"`
	URL        string         `json:"url"`
	Event      string         `json:"event,omitempty"`
	Attributes map[string]any `json:"attributes,omitempty"`
}

// NextSurvey is svc's decision: the survey to show, with its id, or nil and the reason.
type NextSurvey struct {
	Survey *struct {
		ID string `json:"id"`
		survey.Definition
	} `json:"survey"`
	DelaySeconds int     `json:"delaySeconds"`
	Reason       *string `json:"reason"`
}

// NextSurvey asks which survey, if any, to show the person now (POST /v1/svc/next-survey). The
// decision records nothing; record the view when the survey is shown.
func (c *PublicClient) NextSurvey(ctx context.Context, ask Ask) (*NextSurvey, error) {
	var out NextSurvey
	if err := c.t.do(ctx, "POST", "/v1/svc/next-survey", nil, ask, &out, true); err != nil {
		return nil, err
	}
	return &out, nil
}

// Settings are the team's settings, with the ETag of their version.
type Settings struct {
	// CooldownDays keeps any survey (but those of display.ignoreCooldown) from a person within
	// this many days of their last view of any survey of the team.
	CooldownDays int `json:"cooldownDays"`
	// Segments are the team's declared segments, whose counts svc keeps per value as it writes,
	// so that results filtered by one of them cost what unfiltered ones do: metadata.{key},
	// language, hidden.{name} and answer.{questionId}.
	Segments []string `json:"segments"`
	// SegmentsFill is the progress of the count of the responses stored before the segments
	// last changed.
	SegmentsFill SegmentsFill `json:"segmentsFill"`
	ETag         string       `json:"-"`
}

// SegmentsFill is the progress of the count of a team's stored responses in its segments:
// State is "none" (no segments), "filling" (Done of Total counted; segment-filtered results are
// read from the responses meanwhile) or "complete".
type SegmentsFill struct {
	State string `json:"state"`
	Done  int64  `json:"done"`
	Total int64  `json:"total"`
}

// GetSettings returns the team's settings.
func (c *Client) GetSettings(ctx context.Context) (*Settings, error) {
	return c.settingsCall(ctx, call{method: "GET", path: "/v1/protected/settings", retry: true})
}

// UpdateSettings sets the team's cooldown. With opts.IfMatch, a change of the settings since that
// ETag is refused (IsPreconditionFailed).
func (c *Client) UpdateSettings(ctx context.Context, cooldownDays int, opts *UpdateOptions) (*Settings, error) {
	cl := call{method: "PATCH", path: "/v1/protected/settings", in: map[string]int{"cooldownDays": cooldownDays}}
	if opts != nil && opts.IfMatch != "" {
		cl.header = http.Header{"If-Match": {opts.IfMatch}}
	}
	return c.settingsCall(ctx, cl)
}

// SetSegments declares the team's segments (nil or empty for none); a change starts counting the
// responses already stored in the background (Settings.SegmentsFill). With opts.IfMatch, a
// change of the settings since that ETag is refused (IsPreconditionFailed).
func (c *Client) SetSegments(ctx context.Context, segments []string, opts *UpdateOptions) (*Settings, error) {
	if segments == nil {
		segments = []string{}
	}
	cl := call{method: "PATCH", path: "/v1/protected/settings", in: map[string][]string{"segments": segments}}
	if opts != nil && opts.IfMatch != "" {
		cl.header = http.Header{"If-Match": {opts.IfMatch}}
	}
	return c.settingsCall(ctx, cl)
}

func (c *Client) settingsCall(ctx context.Context, cl call) (*Settings, error) {
	resp, err := c.t.send(ctx, cl)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	var s Settings
	if err := decodeReply(resp, cl.method, cl.path, &s); err != nil {
		return nil, err
	}
	s.ETag = resp.Header.Get("ETag")
	return &s, nil
}

// SetAttributes replaces the attributes the team stores for a person: strings, numbers and
// booleans that display rules test (never use them for security). Nil deletes them.
func (c *Client) SetAttributes(ctx context.Context, respondent string, attributes map[string]any) error {
	var in any = attributes
	if attributes == nil {
		in = map[string]any{}
	}
	return c.t.do(ctx, "PUT", pathf("/v1/protected/respondents/%s/attributes", respondent), nil, in, nil, true)
}

// Prompt asks svc to show a survey to a person the next time they are eligible for it, on any
// page; their view of it uses the prompt up.
type Prompt struct {
	ID         string     `json:"id"`
	SurveyID   string     `json:"surveyId"`
	Respondent string     `json:"respondent"`
	CreatedAt  time.Time  `json:"createdAt"`
	ExpiresAt  *time.Time `json:"expiresAt"`
}

// CreatePrompt prompts a survey for a person, until expiresAt (nil: until used up).
func (c *Client) CreatePrompt(ctx context.Context, surveyID, respondent string, expiresAt *time.Time) (*Prompt, error) {
	in := struct {
		Respondent string     `json:"respondent"`
		ExpiresAt  *time.Time `json:"expiresAt,omitempty"`
	}{respondent, expiresAt}
	var p Prompt
	if err := c.t.do(ctx, "POST", pathf("/v1/protected/surveys/%s/prompts", surveyID), nil, in, &p, false); err != nil {
		return nil, err
	}
	return &p, nil
}

// ListPrompts lists a survey's prompts not yet used up, oldest first (at most 100).
func (c *Client) ListPrompts(ctx context.Context, surveyID string) ([]Prompt, error) {
	var out struct {
		Data []Prompt `json:"data"`
	}
	if err := c.t.do(ctx, "GET", pathf("/v1/protected/surveys/%s/prompts", surveyID), nil, nil, &out, true); err != nil {
		return nil, err
	}
	return out.Data, nil
}

// DeletePrompt deletes a prompt (IsNotFound when there is none).
func (c *Client) DeletePrompt(ctx context.Context, surveyID, promptID string) error {
	return c.t.do(ctx, "DELETE", pathf("/v1/protected/surveys/%s/prompts/%s", surveyID, promptID), nil, nil, nil, true)
}
