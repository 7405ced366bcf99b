package postgres_test

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/svc-feedback/svc/store"
	"github.com/svc-feedback/svc/survey"
)

// BenchmarkHistory reads stats and a last-30-days score distribution over a history of
// SVC_BENCH_ROWS responses (10,000 by default) spread over a year, to compare sizes: their
// cost must not grow with the history.
//
//	SVC_TEST_POSTGRES=... go test ./store/postgres -run '^$' -bench History -count 3
//	SVC_BENCH_ROWS=300000 SVC_TEST_POSTGRES=... go test ./store/postgres -run '^$' -bench History -count 3
func BenchmarkHistory(b *testing.B) {
	rows := 10_000
	if v, err := strconv.Atoi(os.Getenv("SVC_BENCH_ROWS")); err == nil && v > 0 {
		rows = v
	}
	s := newStoreFor(b)
	ctx := context.Background()
	now := time.Date(2026, 11, 24, 14, 42, 47, 653_000_000, time.UTC)
	if err := s.CreateTeam(ctx, store.Team{ID: "acme", Name: "Acme"}); err != nil {
		b.Fatal(err)
	}
	sv := store.Survey{ID: store.NewSurveyID(), TeamID: "acme", Status: store.StatusActive, Definition: survey.Sample(), CreatedAt: now.AddDate(-1, 0, 0)}
	if err := s.CreateSurvey(ctx, sv); err != nil {
		b.Fatal(err)
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := int(next.Add(1)) - 1; i < rows; i = int(next.Add(1)) - 1 {
				w := store.ResponseWrite{SurveyID: sv.ID, ID: fmt.Sprintf("r%d", i), Respondent: fmt.Sprintf("u%d", i%5000),
					Data: survey.Answers{"nps": survey.Number(i % 11)}, Metadata: map[string]string{},
					At: now.AddDate(-1, 0, 0).Add(time.Duration(i) * (365 * 24 * time.Hour / time.Duration(rows))), Imported: true}
				if _, _, err := s.PutResponse(ctx, w); err != nil {
					b.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	b.Run(fmt.Sprintf("stats/%d", rows), func(b *testing.B) {
		for range b.N {
			if _, err := s.Stats(ctx, sv.ID); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run(fmt.Sprintf("last-30-days/%d", rows), func(b *testing.B) {
		for range b.N {
			if _, err := s.RatingCounts(ctx, sv.ID, []string{"nps"}, now.Add(-30*24*time.Hour), now); err != nil {
				b.Fatal(err)
			}
		}
	})
}
