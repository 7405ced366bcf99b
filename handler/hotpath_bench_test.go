package handler_test

import (
	"fmt"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
)

// Hot-path benchmarks of the widget endpoints, through the real handler over SQLite
// (synchronous=FULL), from many goroutines at once:
//
//	go test ./handler -run '^$' -bench 'Hot' -benchmem -count 6
func BenchmarkHotResponsePut(b *testing.B) {
	e := setup(b)
	var n atomic.Int64
	body := `{"respondent":"user%d","data":{"nps":9,"stars":4,"favourite":"Alerts","missing":["Speed","Docs"],` +
		`"comments":"The new dashboard is great, but exports are slow"},"metadata":{"page":"/dashboard","plan":"pro","locale":"en-GB"}}`
	b.SetParallelism(32)
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			i := n.Add(1)
			r := httptest.NewRequest("PUT", fmt.Sprintf("/v1/svc/%s/response/r%d", e.survA.ID, i), strings.NewReader(fmt.Sprintf(body, i%1000)))
			r.Header.Set("x-svc-pk", e.pkA)
			r.Header.Set("Content-Type", "application/json")
			rec := httptest.NewRecorder()
			e.h.ServeHTTP(rec, r)
			if rec.Code != 200 {
				b.Fatalf("%d %s", rec.Code, rec.Body)
			}
		}
	})
}

func BenchmarkHotEventPost(b *testing.B) {
	e := setup(b)
	var n atomic.Int64
	b.SetParallelism(32)
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			i := n.Add(1)
			r := httptest.NewRequest("POST", fmt.Sprintf("/v1/svc/%s/respondent/user%d/event", e.survA.ID, i%1000), strings.NewReader(`{"type":"view"}`))
			r.Header.Set("x-svc-pk", e.pkA)
			r.Header.Set("Content-Type", "application/json")
			rec := httptest.NewRecorder()
			e.h.ServeHTTP(rec, r)
			if rec.Code != 200 {
				b.Fatalf("%d %s", rec.Code, rec.Body)
			}
		}
	})
}

func BenchmarkHotSurveyGet(b *testing.B) {
	e := setup(b)
	r := httptest.NewRequest("GET", "/v1/svc/"+e.survA.ID, nil)
	r.Header.Set("x-svc-pk", e.pkA)
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			rec := httptest.NewRecorder()
			e.h.ServeHTTP(rec, r)
			if rec.Code != 200 {
				b.Fatalf("%d %s", rec.Code, rec.Body)
			}
		}
	})
}
