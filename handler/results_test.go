package handler_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/svc-feedback/svc/handler"
)

// TestResultsPages renders the list and a survey's page, with every question type, under the
// strict policy, and refuses another team's survey.
func TestResultsPages(t *testing.T) {
	e := setup(t)
	e.putResponse(e.survA.ID, "rresults000000000000001", "ann", `{"nps":10,"stars":4,"favourite":"Alerts","comments":"<b>Lovely</b>"}`)
	e.putResponse(e.survA.ID, "rresults000000000000002", "bob", `{"nps":2,"missing":["Speed"],"comments":"a bug"}`)
	wantStatus(t, e.public("POST", "/v1/svc/"+e.survA.ID+"/respondent/cat/event", `{"type":"view"}`), 200, "")
	e.clock.Advance(time.Minute)
	rs := handler.NewResults(e.store, "a", handler.Config{Now: e.clock.Now})
	get := func(path string) *httptest.ResponseRecorder {
		rec := httptest.NewRecorder()
		rs.ServeHTTP(rec, httptest.NewRequest("GET", path, nil))
		return rec
	}
	list := get("/")
	if list.Code != 200 || !strings.Contains(list.Body.String(), `href="surveys/`+e.survA.ID+`"`) || strings.Contains(list.Body.String(), e.survB.ID) {
		t.Errorf("list: %d\n%s", list.Code, list.Body)
	}
	if csp := list.Header().Get("Content-Security-Policy"); !strings.Contains(csp, "default-src 'none'") || strings.Contains(csp, "unsafe") {
		t.Errorf("policy %q", csp)
	}
	page := get("/surveys/" + e.survA.ID + "?timeRange=last-7-days")
	body := page.Body.String()
	for _, want := range []string{
		`<h1>How are we doing?</h1>`, `aria-current="page">Last 7 days`, `<h2 id="funnel">Funnel</h2>`,
		`aria-label="NPS 0.0"`, // one promoter, one detractor
		`CSAT <strong>100.0%</strong>`, `>Alerts</span>`, `>Other (free text)</span>`, `>Speed</span>`,
		`<q>&lt;b&gt;Lovely&lt;/b&gt;</q>`, // answers are text, never markup
		`<h2 id="latest">Latest responses</h2>`, `<td>bob</td>`,
		`The period before: 0 views, 0 started, 0 finished.`, `href="?timeRange=q4-2026"`, `href="?timeRange=q3-2026"`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("survey page lacks %s", want)
		}
	}
	if strings.Contains(body, "style=") || strings.Contains(body, "<script") {
		t.Error("the page has inline style or script, which its policy refuses")
	}
	// The custom range's form: its days become the API's custom range, and fill the form again.
	custom := get("/surveys/" + e.survA.ID + "?from=2026-11-01&to=2026-11-21").Body.String()
	for _, want := range []string{`1 Nov 2026 00:00 to 22 Nov 2026 00:00 (UTC)`, `name="from" value="2026-11-01"`, `name="to" value="2026-11-21"`,
		`The period before: 0 views, 0 started, 0 finished.`, `Started</span>`} {
		if !strings.Contains(custom, want) {
			t.Errorf("custom range page lacks %s", want)
		}
	}
	if !strings.Contains(body, `name="from" value="`) || !strings.Contains(body, `<form class="custom" method="get" aria-label="Custom range">`) {
		t.Error("the page lacks the custom range's form, filled with the days it shows")
	}
	css := get("/results.css")
	if css.Code != 200 || css.Header().Get("Content-Type") != "text/css; charset=utf-8" {
		t.Errorf("stylesheet: %d %q", css.Code, css.Header().Get("Content-Type"))
	}
	for path, status := range map[string]int{
		"/surveys/" + e.survB.ID:                                    http.StatusNotFound,
		"/surveys/not-an-id!":                                       http.StatusBadRequest,
		"/surveys/" + e.survA.ID + "?timeRange=never":               http.StatusBadRequest,
		"/surveys/" + e.survA.ID + "?from=2026-11-21&to=2026-11-01": http.StatusBadRequest,
		"/surveys/" + e.survA.ID + "?from=2026-11-01":               http.StatusBadRequest,
		"/surveys/" + e.survA.ID + "?from=yesterday&to=today":       http.StatusBadRequest,
		"/nothing": http.StatusNotFound,
	} {
		if rec := get(path); rec.Code != status {
			t.Errorf("GET %s = %d, want %d", path, rec.Code, status)
		}
	}
}
