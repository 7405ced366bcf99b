package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/svc-feedback/svc/survey"
)

// Client calls the protected API with a team's secret key. Use it from servers only.
type Client struct {
	t *transport
}

// New returns a Client for the API at baseURL (including any prefix the handler is mounted
// under, such as "https://api.example.com/feedback") using secretKey (svc_sk_...).
func New(baseURL, secretKey string, opts ...Option) (*Client, error) {
	if !strings.HasPrefix(secretKey, "svc_sk_") {
		return nil, errors.New("client: New needs a secret key (svc_sk_...); use NewPublic for a publishable key")
	}
	t, err := newTransport(baseURL, opts, func(h http.Header) { h.Set("Authorization", "Bearer "+secretKey) })
	if err != nil {
		return nil, err
	}
	return &Client{t: t}, nil
}

// ListOptions select a page.
type ListOptions struct {
	// Cursor is the previous page's NextCursor; empty for the first page.
	Cursor string
	// Limit is the page size, 1 to 100; zero means the server's default (50).
	Limit int
}

func (o *ListOptions) values() url.Values {
	q := url.Values{}
	if o == nil {
		return q
	}
	if o.Cursor != "" {
		q.Set("cursor", o.Cursor)
	}
	if o.Limit != 0 {
		q.Set("limit", strconv.Itoa(o.Limit))
	}
	return q
}

// Page is one page of a list.
type Page[T any] struct {
	Data []T
	// NextCursor fetches the next page; empty on the last page.
	NextCursor string
	Limit      int
	Links      Links
}

// UnmarshalJSON reads a page, whose nextCursor is null on the last page.
func (p *Page[T]) UnmarshalJSON(b []byte) error {
	var raw struct {
		Data       []T     `json:"data"`
		NextCursor *string `json:"nextCursor"`
		Limit      int     `json:"limit"`
		Links      Links   `json:"links"`
	}
	if err := json.Unmarshal(b, &raw); err != nil {
		return err
	}
	*p = Page[T]{Data: raw.Data, Limit: raw.Limit, Links: raw.Links}
	if raw.NextCursor != nil {
		p.NextCursor = *raw.NextCursor
	}
	if p.Data == nil {
		p.Data = []T{}
	}
	return nil
}

// Links are a page's own URL and the next page's.
type Links struct {
	Self string  `json:"self"`
	Next *string `json:"next"`
}

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

// Response is a stored response.
type Response struct {
	ID             string            `json:"id"`
	Respondent     string            `json:"respondent"`
	Data           survey.Answers    `json:"data"`
	ClientMetadata map[string]string `json:"clientMetadata"`
	// Finished tells that the respondent finished the survey.
	Finished bool `json:"finished"`
	// Telemetry is the response's telemetry; only GetResponse returns it.
	Telemetry *string   `json:"telemetry,omitempty"`
	CreatedAt time.Time `json:"createdAt"`
	UpdatedAt time.Time `json:"updatedAt"`
}

// UnmarshalJSON reads a response. An answer of a shape this version does not know (written by a
// newer server) is kept as a survey.UnknownAnswer holding its JSON, rather than failing the
// whole page.
func (r *Response) UnmarshalJSON(b []byte) error {
	type plain Response
	var raw struct {
		plain
		Data json.RawMessage `json:"data"`
	}
	if err := json.Unmarshal(b, &raw); err != nil {
		return err
	}
	*r = Response(raw.plain)
	data, err := survey.DecodeAnswersOrUnknown(raw.Data)
	if err != nil {
		return fmt.Errorf("response %s: data: %w", r.ID, err)
	}
	r.Data = data
	return nil
}

// ResponseListOptions filter and page a survey's responses.
type ResponseListOptions struct {
	ListOptions
	// Respondent keeps one respondent's responses.
	Respondent string
	// After and Before bound createdAt, inclusive; zero values do not filter.
	After  time.Time
	Before time.Time
}

