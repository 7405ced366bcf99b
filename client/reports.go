package client

import (
	"context"
	"net/url"
	"strconv"
	"time"
)

// Reports: engagement stats, score distributions and summaries, each over a TimeRange given
// the same way, in its options.

// TimeRange is the time range of a report: AllTime (the default), Last7Days, Last30Days, a
// Quarter or a CustomRange of days, all in UTC. Every report takes it the same way, as the
// TimeRange of its options.
type TimeRange string

// Time ranges.
const (
	AllTime    TimeRange = "all-time"
	Last7Days  TimeRange = "last-7-days"
	Last30Days TimeRange = "last-30-days"
)

// Quarter returns the time range of a calendar quarter (1 to 4), such as "q1-2026".
func Quarter(q, year int) TimeRange {
	return TimeRange("q" + strconv.Itoa(q) + "-" + strconv.Itoa(year))
}

// CustomRange returns the time range of whole UTC days from first to last, inclusive.
func CustomRange(first, last time.Time) TimeRange {
	return TimeRange("custom_" + first.UTC().Format(time.DateOnly) + "_" + last.UTC().Format(time.DateOnly))
}

// rangeQuery is a report's query with its time range, when one is given.
func rangeQuery(tr TimeRange) url.Values {
	q := url.Values{}
	if tr != "" {
		q.Set("timeRange", string(tr))
	}
	return q
}

// RangeOptions choose the time range of a report; nil means all time.
type RangeOptions struct {
	TimeRange TimeRange
	// Filter, on the summary and stats, counts only the responses it picks (views stay the
	// survey's).
	Filter *Filter
}

// query is the options' query parameters.
func (o *RangeOptions) query() url.Values {
	if o == nil {
		return url.Values{}
	}
	return o.Filter.addTo(rangeQuery(o.TimeRange))
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

// GetStats returns a survey's engagement: over all time, its lifetime counters; over another
// range, the views, dismissals and responses of the range, each with its distinct respondents.
func (c *Client) GetStats(ctx context.Context, surveyID string, opts *RangeOptions) (*Stats, error) {
	var out struct {
		Data Stats `json:"data"`
	}
	if err := c.t.do(ctx, "GET", pathf("/v1/protected/surveys/%s/stats", surveyID), opts.query(), nil, &out, true); err != nil {
		return nil, err
	}
	return &out.Data, nil
}

// ScoreOptions select score distributions.
type ScoreOptions struct {
	// QuestionIDs are rating question ids; empty means every rating question.
	QuestionIDs []string
	// TimeRange is the range counted; empty means AllTime.
	TimeRange TimeRange
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
		q = rangeQuery(opts.TimeRange)
		if len(opts.QuestionIDs) > 0 {
			q["questionIds"] = opts.QuestionIDs
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

// Summary is a survey's results over a time range and the period before it.
type Summary struct {
	TimeRange string         `json:"timeRange"`
	Current   SummaryPeriod  `json:"current"`
	Previous  *SummaryPeriod `json:"previous"`
}

// SummaryPeriod is the funnel and each question's results in [Start, End).
type SummaryPeriod struct {
	Start     time.Time         `json:"start"`
	End       time.Time         `json:"end"`
	Funnel    Funnel            `json:"funnel"`
	Questions []QuestionSummary `json:"questions"`
}

// Funnel counts views and dismissals, and responses started and finished.
type Funnel struct {
	Views      int64 `json:"views"`
	Dismissals int64 `json:"dismissals"`
	Started    int64 `json:"started"`
	Finished   int64 `json:"finished"`
}

// QuestionSummary is one question's results: how many reached it (drop-off is the difference
// from one question to the next on the route) and answered it, and, by its type, score counts
// with their average and NPS or CSAT, option counts, or the newest answers.
type QuestionSummary struct {
	QuestionID string `json:"questionId"`
	Title      string `json:"title"`
	Type       string `json:"type"`
	Position   int    `json:"position"`
	Reached    int64  `json:"reached"`
	Answered   int64  `json:"answered"`
	// Scale, Counts and Average are a rating question's; NPS (an "nps" display: per cent
	// promoters less per cent detractors) and CSAT (a 5-point scale: per cent of 4 and 5) when
	// they apply and someone answered.
	Scale   int           `json:"scale,omitempty"`
	Counts  map[int]int64 `json:"counts,omitempty"`
	Average *float64      `json:"average,omitempty"`
	NPS     *float64      `json:"nps,omitempty"`
	CSAT    *float64      `json:"csat,omitempty"`
	// Promoters (9 and 10), Passives (7 and 8) and Detractors (0 to 6) count an NPS question's
	// answers.
	Promoters  *int64 `json:"promoters,omitempty"`
	Passives   *int64 `json:"passives,omitempty"`
	Detractors *int64 `json:"detractors,omitempty"`
	// Options are a single- or multi-select question's option counts, in the options' order;
	// Other counts the free-text answers, for one with editable text (nil otherwise).
	Options []OptionCount `json:"options,omitempty"`
	Other   *int64        `json:"other,omitempty"`
	// Latest are the newest texts written: an open-ended question's answers, or a select
	// question's free texts.
	Latest []LatestAnswer `json:"latest,omitempty"`
}

// OptionCount is how many chose an option.
type OptionCount struct {
	Value string `json:"value"`
	Count int64  `json:"count"`
}

// LatestAnswer is one text a person wrote.
type LatestAnswer struct {
	ResponseID string    `json:"responseId"`
	Text       string    `json:"text"`
	CreatedAt  time.Time `json:"createdAt"`
}

// GetSummary returns a survey's results over a time range, and the period before it. Its cost on
// the server does not grow with the number of responses.
func (c *Client) GetSummary(ctx context.Context, surveyID string, opts *RangeOptions) (*Summary, error) {
	var out struct {
		Data Summary `json:"data"`
	}
	if err := c.t.do(ctx, "GET", pathf("/v1/protected/surveys/%s/summary", surveyID), opts.query(), nil, &out, true); err != nil {
		return nil, err
	}
	return &out.Data, nil
}
