package api_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/svc-feedback/svc/internal/bench/benchdata"
	"github.com/svc-feedback/svc/store"
	"github.com/svc-feedback/svc/survey"
)

// BenchmarkHotNextSurveyWidgetURL is BenchmarkHotNextSurvey at 100 surveys with the page's URL as
// the widget sends it (location.href: scheme, host, query and fragment) rather than its path:
//
//	go test ./internal/api -run '^$' -bench 'HotNextSurvey' -benchmem -count 6
func BenchmarkHotNextSurveyWidgetURL(b *testing.B) {
	e := setup(b)
	for i := range 100 {
		def := survey.Sample()
		def.Display = benchdata.TargetedDisplay(i)
		sv := store.Survey{ID: fmt.Sprintf("target%04d", i), TeamID: e.survA.TeamID, Status: store.StatusActive, Definition: def,
			CreatedAt: e.clock.Now(), UpdatedAt: e.clock.Now()}
		if err := e.store.CreateSurvey(b.Context(), sv); err != nil {
			b.Fatal(err)
		}
	}
	ask := strings.Replace(benchdata.TargetedAsk, `"url":"/app/page-42/settings"`, `"url":"https://app.example.com/app/page-42/settings?tab=team#/members"`, 1)
	if ask == benchdata.TargetedAsk {
		b.Fatal("the ask's URL was not replaced")
	}
	benchParallel(b, e, func(i int64) *http.Request {
		r := httptest.NewRequest("POST", "/v1/svc/next-survey", strings.NewReader(fmt.Sprintf(ask, i%1000)))
		r.Header.Set("x-svc-pk", e.pkA)
		r.Header.Set("Content-Type", "application/json")
		return r
	})
}
