package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/svc-feedback/svc/internal/bench/benchdata"
	"github.com/svc-feedback/svc/store"
	"github.com/svc-feedback/svc/survey"
)

// targetedSurveys is how many active surveys with display rules the benchmark team holds, for
// the next-survey scenario (issue 33's target: at least 0.8x GET survey's throughput with 100).
const targetedSurveys = 100

// prepareTargeted gives the benchmark team its surveys with display rules, once: survey i is
// shown on the pages under /app/page-i/, to people on a paid plan, until they respond.
func prepareTargeted(ctx context.Context, st store.Store) error {
	for i := range targetedSurveys {
		def := survey.Sample()
		def.Display = &survey.Display{
			URLs:       []survey.URLRule{{Match: survey.MatchPrefix, Value: fmt.Sprintf("/app/page-%d/", i)}},
			Attributes: []survey.AttributeRule{{Key: "plan", Operator: survey.OpNotEqual, Value: "free"}},
			Priority:   float64(i % 3),
		}
		sv := store.Survey{ID: fmt.Sprintf("loadtarget%03d", i), TeamID: benchdata.TeamID, Status: store.StatusActive, Definition: def,
			CreatedAt: benchdata.Start, UpdatedAt: benchdata.Start}
		if err := st.CreateSurvey(ctx, sv); err != nil && !errors.Is(err, store.ErrConflict) {
			return fmt.Errorf("targeted survey %d: %w", i, err)
		}
	}
	return nil
}
