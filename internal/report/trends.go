package report

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/svc-feedback/svc/internal/wire"
	"github.com/svc-feedback/svc/store"
	"github.com/svc-feedback/svc/survey"
)

// Intervals a trend is bucketed by.
const (
	IntervalDay   = "day"
	IntervalWeek  = "week"
	IntervalMonth = "month"
)

// MaxBuckets bounds a trend: a longer range needs a longer interval.
const MaxBuckets = 1000

// Trend is a survey's results bucket by bucket over a period.
type Trend struct {
	Interval string    `json:"interval"`
	Start    wire.Time `json:"start"`
	End      wire.Time `json:"end"`
	Buckets  []Bucket  `json:"buckets"`
}

// Bucket is one interval of a trend: the part of a UTC day, ISO week (from Monday) or calendar
// month that falls in the period.
type Bucket struct {
	Start     wire.Time       `json:"start"`
	End       wire.Time       `json:"end"`
	Views     int64           `json:"views"`
	Responses int64           `json:"responses"`
	Finished  int64           `json:"finished"`
	Questions []QuestionTrend `json:"questions"`
}

// QuestionTrend is a rating question in a bucket: how many answered it, their average, and
// the NPS or CSAT where the question has one, each resting on Answered.
type QuestionTrend struct {
	QuestionID string   `json:"questionId"`
	Answered   int64    `json:"answered"`
	Average    *float64 `json:"average"`
	NPS        *float64 `json:"nps,omitempty"`
	CSAT       *float64 `json:"csat,omitempty"`
}

// TrendQuestions returns the rating questions a trend follows: those named by ids, in that
// order, or every rating question in position order when ids is empty. A name that is not a
// rating question of sv is an error that wraps store.ErrInvalid.
func TrendQuestions(sv store.Survey, ids []string) ([]*survey.Question, error) {
	var out []*survey.Question
	if len(ids) == 0 {
		for i := range sv.Questions {
			if sv.Questions[i].Type() == survey.TypeRating {
				out = append(out, &sv.Questions[i])
			}
		}
		return out, nil
	}
	for _, id := range ids {
		i := slices.IndexFunc(sv.Questions, func(q survey.Question) bool { return q.ID == id })
		switch {
		case i < 0:
			return nil, store.Invalidf("questionIds: the survey has no question %q", wire.Truncate(id))
		case sv.Questions[i].Type() != survey.TypeRating:
			return nil, store.Invalidf("questionIds: question %q is not a rating question: trends follow ratings", wire.Truncate(id))
		}
		out = append(out, &sv.Questions[i])
	}
	return out, nil
}

// Buckets splits p into interval buckets, or fails with an error wrapping store.ErrInvalid
// for an unknown interval or more than MaxBuckets buckets.
func Buckets(p Period, interval string) ([]Period, error) {
	var next func(time.Time) time.Time
	start := p.Start.UTC()
	day := time.Date(start.Year(), start.Month(), start.Day(), 0, 0, 0, 0, time.UTC)
	switch interval {
	case IntervalDay:
		next = func(t time.Time) time.Time { return t.AddDate(0, 0, 1) }
	case IntervalWeek:
		day = day.AddDate(0, 0, -(int(day.Weekday())+6)%7) // back to Monday
		next = func(t time.Time) time.Time { return t.AddDate(0, 0, 7) }
	case IntervalMonth:
		day = time.Date(start.Year(), start.Month(), 1, 0, 0, 0, 0, time.UTC)
		next = func(t time.Time) time.Time { return t.AddDate(0, 1, 0) }
	default:
		return nil, store.Invalidf("interval must be day, week or month")
	}
	var out []Period
	for b := day; b.Before(p.End); b = next(b) {
		if len(out) == MaxBuckets {
			return nil, store.Invalidf("the range holds more than %d %ss: choose a longer interval or a shorter range", MaxBuckets, interval)
		}
		out = append(out, Period{Start: later(b, p.Start), End: earlier(next(b), p.End)})
	}
	return out, nil
}

func later(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

func earlier(a, b time.Time) time.Time {
	if a.Before(b) {
		return a
	}
	return b
}

// Trends works out sv's trend over p by interval for the rating questions qs, each bucket from
// the counts the store keeps on write (store.Store.Counts), so that its cost grows with the buckets,
// not with the responses. A store.PeriodCounter reads every bucket at once.
func Trends(ctx context.Context, s store.Store, sv store.Survey, p Period, interval string, qs []*survey.Question) (Trend, error) {
	buckets, err := Buckets(p, interval)
	if err != nil {
		return Trend{}, err
	}
	keys := []string{store.FunnelKey, store.EventsKey}
	for _, q := range qs {
		keys = append(keys, q.ID)
	}
	counts, err := bucketCounts(ctx, s, sv.ID, keys, buckets)
	if err != nil {
		return Trend{}, fmt.Errorf("trend of survey %s: %w", sv.ID, err)
	}
	out := Trend{Interval: interval, Start: wire.Time(p.Start), End: wire.Time(p.End), Buckets: make([]Bucket, 0, len(buckets))}
	for i, b := range buckets {
		c := counts[i]
		bucket := Bucket{Start: wire.Time(b.Start), End: wire.Time(b.End), Views: c[store.EventsKey][0],
			Responses: c[store.FunnelKey][0], Finished: c[store.FunnelKey][1], Questions: make([]QuestionTrend, 0, len(qs))}
		for _, q := range qs {
			var sum QuestionSummary
			rateSummary(&sum, q.Properties.(survey.RatingProperties), c[q.ID])
			var answered int64
			for _, n := range sum.Counts.N {
				answered += n
			}
			bucket.Questions = append(bucket.Questions, QuestionTrend{QuestionID: q.ID, Answered: answered,
				Average: sum.Average, NPS: sum.NPS, CSAT: sum.CSAT})
		}
		out.Buckets = append(out.Buckets, bucket)
	}
	return out, nil
}

// bucketCounts reads the counts of each of the consecutive buckets: at once from a
// store.PeriodCounter, else one Counts call each.
func bucketCounts(ctx context.Context, s store.Store, surveyID string, keys []string, buckets []Period) ([]map[string]map[int]int64, error) {
	if pc, ok := s.(store.PeriodCounter); ok && len(buckets) > 0 {
		bounds := make([]time.Time, 0, len(buckets)+1)
		for _, b := range buckets {
			bounds = append(bounds, b.Start)
		}
		return pc.PeriodCounts(ctx, surveyID, keys, append(bounds, buckets[len(buckets)-1].End))
	}
	out := make([]map[string]map[int]int64, 0, len(buckets))
	for _, b := range buckets {
		c, err := s.Counts(ctx, surveyID, keys, b.Start, b.End)
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, nil
}
