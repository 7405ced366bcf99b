package api_test

import (
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/svc-feedback/svc/internal/api"
	"github.com/svc-feedback/svc/internal/bench/benchdata"
	"github.com/svc-feedback/svc/logbuf"
	"github.com/svc-feedback/svc/store"
	"github.com/svc-feedback/svc/survey"
)

// Hot-path benchmarks of the widget endpoints, through the real handler over SQLite
// (synchronous=FULL), from many goroutines at once:
//
//	go test ./handler -run '^$' -bench 'Hot' -benchmem -count 6
//
// benchParallel serves the requests made by next from many goroutines at once, each expecting
// a 200.
func benchParallel(b *testing.B, e *env, next func(i int64) *http.Request) {
	var n atomic.Int64
	b.SetParallelism(32)
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			rec := httptest.NewRecorder()
			e.h.ServeHTTP(rec, next(n.Add(1)))
			if rec.Code != 200 {
				b.Fatalf("%d %s", rec.Code, rec.Body)
			}
		}
	})
}

func BenchmarkHotResponsePut(b *testing.B) {
	e := setup(b)
	body := `{"respondent":"user%d","data":{"nps":9,"stars":4,"favourite":"Alerts","missing":["Speed","Docs"],` +
		`"comments":"The new dashboard is great, but exports are slow"},"metadata":{"page":"/dashboard","plan":"pro","locale":"en-GB"}}`
	benchParallel(b, e, func(i int64) *http.Request {
		r := httptest.NewRequest("PUT", fmt.Sprintf("/v1/svc/%s/response/r%d", e.survA.ID, i), strings.NewReader(fmt.Sprintf(body, i%1000)))
		r.Header.Set("x-svc-pk", e.pkA)
		r.Header.Set("Content-Type", "application/json")
		return r
	})
}

func BenchmarkHotEventPost(b *testing.B) {
	e := setup(b)
	benchParallel(b, e, func(i int64) *http.Request {
		r := httptest.NewRequest("POST", fmt.Sprintf("/v1/svc/%s/respondent/user%d/event", e.survA.ID, i%1000), strings.NewReader(`{"type":"view"}`))
		r.Header.Set("x-svc-pk", e.pkA)
		r.Header.Set("Content-Type", "application/json")
		return r
	})
}

// BenchmarkHotSurveyGet serves the survey without an access log and with one, as
// examples/server writes it (slog's text handler, queued).
func BenchmarkHotSurveyGet(b *testing.B) {
	for _, logged := range []bool{false, true} {
		name := "no-access-log"
		if logged {
			name = "access-log"
		}
		b.Run(name, func(b *testing.B) {
			e := setup(b, func(c *api.Config) {
				if logged {
					out := logbuf.NewHandler(io.Discard, func(w io.Writer) slog.Handler { return slog.NewTextHandler(w, nil) })
					b.Cleanup(func() { out.Close() })
					c.AccessLog = slog.New(out)
				}
			})
			benchParallel(b, e, func(int64) *http.Request {
				r := httptest.NewRequest("GET", "/v1/svc/"+e.survA.ID, nil)
				r.Header.Set("x-svc-pk", e.pkA)
				return r
			})
		})
	}
}

// BenchmarkHotNextSurvey asks for the next survey of a team holding 100 (and 1,000) active
// surveys with display rules, as the load benchmark does: a thousand people without history, on
// a page that one of the surveys matches, each picked it.
func BenchmarkHotNextSurvey(b *testing.B) {
	for _, n := range []int{100, 1000} {
		b.Run(fmt.Sprint(n, "-surveys"), func(b *testing.B) {
			e := setup(b)
			for i := range n {
				def := survey.Sample()
				def.Display = benchdata.TargetedDisplay(i)
				sv := store.Survey{ID: fmt.Sprintf("target%04d", i), TeamID: e.survA.TeamID, Status: store.StatusActive, Definition: def,
					CreatedAt: e.clock.Now(), UpdatedAt: e.clock.Now()}
				if err := e.store.CreateSurvey(b.Context(), sv); err != nil {
					b.Fatal(err)
				}
			}
			benchParallel(b, e, func(i int64) *http.Request {
				r := httptest.NewRequest("POST", "/v1/svc/next-survey", strings.NewReader(fmt.Sprintf(benchdata.TargetedAsk, i%1000)))
				r.Header.Set("x-svc-pk", e.pkA)
				r.Header.Set("Content-Type", "application/json")
				return r
			})
		})
	}
}
