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
	"github.com/svc-feedback/svc/store/postgres"
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
			if _, err := s.Counts(ctx, sv.ID, []string{"nps"}, now.Add(-30*24*time.Hour), now); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkPutResponse creates responses from 64 goroutines (on two CPUs), beside the ceiling
// of the same work without svc: a plain INSERT of the same row per operation, on the same pool
// and database. Compare the two ops/s of one run:
//
//	SVC_TEST_POSTGRES=... go test ./store/postgres -run '^$' -bench PutResponse -count 3
func BenchmarkPutResponse(b *testing.B) {
	ctx := context.Background()
	s := newStoreFor(b).(*postgres.Store)
	if err := s.CreateTeam(ctx, store.Team{ID: "acme", Name: "Acme"}); err != nil {
		b.Fatal(err)
	}
	sv := store.Survey{ID: store.NewSurveyID(), TeamID: "acme", Status: store.StatusActive, Definition: survey.Sample()}
	if err := s.CreateSurvey(ctx, sv); err != nil {
		b.Fatal(err)
	}
	if _, err := s.Pool().Exec(ctx, `CREATE TABLE raw_responses (survey_id text, id text, respondent text, data text,
		metadata text, created_at bigint, updated_at bigint, PRIMARY KEY (survey_id, id))`); err != nil {
		b.Fatal(err)
	}
	var seq atomic.Int64
	b.Run("raw-insert", func(b *testing.B) {
		b.SetParallelism(32)
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				i := seq.Add(1)
				if _, err := s.Pool().Exec(ctx, `INSERT INTO raw_responses VALUES ($1, $2, $3, $4, $5, $6, $6)`, sv.ID,
					fmt.Sprint("r", i), fmt.Sprint("u", i%1000), `{"nps":9,"comments":"Great"}`, `{"page":"/"}`, time.Now().UnixMilli()); err != nil {
					b.Error(err)
					return
				}
			}
		})
	})
	b.Run("svc", func(b *testing.B) {
		b.SetParallelism(32)
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				i := seq.Add(1)
				w := store.ResponseWrite{SurveyID: sv.ID, ID: fmt.Sprint("r", i), Respondent: fmt.Sprint("u", i%1000),
					Data: survey.Answers{"nps": survey.Number(9), "comments": survey.Text("Great")}, Metadata: map[string]string{"page": "/"}, At: time.Now()}
				if _, _, err := s.PutResponse(ctx, w); err != nil {
					b.Error(err)
					return
				}
			}
		})
	})
}
