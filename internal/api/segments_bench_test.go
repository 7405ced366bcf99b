package api_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/svc-feedback/svc/internal/api"
	"github.com/svc-feedback/svc/internal/bench/benchdata"
	"github.com/svc-feedback/svc/store"
)

// BenchmarkSegmentReads measures reads filtered by a declared segment (metadata.plan, which
// every response of the benchmark survey holds), beside the same reads unfiltered, on
// BenchmarkLarge's survey with SVC_BENCH_ROWS responses (default 1,000,000), in a database of
// its own (svc-bench-segments-N.db in the temp folder) whose segment counts are filled once.
//
//	SVC_BENCH_ROWS=10000 go test ./internal/api -run '^$' -bench SegmentReads -benchtime 300x
//	go test ./internal/api -run '^$' -bench SegmentReads -benchtime 300x
func BenchmarkSegmentReads(b *testing.B) {
	rows := 1_000_000
	if n, err := strconv.Atoi(os.Getenv("SVC_BENCH_ROWS")); err == nil && n > 0 {
		rows = n
	}
	ctx := context.Background()
	st, err := benchdata.Open(ctx, filepath.Join(os.TempDir(), fmt.Sprintf("svc-bench-segments-%d.db", rows)), rows, b.Logf)
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	if _, err := st.ModifySettings(ctx, benchdata.TeamID, func(s *store.TeamSettings) error {
		s.Segments = []string{"metadata.plan", "language", "answer.nps"}
		return nil
	}); err != nil {
		b.Fatal(err)
	}
	start := time.Now()
	for {
		p, err := st.FillSegments(ctx, benchdata.TeamID, 5000)
		if err != nil {
			b.Fatal(err)
		}
		if p.State != store.FillFilling {
			break
		}
	}
	b.Logf("segment counts filled in %v", time.Since(start).Round(time.Millisecond))
	h := api.New(st, api.Config{Now: func() time.Time { return benchdata.End(rows) }})
	base := "/v1/protected/surveys/" + benchdata.SurveyID
	for _, bm := range []struct{ name, path string }{
		{"SummaryLast30Days", base + "/summary?timeRange=last-30-days"},
		{"SummaryLast30DaysSegment", base + "/summary?timeRange=last-30-days&metadata.plan=pro"},
		{"SummaryAllTime", base + "/summary"},
		{"SummaryAllTimeSegment", base + "/summary?metadata.plan=pro"},
		{"StatsLast30Days", base + "/stats?timeRange=last-30-days"},
		{"StatsLast30DaysSegment", base + "/stats?timeRange=last-30-days&metadata.plan=pro"},
		{"TrendsYearOfWeeksSegment", base + "/trends?interval=week&timeRange=custom_2025-11-01_2026-10-31&metadata.plan=pro"},
		{"SummaryLast30DaysAnswerSegment", base + "/summary?timeRange=last-30-days&answer.nps=9&answer.nps=10"},
	} {
		b.Run(bm.name, func(b *testing.B) {
			r := httptest.NewRequest("GET", bm.path, nil)
			r.Header.Set("Authorization", "Bearer "+benchdata.SecretKey)
			b.ReportAllocs()
			for b.Loop() {
				rec := httptest.NewRecorder()
				h.ServeHTTP(rec, r)
				if rec.Code != http.StatusOK {
					b.Fatalf("%s: %d %s", bm.path, rec.Code, rec.Body)
				}
			}
		})
	}
}
