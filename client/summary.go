package client

import (
	"context"
	"net/url"
	"time"
)

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

// GetSummary returns a survey's results for a time range (AllTime, the default, Last7Days,
// Last30Days, Quarter(...) or CustomRange(...)). Its cost on the server does not grow with the
// number of responses.
func (c *Client) GetSummary(ctx context.Context, surveyID, timeRange string) (*Summary, error) {
	q := url.Values{}
	if timeRange != "" {
		q.Set("timeRange", timeRange)
	}
	var out struct {
		Data Summary `json:"data"`
	}
	if err := c.t.do(ctx, "GET", pathf("/v1/protected/surveys/%s/summary", surveyID), q, nil, &out, true); err != nil {
		return nil, err
	}
	return &out.Data, nil
}
