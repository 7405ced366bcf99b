package client

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"iter"
	"net/url"
	"time"

	"github.com/svc-feedback/svc/survey"
)

// Responses: lists, one whole, exports, deletions, and a respondent's erasure.

// Response is a stored response.
type Response struct {
	ID             string            `json:"id"`
	Respondent     string            `json:"respondent"`
	Data           survey.Answers    `json:"data"`
	ClientMetadata map[string]string `json:"clientMetadata"`
	// Language is the language the answers were given in ("" when the writer did not say).
	Language string `json:"language"`
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
	// Filter picks responses by their answers, metadata and state.
	Filter *Filter
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
	o.Filter.addTo(q)
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

// ExportOptions choose what ExportResponses streams.
type ExportOptions struct {
	// Format is ExportCSV (the default) or ExportNDJSON.
	Format string
	// Respondent keeps one respondent's responses.
	Respondent string
	// After and Before bound createdAt, inclusive; zero values do not filter.
	After, Before time.Time
	// Filter picks responses by their answers, metadata and state.
	Filter *Filter
	// Titles makes a CSV for people: question titles as headers, choices in one cell, bug
	// reports in columns with their screenshots linked, metadata keys as columns.
	Titles bool
}

// ExportResponses streams every response of a survey that the options match, oldest first. The
// caller reads and closes it; its memory does not grow with the number of responses.
func (c *Client) ExportResponses(ctx context.Context, surveyID string, opts *ExportOptions) (io.ReadCloser, error) {
	q := url.Values{}
	if opts != nil {
		q = (&ResponseListOptions{Respondent: opts.Respondent, After: opts.After, Before: opts.Before, Filter: opts.Filter}).values()
		if opts.Format != "" {
			q.Set("format", opts.Format)
		}
		if opts.Titles {
			q.Set("header", "titles")
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

// Export formats.
const (
	// ExportCSV is a header row (id, respondent, createdAt, updatedAt, finished, a column per
	// question in position order, metadata), then a row per response.
	ExportCSV = "csv"
	// ExportNDJSON is one Response per line.
	ExportNDJSON = "ndjson"
)
