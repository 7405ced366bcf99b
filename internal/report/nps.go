package report

import (
	"context"
	"math"

	"github.com/svc-feedback/svc/store"
	"github.com/svc-feedback/svc/survey"
)

// NPSQuestion is a survey's first Net Promoter Score question (a rating shown as "nps"), or
// nil when it has none.
func NPSQuestion(def *survey.Definition) *survey.Question {
	for i := range def.Questions {
		if p, ok := def.Questions[i].Properties.(survey.RatingProperties); ok && p.Display != nil && *p.Display == survey.DisplayNPS {
			return &def.Questions[i]
		}
	}
	return nil
}

// NPS is a survey's Net Promoter Score in p, as its summary gives it (QuestionSummary.NPS): per
// cent promoters less per cent detractors of its first NPS question, to one decimal, from the
// counts the store keeps. It is nil for a survey without an NPS question or without a score in p.
func NPS(ctx context.Context, s store.Store, sv store.Survey, p Period) (*float64, error) {
	q := NPSQuestion(&sv.Definition)
	if q == nil {
		return nil, nil
	}
	scores, err := Scores(ctx, s, sv.ID, []*survey.Question{q}, p)
	if err != nil {
		return nil, err
	}
	c := scores.Questions[0].Counts
	var total, promoters, detractors int64
	for i, n := range c.N {
		switch score := c.Low + i; {
		case score >= 9:
			promoters += n
		case score < 7:
			detractors += n
		}
		total += n
	}
	if total == 0 {
		return nil, nil
	}
	v := math.Round(1000*float64(promoters-detractors)/float64(total)) / 10
	return &v, nil
}