func (o *ResponseListOptions) values() url.Values {
	if o == nil {
		return url.Values{}
	}
	q := o.ListOptions.values()
	if o.Respondent != "" {
		q.Set("respondent", o.Respondent)
	}
	if !o.After.IsZero() {
		q.Set("after", o.After.UTC().Format(time.RFC3339Nano))
	}
	if !o.Before.IsZero() {
		q.Set("before", o.Before.UTC().Format(time.RFC3339Nano))
	}
	return q
}

// ListResponses returns one page of a survey's responses, newest first.
func (c *Client) ListResponses(ctx context.Context, surveyID string, opts *ResponseListOptions) (*Page[Response], error) {
	var p Page[Response]
	if err := c.t.do(ctx, "GET", pathf("/v1/protected/surveys/%s/responses", surveyID), opts.values(), nil, &p, true); err != nil {
		return nil, err
	}
	return &p, nil
}

// Responses iterates over every response matching opts, fetching pages as needed. It stops at
// the first error, which it yields.
func (c *Client) Responses(ctx context.Context, surveyID string, opts *ResponseListOptions) iter.Seq2[Response, error] {
	var base ResponseListOptions
	if opts != nil {
		base = *opts
	}
	return paginate(base.ListOptions, func(lo ListOptions) (*Page[Response], error) {
		o := base
		o.ListOptions = lo
		return c.ListResponses(ctx, surveyID, &o)
	})
}

// Stats are a survey's lifetime engagement counts.
type Stats struct {
	TotalViews       int64 `json:"totalViews"`
	UniqueViewers    int64 `json:"uniqueViewers"`
	TotalDismissals  int64 `json:"totalDismissals"`
	UniqueDismissers int64 `json:"uniqueDismissers"`
	TotalResponses   int64 `json:"totalResponses"`
	UniqueResponders int64 `json:"uniqueResponders"`
	// FinishedResponses counts the responses whose respondent finished the survey.
	FinishedResponses int64 `json:"finishedResponses"`
}

// GetStats returns a survey's engagement statistics.
func (c *Client) GetStats(ctx context.Context, surveyID string) (*Stats, error) {
	return c.GetStatsIn(ctx, surveyID, "")
}

// GetStatsIn returns a survey's engagement in a time range (Last7Days, Last30Days, Quarter(...)
// or CustomRange(...)): the views, dismissals and responses of the range, each with its distinct
// respondents. An empty range, or AllTime, is GetStats' lifetime counters.
func (c *Client) GetStatsIn(ctx context.Context, surveyID, timeRange string) (*Stats, error) {
	var q url.Values
	if timeRange != "" {
		q = url.Values{"timeRange": {timeRange}}
	}
	var out struct {
		Data Stats `json:"data"`
	}
	if err := c.t.do(ctx, "GET", pathf("/v1/protected/surveys/%s/stats", surveyID), q, nil, &out, true); err != nil {
		return nil, err
	}
	return &out.Data, nil
}

// Time ranges of ScoreOptions.
const (
	AllTime    = "all-time"
	Last7Days  = "last-7-days"
	Last30Days = "last-30-days"
)

// Quarter returns the time range of a calendar quarter (1 to 4), such as "q1-2026".
func Quarter(q, year int) string { return "q" + strconv.Itoa(q) + "-" + strconv.Itoa(year) }

// CustomRange returns the time range of whole UTC days from first to last, inclusive.
func CustomRange(first, last time.Time) string {
	return "custom_" + first.UTC().Format(time.DateOnly) + "_" + last.UTC().Format(time.DateOnly)
}

// ScoreOptions select score distributions.
type ScoreOptions struct {
	// QuestionIDs are rating question ids; empty means every rating question.
	QuestionIDs []string
	// TimeRange is AllTime (the default), Last7Days, Last30Days, Quarter(...) or CustomRange(...).
	TimeRange string
}

// ScoreDistributions are score counts in a period and the period before it.
type ScoreDistributions struct {
	TimeRange string  `json:"timeRange"`
	Current   Period  `json:"current"`
	Previous  *Period `json:"previous"`
}

// Period is a half-open time range [Start, End) with each question's scores.
type Period struct {
	Start     time.Time        `json:"start"`
	End       time.Time        `json:"end"`
	Questions []QuestionScores `json:"questions"`
}

