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

// prepareTargeted gives the benchmark team its surveys with display rules
// (benchdata.TargetedDisplay), once.
func prepareTargeted(ctx context.Context, st store.Store) error {
	for i := range targetedSurveys {
		def := survey.Sample()
		def.Display = benchdata.TargetedDisplay(i)
		sv := store.Survey{ID: fmt.Sprintf("loadtarget%03d", i), TeamID: benchdata.TeamID, Status: store.StatusActive, Definition: def,
			CreatedAt: benchdata.Start, UpdatedAt: benchdata.Start}
		if err := st.CreateSurvey(ctx, sv); err != nil && !errors.Is(err, store.ErrConflict) {
			return fmt.Errorf("targeted survey %d: %w", i, err)
		}
	}
	return nil
}
