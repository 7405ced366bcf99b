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
)

// BenchmarkLarge measures the protected reads on one survey with SVC_BENCH_ROWS responses and
// as many events (default 1,000,000; about one of each every 30 s over a year). Seeding takes
// several minutes; the database is kept in the system temp folder and reused by later runs.
//
//	go test ./handler -run '^$' -bench Large -benchtime 2000x
//	SVC_BENCH_ROWS=10000 go test ./handler -run '^$' -bench Large -benchtime 2000x
func BenchmarkLarge(b *testing.B) {
	rows := 1_000_000
	if n, err := strconv.Atoi(os.Getenv("SVC_BENCH_ROWS")); err == nil && n > 0 {
		rows = n
	}
	path := filepath.Join(os.TempDir(), fmt.Sprintf("svc-bench-%d.db", rows))
	st, err := benchdata.Open(context.Background(), path, rows, b.Logf)
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	now := benchdata.End(rows)
	h := api.New(st, api.Config{Now: func() time.Time { return now }})
	// The data ends at 05:20:00. Asked in the afternoon of its last day, last-30-days starts
	// and ends within days, hours and minutes, as it does for a user.
	afternoon := now.Add(9*time.Hour + 22*time.Minute + 47*time.Second + 653*time.Millisecond)
	hAfternoon := api.New(st, api.Config{Now: func() time.Time { return afternoon }})
	base := "/v1/protected/surveys/" + benchdata.SurveyID
	for _, bm := range []struct {
		name, path string
		h          http.Handler
	}{
		{"FirstPage", base + "/responses?limit=100", h},
		{"DeepPage", base + "/responses?limit=100&cursor=" + benchdata.Cursor(rows/10, rows), h}, // 90% of the rows in
		{"Stats", base + "/stats", h},
		{"ScoreLast30Days", base + "/score-distributions?timeRange=last-30-days", h},
		{"ScoreLast30DaysAfternoon", base + "/score-distributions?timeRange=last-30-days", hAfternoon},
		{"ScoreAllTime", base + "/score-distributions", h},
		{"SummaryLast30Days", base + "/summary?timeRange=last-30-days", h},
		{"SummaryLast30DaysAfternoon", base + "/summary?timeRange=last-30-days", hAfternoon},
		{"SummaryAllTime", base + "/summary", h},
		{"SummaryQuarter", base + "/summary?timeRange=q2-2026", h},
		{"TrendsYearOfWeeks", base + "/trends?interval=week&timeRange=custom_2025-11-01_2026-10-31", h},
	} {
		b.Run(bm.name, func(b *testing.B) {
			r := httptest.NewRequest("GET", bm.path, nil)
			r.Header.Set("Authorization", "Bearer "+benchdata.SecretKey)
			b.ReportAllocs()
			for b.Loop() {
				rec := httptest.NewRecorder()
				bm.h.ServeHTTP(rec, r)
				if rec.Code != http.StatusOK {
					b.Fatalf("%s: %d %s", bm.path, rec.Code, rec.Body)
				}
			}
		})
	}
}
