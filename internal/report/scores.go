package report

import (
	"bytes"
	"context"
	"fmt"

	"github.com/svc-feedback/svc/internal/wire"
	"github.com/svc-feedback/svc/store"
	"github.com/svc-feedback/svc/survey"
)

// QuestionScores is one rating question's score counts in a period.
type QuestionScores struct {
	QuestionID string      `json:"questionId"`
	Title      string      `json:"title"`
	Scale      int         `json:"scale"`
	Total      int64       `json:"total"`
	Average    *float64    `json:"average"`
	Counts     ScoreCounts `json:"counts"`
}

// ScoreCounts are counts by score from Low to Low+len-1, written as a JSON object with every
// score key in numeric order.
type ScoreCounts struct {
	Low int
	N   []int64
}

// MarshalJSON writes {"1": n, ..., "scale": n}.
func (c ScoreCounts) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, n := range c.N {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `"%d":%d`, c.Low+i, n)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// ScorePeriod is the score distributions of rating questions in a period.
type ScorePeriod struct {
	Start     wire.Time        `json:"start"`
	End       wire.Time        `json:"end"`
	Questions []QuestionScores `json:"questions"`
}

// Scores counts the scores of the rating questions of a survey in p, from the counts the store
// keeps.
func Scores(ctx context.Context, s store.Store, surveyID string, questions []*survey.Question, p Period) (ScorePeriod, error) {
	ids := make([]string, len(questions))
	for i, q := range questions {
		ids[i] = q.ID
	}
	counts, err := s.Counts(ctx, surveyID, ids, p.Start, p.End)
	if err != nil {
		return ScorePeriod{}, err
	}
	out := ScorePeriod{Start: wire.Time(p.Start), End: wire.Time(p.End), Questions: make([]QuestionScores, 0, len(questions))}
	for _, q := range questions {
		props := q.Properties.(survey.RatingProperties)
		low := 1
		if props.Display != nil && *props.Display == survey.DisplayNPS {
			low = 0
		}
		d := QuestionScores{QuestionID: q.ID, Title: q.Title, Scale: props.Scale,
			Counts: ScoreCounts{Low: low, N: make([]int64, props.Scale-low+1)}}
		var sum int64
		for score, n := range counts[q.ID] {
			if score < low || score > props.Scale {
				continue // a score from before the scale changed
			}
			d.Counts.N[score-low] = n
			d.Total += n
			sum += int64(score) * n
		}
		if d.Total > 0 {
			avg := float64(sum) / float64(d.Total)
			d.Average = &avg
		}
		out.Questions = append(out.Questions, d)
	}
	return out, nil
}
