package report_test

import (
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/svc-feedback/svc/internal/report"
	"github.com/svc-feedback/svc/store"
	"github.com/svc-feedback/svc/store/sqlite"
	"github.com/svc-feedback/svc/survey"
)

// BenchmarkReadSegmentChoices reads the segments a results page offers from surveys of 1,000
// and of 5,000 responses: it reads the newest 1,000 either way, so both cost about the same.
func BenchmarkReadSegmentChoices(b *testing.B) {
	for _, n := range []int{1000, 5000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			ctx := b.Context()
			s, err := sqlite.Open(ctx, filepath.Join(b.TempDir(), "svc.db"), nil)
			if err != nil {
				b.Fatal(err)
			}
			b.Cleanup(func() { s.Close() })
			t0 := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
			sv := store.Survey{ID: "csegmentbench0000000001", TeamID: "t", Status: store.StatusActive, Definition: survey.Sample(), CreatedAt: t0, UpdatedAt: t0}
			if err := s.CreateTeam(ctx, store.Team{ID: "t", Name: "T", CreatedAt: t0}); err != nil {
				b.Fatal(err)
			}
			if err := s.CreateSurvey(ctx, sv); err != nil {
				b.Fatal(err)
			}
			for i := range n {
				meta := map[string]string{"plan": fmt.Sprint("plan-", i%7), "visitor": fmt.Sprint("v", i),
					"url": fmt.Sprintf("https://app.example/page-%d?x=%d", i%40, i), "userAgent": "Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0"}
				w := store.ResponseWrite{SurveyID: sv.ID, ID: fmt.Sprintf("rsegbench%013d", i), Respondent: fmt.Sprint("p", i),
					Data: survey.Answers{"nps": survey.Number(i % 11)}, Metadata: meta, Language: "en", At: t0.Add(time.Duration(i) * time.Second)}
				if _, _, err := s.PutResponse(ctx, w); err != nil {
					b.Fatal(err)
				}
			}
			b.ResetTimer()
			for b.Loop() {
				c, err := report.ReadSegmentChoices(ctx, s, sv.ID, 4<<20)
				if err != nil || c.Read != min(n, report.SegmentScan) {
					b.Fatalf("%v: read %d", err, c.Read)
				}
			}
		})
	}
}
