package handler_test

import (
	"context"
	"encoding/base64"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/svc-feedback/svc/handler"
	"github.com/svc-feedback/svc/internal/demo"
	"github.com/svc-feedback/svc/store"
	"github.com/svc-feedback/svc/store/sqlite"
	"github.com/svc-feedback/svc/survey"
)

// The large-survey benchmark seeds one survey with benchRows responses and as many events
// (about one every 30 s over a year), then measures the protected reads on it. Seeding takes a
// minute or two; the database is kept in the system temp folder and reused by later runs.
//
//	go test ./handler -run '^$' -bench Large -benchtime 2000x
//
// SVC_BENCH_ROWS overrides the size (10000 gives the small baseline for the ratio).
const defaultBenchRows = 1_000_000

const benchStep = 30 * time.Second

var benchStart = time.Date(2025, 11, 1, 0, 0, 0, 0, time.UTC)

const (
	benchSurvey = "benchsurvey0001"
	benchKey    = "svc_sk_benchbenchbenchbenchbenchbenchbench"
)

func benchRows() int {
	if n, err := strconv.Atoi(os.Getenv("SVC_BENCH_ROWS")); err == nil && n > 0 {
		return n
	}
	return defaultBenchRows
}

func benchResponseID(i int) string { return fmt.Sprintf("r%09d", i) }

// openLargeStore returns a store holding the large survey, seeding it on first use.
func openLargeStore(b *testing.B, rows int) *sqlite.Store {
	b.Helper()
	path := filepath.Join(os.TempDir(), fmt.Sprintf("svc-bench-%d.db", rows))
	_, statErr := os.Stat(path)
	ctx := context.Background()
	st, err := sqlite.Open(ctx, path, &sqlite.Options{Synchronous: sqlite.SynchronousNormal})
	if err != nil {
		b.Fatal(err)
	}
	if statErr == nil {
		if s, err := st.Stats(ctx, benchSurvey); err == nil && s.TotalResponses == int64(rows) && s.TotalViews == int64(rows) {
			return st
		}
	}
	b.Logf("seeding %d responses and %d events into %s", rows, rows, path)
	t0 := time.Now()
	if err := seedLarge(ctx, st, rows); err != nil {
		st.Close()
		os.Remove(path)
		b.Fatal(err)
	}
	b.Logf("seeded in %v", time.Since(t0).Round(time.Second))
	return st
}

func seedLarge(ctx context.Context, st *sqlite.Store, rows int) error {
	if err := st.CreateTeam(ctx, store.Team{ID: "bench", Name: "Bench", CreatedAt: benchStart}); err != nil {
		return err
	}
	if err := st.AddKey(ctx, store.NewKey("bench", store.Secret, benchKey, benchStart), benchKey); err != nil {
		return err
	}
	sv := store.Survey{ID: benchSurvey, TeamID: "bench", Status: store.StatusActive, Definition: demo.Survey(), CreatedAt: benchStart, UpdatedAt: benchStart}
	if err := st.CreateSurvey(ctx, sv); err != nil {
		return err
	}
	// Concurrent writers let the store group commits.
	const workers = 128
	var wg sync.WaitGroup
	errs := make(chan error, workers)
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < rows; i += workers {
				at := benchStart.Add(time.Duration(i) * benchStep)
				who := "user" + strconv.Itoa(i%100_000)
				_, _, err := st.PutResponse(ctx, store.ResponseWrite{SurveyID: benchSurvey, ID: benchResponseID(i), Respondent: who,
					Data:     survey.Answers{"nps": survey.Number(i % 11), "stars": survey.Number(i%5 + 1), "comments": survey.Text("Fine, thanks")},
					Metadata: map[string]string{"page": "/home", "plan": "pro"}, At: at})
				if err != nil {
					errs <- err
					return
				}
				typ := store.EventView
				if i%4 == 0 {
					typ = store.EventDismiss
				}
				if err := st.RecordEvent(ctx, store.Event{SurveyID: benchSurvey, Respondent: who, Type: typ, At: at}); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	return <-errs
}

// benchCursor writes the cursor that ends a page at response i, in the handler's format.
func benchCursor(i int) string {
	at := benchStart.Add(time.Duration(i) * benchStep).UnixMilli()
	return base64.RawURLEncoding.EncodeToString([]byte(fmt.Sprintf(`{"t":%d,"i":%q}`, at, benchResponseID(i))))
}

func BenchmarkLarge(b *testing.B) {
	rows := benchRows()
	st := openLargeStore(b, rows)
	defer st.Close()
	now := benchStart.Add(time.Duration(rows) * benchStep)
	h := handler.New(st, handler.Options{Now: func() time.Time { return now }})
	base := "/v1/protected/surveys/" + benchSurvey
	deep := rows / 10 // the page after 90% of the rows, newest first
	for _, bm := range []struct{ name, path string }{
		{"FirstPage", base + "/responses?limit=100"},
		{"DeepPage", base + "/responses?limit=100&cursor=" + benchCursor(deep)},
		{"Stats", base + "/stats"},
		{"ScoreLast30Days", base + "/score-distributions?timeRange=last-30-days"},
		{"ScoreAllTime", base + "/score-distributions"},
	} {
		b.Run(bm.name, func(b *testing.B) {
			r := httptest.NewRequest("GET", bm.path, nil)
			r.Header.Set("Authorization", "Bearer "+benchKey)
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
