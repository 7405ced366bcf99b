package client

import (
	"context"
	"strings"
	"time"
)

// Intervals of a trend's buckets: UTC days, ISO weeks (from Monday) and calendar months.
const (
	IntervalDay   = "day"
	IntervalWeek  = "week"
	IntervalMonth = "month"
)

// TrendOptions choose a trend's time range, its buckets' interval (IntervalDay when empty;
// at most 1,000 buckets) and the rating questions it follows (every one when empty). nil
// means all time, by day.
type TrendOptions struct {
	TimeRange   TimeRange
	Interval    string
	QuestionIDs []string
	// Filter counts only the responses it picks (views stay the survey's).
	Filter *Filter
}

// Trend is a survey's results bucket by bucket over a time range.
type Trend struct {
	Interval string        `json:"interval"`
	Start    time.Time     `json:"start"`
	End      time.Time     `json:"end"`
	Buckets  []TrendBucket `json:"buckets"`
}

// TrendBucket is one interval of a trend (the part of it in the range).
type TrendBucket struct {
	Start     time.Time       `json:"start"`
	End       time.Time       `json:"end"`
	Views     int64           `json:"views"`
	Responses int64           `json:"responses"`
	Finished  int64           `json:"finished"`
	Questions []QuestionTrend `json:"questions"`
}

// QuestionTrend is a rating question in a bucket: how many answered it, and their average,
// NPS or CSAT (nil when nobody answered, or when the question has none).
type QuestionTrend struct {
	QuestionID string   `json:"questionId"`
	Answered   int64    `json:"answered"`
	Average    *float64 `json:"average"`
	NPS        *float64 `json:"nps,omitempty"`
	CSAT       *float64 `json:"csat,omitempty"`
}

// Trends returns how a survey's views, responses and ratings moved over a time range, bucket
// by bucket. Its cost on the server grows with the buckets, not with the responses.
func (c *Client) Trends(ctx context.Context, surveyID string, opts *TrendOptions) (*Trend, error) {
	if opts == nil {
		opts = &TrendOptions{}
	}
	q := opts.Filter.addTo(rangeQuery(opts.TimeRange))
	if opts.Interval != "" {
		q.Set("interval", opts.Interval)
	}
	if len(opts.QuestionIDs) > 0 {
		q.Set("questionIds", strings.Join(opts.QuestionIDs, ","))
	}
	var out struct {
		Data Trend `json:"data"`
	}
	if err := c.t.do(ctx, "GET", pathf("/v1/protected/surveys/%s/trends", surveyID), q, nil, &out, true); err != nil {
		return nil, err
	}
	return &out.Data, nil
}
