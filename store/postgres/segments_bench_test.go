package postgres_test

import (
	"context"
	"fmt"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/svc-feedback/svc/store"
	"github.com/svc-feedback/svc/store/postgres"
	"github.com/svc-feedback/svc/survey"
)

// BenchmarkPutResponseSegments creates responses from 64 goroutines (on two CPUs) with 0 and 5
// declared segments, each response holding a value of every one. Its CPU is shared between
// this process and the database server, so compare ops/s, and the server's CPU from outside:
//
//	SVC_TEST_POSTGRES=... go test ./store/postgres -run '^$' -bench PutResponseSegments -count 3
func BenchmarkPutResponseSegments(b *testing.B) {
	five := []string{"metadata.plan", "metadata.page", "language", "answer.favourite", "answer.nps"}
	for _, segments := range [][]string{nil, five} {
		b.Run("segments="+strconv.Itoa(len(segments)), func(b *testing.B) {
			ctx := context.Background()
			s := newStoreFor(b).(*postgres.Store)
			if err := s.CreateTeam(ctx, store.Team{ID: "acme", Name: "Acme"}); err != nil {
				b.Fatal(err)
			}
			sv := store.Survey{ID: store.NewSurveyID(), TeamID: "acme", Status: store.StatusActive, Definition: survey.Sample()}
			if err := s.CreateSurvey(ctx, sv); err != nil {
				b.Fatal(err)
			}
			if _, err := s.ModifySettings(ctx, "acme", func(st *store.TeamSettings) error {
				st.Segments = segments
				return nil
			}); err != nil {
				b.Fatal(err)
			}
			plans, pages := []string{"free", "pro", "team"}, []string{"/", "/billing", "/settings", "/docs"}
			var seq atomic.Int64
			b.SetParallelism(32)
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					i := seq.Add(1)
					w := store.ResponseWrite{SurveyID: sv.ID, ID: fmt.Sprint("r", i), Respondent: fmt.Sprint("u", i%1000), Language: "de",
						Data:     survey.Answers{"nps": survey.Number(i % 11), "comments": survey.Text("Great"), "favourite": survey.Text("Reports")},
						Metadata: map[string]string{"plan": plans[i%3], "page": pages[i%4]}, At: time.Now()}
					if _, _, err := s.PutResponse(ctx, w); err != nil {
						b.Error(err)
						return
					}
				}
			})
		})
	}
}