// QuestionScores are one rating question's counts by score (every score present, zeros
// included). Average is nil when Total is 0.
type QuestionScores struct {
	QuestionID string        `json:"questionId"`
	Title      string        `json:"title"`
	Scale      int           `json:"scale"`
	Total      int64         `json:"total"`
	Average    *float64      `json:"average"`
	Counts     map[int]int64 `json:"counts"`
}

// GetScoreDistributions returns rating score counts for a time range.
func (c *Client) GetScoreDistributions(ctx context.Context, surveyID string, opts *ScoreOptions) (*ScoreDistributions, error) {
	q := url.Values{}
	if opts != nil {
		if len(opts.QuestionIDs) > 0 {
			q["questionIds"] = opts.QuestionIDs
		}
		if opts.TimeRange != "" {
			q.Set("timeRange", opts.TimeRange)
		}
	}
	var out struct {
		Data ScoreDistributions `json:"data"`
	}
	if err := c.t.do(ctx, "GET", pathf("/v1/protected/surveys/%s/score-distributions", surveyID), q, nil, &out, true); err != nil {
		return nil, err
	}
	return &out.Data, nil
}

// WebhookDelivery is one webhook delivery's log.
type WebhookDelivery struct {
	ID            string     `json:"id"`
	ResponseID    string     `json:"responseId"`
	State         string     `json:"state"`
	Attempts      int        `json:"attempts"`
	LastStatus    *int       `json:"lastStatus"`
	LastError     *string    `json:"lastError"`
	NextAttemptAt *time.Time `json:"nextAttemptAt"`
	CreatedAt     time.Time  `json:"createdAt"`
	UpdatedAt     time.Time  `json:"updatedAt"`
	DeliveredAt   *time.Time `json:"deliveredAt"`
}

// ListWebhookDeliveries returns one page of a survey's webhook deliveries, newest first.
func (c *Client) ListWebhookDeliveries(ctx context.Context, surveyID string, opts *ListOptions) (*Page[WebhookDelivery], error) {
	var p Page[WebhookDelivery]
	if err := c.t.do(ctx, "GET", pathf("/v1/protected/surveys/%s/webhook-deliveries", surveyID), opts.values(), nil, &p, true); err != nil {
		return nil, err
	}
	return &p, nil
}

// WebhookDeliveries iterates over every webhook delivery of a survey.
func (c *Client) WebhookDeliveries(ctx context.Context, surveyID string, opts *ListOptions) iter.Seq2[WebhookDelivery, error] {
	return paginate(listOptions(opts), func(o ListOptions) (*Page[WebhookDelivery], error) {
		return c.ListWebhookDeliveries(ctx, surveyID, &o)
	})
}

// Redeliver sends a delivery again (typically a failed one). It is not retried: a POST.
func (c *Client) Redeliver(ctx context.Context, surveyID, deliveryID string) (*WebhookDelivery, error) {
	var out struct {
		Data WebhookDelivery `json:"data"`
	}
	if err := c.t.do(ctx, "POST", pathf("/v1/protected/surveys/%s/webhook-deliveries/%s/redeliver", surveyID, deliveryID), nil, nil, &out, false); err != nil {
		return nil, err
	}
	return &out.Data, nil
}

// listOptions copies the caller's options, so that a later change to them does not reach an
// iterator made from them.
func listOptions(opts *ListOptions) ListOptions {
	if opts == nil {
		return ListOptions{}
	}
	return *opts
}

// paginate walks pages from start's cursor on, yielding every item until the last page, the
// caller's break or an error. Each range starts again from start with its own copy, so one
// iterator can be ranged any number of times, from several goroutines at once.
func paginate[T any](start ListOptions, list func(ListOptions) (*Page[T], error)) iter.Seq2[T, error] {
	return func(yield func(T, error) bool) {
		o := start
		for {
			p, err := list(o)
			if err != nil {
				var zero T
				yield(zero, err)
				return
			}
			for _, item := range p.Data {
				if !yield(item, nil) {
					return
				}
			}
			if p.NextCursor == "" {
				return
			}
			o.Cursor = p.NextCursor
		}
	}
}
