package console_test

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"html"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/svc-feedback/svc/internal/console"
)

// TestResultsPages renders the list and a survey's page, with every question type, under the
// strict policy, and refuses another team's survey.
func TestResultsPages(t *testing.T) {
	e := setup(t)
	e.putResponse(e.survA.ID, "rresults000000000000001", "ann", `{"nps":10,"stars":4,"favourite":"Alerts","comments":"<b>Lovely</b>"}`)
	e.putResponse(e.survA.ID, "rresults000000000000002", "bob", `{"nps":2,"missing":["Speed"],"comments":"a bug"}`)
	e.view(e.survA.ID, "cat")
	e.clock.Advance(time.Minute)
	get := e.resultsGetter()
	list := get("/")
	if list.Code != 200 || !strings.Contains(list.Body.String(), `href="surveys/`+e.survA.ID+`"`) || strings.Contains(list.Body.String(), e.survB.ID) ||
		!strings.Contains(list.Body.String(), "<td>published</td>\n<td>your app</td>\n<td>2 <span class=\"status\">(0 finished)</span></td>\n<td>21 Nov 2026 10:04 UTC</td>\n<td>0</td>") {
		t.Errorf("list: %d\n%s", list.Code, list.Body)
	}
	if csp := list.Header().Get("Content-Security-Policy"); !strings.Contains(csp, "default-src 'none'") || strings.Contains(csp, "unsafe") {
		t.Errorf("policy %q", csp)
	}
	page := get("/surveys/" + e.survA.ID + "?timeRange=last-7-days")
	body := page.Body.String()
	for _, want := range []string{
		`<h1>How are we doing?</h1>`, `aria-current="page">Last 7 days`, `<h2 id="funnel">Funnel</h2>`,
		`aria-label="NPS 0: good"`, // one promoter, one detractor
		`<span class="label">Promoters (9–10)</span> <strong>1</strong> <span class="share">50%</span>`,
		`<span class="label">Detractors (0–6)</span> <strong>1</strong> <span class="share">50%</span>`,
		`CSAT <strong>100.0%</strong>`, `>Alerts</span>`, `>Other (free text)</span>`, `>Speed</span>`,
		`<q>&lt;b&gt;Lovely&lt;/b&gt;</q>`, // answers are text, never markup
		`<h2 id="latest">Latest responses</h2>`, `<span class="who">bob</span>`,
		`The period before: 0 views, 0 started, 0 finished.`, `href="?timeRange=q4-2026"`, `href="?timeRange=q3-2026"`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("survey page lacks %s", want)
		}
	}
	// Free text is counted only where a question takes it (favourite, not missing), and an NPS
	// has no "average".
	if n := strings.Count(body, `>Other (free text)</span>`); n != 1 {
		t.Errorf("%d rows of free text, want favourite's alone", n)
	}
	if strings.Contains(body, `rating · reached by 2 · answered by 2 · average`) {
		t.Error("the NPS question shows an average")
	}
	if strings.Contains(body, "style=") || strings.Contains(body, "<script") {
		t.Error("the page has inline style or script, which its policy refuses")
	}
	// The custom range's form: its days become the API's custom range, and fill the form again.
	custom := get("/surveys/" + e.survA.ID + "?from=2026-11-01&to=2026-11-21").Body.String()
	for _, want := range []string{`<p class="period">1–21 Nov 2026</p>`, `aria-current="page">Custom: 1–21 Nov 2026</a>`,
		`name="from" value="2026-11-01"`, `name="to" value="2026-11-21"`,
		`The period before: 0 views, 0 started, 0 finished.`, `Started</span>`} {
		if !strings.Contains(custom, want) {
			t.Errorf("custom range page lacks %s", want)
		}
	}
	if !strings.Contains(body, `name="from" value="`) || !strings.Contains(body, `<form class="custom" method="get" aria-label="Custom range">`) {
		t.Error("the page lacks the custom range's form, filled with the days it shows")
	}
	// An error is a page of the results' own look, in words for people, with the way back.
	reversed := get("/surveys/" + e.survA.ID + "?from=2026-11-21&to=2026-11-01").Body.String()
	for _, want := range []string{`<link rel="stylesheet" href="../results.css">`,
		`The last day of that range comes before its first day`, `<a href="../">Back to all surveys</a>`} {
		if !strings.Contains(reversed, want) {
			t.Errorf("the error page of a reversed range lacks %s:\n%s", want, reversed)
		}
	}
	if strings.Contains(reversed, "timeRange") {
		t.Errorf("the error page speaks the API's words:\n%s", reversed)
	}
	css := get("/results.css")
	if css.Code != 200 || css.Header().Get("Content-Type") != "text/css; charset=utf-8" {
		t.Errorf("stylesheet: %d %q", css.Code, css.Header().Get("Content-Type"))
	}
	for path, status := range map[string]int{
		"/surveys/" + e.survB.ID:                                                    http.StatusNotFound,
		"/surveys/not-an-id!":                                                       http.StatusBadRequest,
		"/surveys/" + e.survA.ID + "?timeRange=never":                               http.StatusBadRequest,
		"/surveys/" + e.survA.ID + "?from=2026-11-21&to=2026-11-01":                 http.StatusBadRequest,
		"/surveys/" + e.survA.ID + "?from=2026-11-01":                               http.StatusBadRequest,
		"/surveys/" + e.survA.ID + "?from=yesterday&to=today":                       http.StatusBadRequest,
		"/surveys/" + e.survA.ID + "?from=2026-11-01&from=2026-11-02&to=2026-11-21": http.StatusBadRequest,
		"/nothing": http.StatusNotFound,
		// Never a redirect to the cleaned path.
		"/surveys/./" + e.survA.ID: http.StatusNotFound,
		"//surveys/" + e.survA.ID:  http.StatusNotFound,
		"/x/../":                   http.StatusNotFound,
	} {
		if rec := get(path); rec.Code != status || rec.Header().Get("Location") != "" {
			t.Errorf("GET %s = %d (Location %q), want %d", path, rec.Code, rec.Header().Get("Location"), status)
		}
	}
}

// TestResultsDownloads follows a survey page's download links: they give the responses of the
// range the page shows, as CSV and NDJSON, as the management API's export does.
func TestResultsDownloads(t *testing.T) {
	e := setup(t)
	e.putResponse(e.survA.ID, "rdownload00000000000001", "ann", `{"nps":3}`)
	e.clock.Advance(10 * 24 * time.Hour)
	e.putResponse(e.survA.ID, "rdownload00000000000002", "bob", `{"nps":9,"comments":"=cmd"}`)
	e.clock.Advance(time.Minute)
	get := e.resultsGetter()
	links := regexp.MustCompile(`<a href="([^"]*)">Download (for a spreadsheet \(CSV\)|CSV with question ids|NDJSON)</a>`)
	for _, tc := range []struct {
		query string
		want  []string // the responses' ids, oldest first
	}{
		{"", []string{"rdownload00000000000001", "rdownload00000000000002"}},
		{"?timeRange=last-7-days", []string{"rdownload00000000000002"}},
		{"?from=2026-11-01&to=2026-11-22", []string{"rdownload00000000000001"}},
	} {
		pagePath := "/surveys/" + e.survA.ID + tc.query
		found := links.FindAllStringSubmatch(get(pagePath).Body.String(), -1)
		if len(found) != 3 {
			t.Fatalf("%s: download links %q", pagePath, found)
		}
		for _, link := range found {
			ref, err := url.Parse(html.UnescapeString(link[1]))
			if err != nil {
				t.Fatal(err)
			}
			target := (&url.URL{Path: "/surveys/" + e.survA.ID}).ResolveReference(ref)
			rec := get(target.String())
			if rec.Code != 200 || !strings.HasPrefix(rec.Header().Get("Content-Disposition"), "attachment") {
				t.Fatalf("%s: %d %q %s", target, rec.Code, rec.Header().Get("Content-Disposition"), rec.Body)
			}
			var ids []string
			if link[2] != "NDJSON" {
				forPeople := strings.Contains(link[2], "spreadsheet")
				body, bom := strings.CutPrefix(rec.Body.String(), "\uFEFF")
				if bom != forPeople {
					t.Errorf("%s: a byte order mark %v, want %v (for a spreadsheet only)", target, bom, forPeople)
				}
				rows, err := csv.NewReader(strings.NewReader(body)).ReadAll()
				if err != nil || len(rows) == 0 || rows[0][0] != map[bool]string{true: "Response", false: "id"}[forPeople] {
					t.Fatalf("%s: CSV %v %v", target, rows, err)
				}
				for _, row := range rows[1:] {
					ids = append(ids, row[0])
				}
			} else {
				for line := range strings.Lines(rec.Body.String()) {
					var resp struct{ ID string }
					if err := json.Unmarshal([]byte(line), &resp); err != nil {
						t.Fatalf("%s: NDJSON line %q: %v", target, line, err)
					}
					ids = append(ids, resp.ID)
				}
			}
			if diff := cmp.Diff(tc.want, ids); diff != "" {
				t.Errorf("%s: responses (-want +got):\n%s", target, diff)
			}
		}
	}
	for path, status := range map[string]int{
		"/surveys/" + e.survB.ID + "/export":                               http.StatusNotFound,
		"/surveys/" + e.survA.ID + "/export?format=xml":                    http.StatusBadRequest,
		"/surveys/" + e.survA.ID + "/export?timeRange=never":               http.StatusBadRequest,
		"/surveys/" + e.survA.ID + "/export?from=2026-11-21&to=2026-11-01": http.StatusBadRequest,
	} {
		if rec := get(path); rec.Code != status {
			t.Errorf("GET %s = %d, want %d", path, rec.Code, status)
		}
	}
}

// resultsGetter returns a GET of team A's results pages at e's clock.
func (e *env) resultsGetter() func(path string) *httptest.ResponseRecorder {
	rs := console.NewResults(e.store, "a", console.Config{Now: e.clock.Now})
	return func(path string) *httptest.ResponseRecorder {
		rec := httptest.NewRecorder()
		r := httptest.NewRequest("GET", path, nil)
		r.Host = "localhost:8080" // the pages answer loopback names only, by default
		rs.ServeHTTP(rec, r)
		return rec
	}
}

// TestResultsAnswerOnlyTheirHosts: a web site that points its own name at the pages' address
// (DNS rebinding) gets a 403, whatever the path, the downloads included; the hosts configured
// are answered, and only they.
func TestResultsAnswerOnlyTheirHosts(t *testing.T) {
	e := setup(t)
	e.putResponse(e.survA.ID, e.ids.New(), "ann", `{"nps":10,"comments":"private"}`)
	get := func(rs http.Handler, host, path string) *httptest.ResponseRecorder {
		rec := httptest.NewRecorder()
		r := httptest.NewRequest("GET", path, nil)
		r.Host = host
		rs.ServeHTTP(rec, r)
		return rec
	}
	byDefault := console.NewResults(e.store, "a", console.Config{Now: e.clock.Now})
	listed := console.NewResults(e.store, "a", console.Config{Now: e.clock.Now, PageHosts: []string{"admin.example.com"}})
	for _, path := range []string{"/", "/surveys/" + e.survA.ID, "/surveys/" + e.survA.ID + "/export", "/results.css"} {
		for _, c := range []struct {
			rs     http.Handler
			host   string
			status int
		}{
			{byDefault, "evil.example:8080", 403}, {byDefault, "127.0.0.1:8080", 200}, {byDefault, "[::1]:8080", 200},
			{listed, "admin.example.com", 200}, {listed, "localhost:8080", 403}, {listed, "evil.example", 403},
		} {
			rec := get(c.rs, c.host, path)
			if rec.Code != c.status {
				t.Errorf("GET %s for Host %s: %d, want %d", path, c.host, rec.Code, c.status)
			}
			if c.status == 403 && strings.Contains(rec.Body.String(), "private") {
				t.Errorf("GET %s for Host %s shows an answer", path, c.host)
			}
		}
	}
}

// TestResultsAnswersAsText: the latest responses show each answer under its question's title,
// in the survey's order, as text (never markup), lists joined, a bug report by its title, and a
// long answer cut.
func TestResultsAnswersAsText(t *testing.T) {
	e := setup(t)
	long := strings.Repeat("é", 400)
	e.putResponse(e.survA.ID, e.ids.New(), "ann", `{"comments":"`+long+`","missing":["Speed","Docs"],"nps":3,
		"bug":{"title":"<i>Crash</i>","metadata":"{}"}}`)
	e.putResponse(e.survA.ID, e.ids.New(), "bob", `{}`)
	e.clock.Advance(time.Minute)
	body := e.resultsGetter()("/surveys/" + e.survA.ID).Body.String()
	want := `<dl class="answered"><dt>How likely are you to recommend us to a friend?</dt><dd>3</dd>` +
		`<dt>What would make it better?</dt><dd>Speed, Docs</dd>` +
		`<dt>Anything else you would like to tell us?</dt><dd>` + strings.Repeat("é", 300) + `…</dd>` +
		`<dt>Tell us about the bug</dt><dd>Bug report: &lt;i&gt;Crash&lt;/i&gt;</dd></dl>`
	if !strings.Contains(body, want) {
		t.Errorf("the page lacks ann's answers as\n%s\nin\n%s", want, body)
	}
	if !strings.Contains(body, `<span class="who">bob</span> · not finished</p>
<p class="none">No answers yet.</p>`) {
		t.Error("the page lacks bob's response without answers")
	}
}

// TestResultsLatestPages follows the "Older responses" links from the newest page to the last:
// every response of the range once, newest first, ten at a time, the range kept.
func TestResultsLatestPages(t *testing.T) {
	e := setup(t)
	var want []string
	for i := range 25 {
		who := fmt.Sprintf("person-%02d", i)
		e.putResponse(e.survA.ID, e.ids.New(), who, `{"nps":5}`)
		want = append([]string{who}, want...)
		e.clock.Advance(time.Second)
	}
	e.clock.Advance(time.Minute)
	get := e.resultsGetter()
	respondents := regexp.MustCompile(`<p class="card-head"><a href="[^"]*">[^<]*</a> · <span class="who">([^<]*)</span>`)
	older := regexp.MustCompile(`<a href="([^"]*)">Older responses</a>`)
	path := "/surveys/" + e.survA.ID + "?timeRange=last-7-days"
	var got []string
	for pages := 0; path != ""; pages++ {
		if pages == 5 {
			t.Fatal("more than 5 pages of 10 for 25 responses")
		}
		rec := get(path)
		body := rec.Body.String()
		if rec.Code != 200 {
			t.Fatalf("%s: %d %s", path, rec.Code, body)
		}
		for _, m := range respondents.FindAllStringSubmatch(body, -1) {
			got = append(got, m[1])
		}
		if newest := strings.Contains(body, ">Newest responses</a>"); newest != (pages > 0) {
			t.Errorf("page %d: a link to the newest responses is %v", pages+1, newest)
		}
		path = ""
		if m := older.FindStringSubmatch(body); m != nil {
			ref, err := url.Parse(html.UnescapeString(m[1]))
			if err != nil {
				t.Fatal(err)
			}
			if ref.Query().Get("timeRange") != "last-7-days" {
				t.Errorf("the older page's link %q loses the range", ref)
			}
			target := (&url.URL{Path: "/surveys/" + e.survA.ID}).ResolveReference(ref)
			target.Fragment = "" // a browser keeps it to itself
			path = target.String()
		}
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("respondents over the pages, newest first (-want +got):\n%s", diff)
	}
	if rec := get("/surveys/" + e.survA.ID + "?cursor=not-a-cursor"); rec.Code != http.StatusBadRequest {
		t.Errorf("a bad cursor: %d", rec.Code)
	}
}

// TestResultsResponsePage follows a response's link from the survey page to its own page: every
// answer whole, a bug report's parts with its screenshot, the metadata; other images are not
// shown, and other teams' or unknown responses are not found.
func TestResultsResponsePage(t *testing.T) {
	e := setup(t)
	long := strings.Repeat("é", 400)
	png := "data:image/png;base64,iVBORw0KGgo="
	e.putResponse(e.survA.ID, "rpage0000000000000000001", "ann", `{"comments":"`+long+`","nps":2,
		"bug":{"title":"Crash","metadata":"{}","description":"<b>Steps</b>","screenshotDataUrl":"`+png+`","recordingEventsJson":"[]"}}`)
	e.putResponse(e.survA.ID, "rpage0000000000000000002", "bob", `{"bug":{"title":"Blank","metadata":"{}","screenshotDataUrl":"data:image/gif;base64,R0lGODlh"}}`)
	e.clock.Advance(time.Minute)
	get := e.resultsGetter()
	list := get("/surveys/" + e.survA.ID).Body.String()
	link := regexp.MustCompile(`<a href="([^"]*rpage0000000000000000001)">`).FindStringSubmatch(list)
	if link == nil {
		t.Fatalf("the survey page has no link to ann's response:\n%s", list)
	}
	target := (&url.URL{Path: "/surveys/" + e.survA.ID}).ResolveReference(&url.URL{Path: html.UnescapeString(link[1])})
	rec := get(target.Path)
	body := rec.Body.String()
	if rec.Code != 200 {
		t.Fatalf("%s: %d\n%s", target.Path, rec.Code, body)
	}
	for _, want := range []string{
		`<h1>Response from ann</h1>`,
		`<dt>How likely are you to recommend us to a friend?</dt><dd>2</dd>`,
		`<dt>Anything else you would like to tell us?</dt><dd>` + long + `</dd>`,
		`<p class="bug-title">Crash</p><p class="bug-description">&lt;b&gt;Steps&lt;/b&gt;</p>`,
		`<img class="screenshot" src="` + png + `" alt="The screenshot sent with the bug report">`,
		`A recording of the page came with it`,
		`<dt>k</dt><dd>v</dd>`, // the metadata e.putResponse sends
		`href="../../../results.css"`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("ann's response page lacks %s", want)
		}
	}
	if strings.Contains(body, "style=") || strings.Contains(body, "<script") {
		t.Error("the page has inline style or script, which its policy refuses")
	}
	other := get("/surveys/" + e.survA.ID + "/responses/rpage0000000000000000002").Body.String()
	if strings.Contains(other, "<img") || !strings.Contains(other, "A screenshot in a format this page does not show") {
		t.Errorf("a GIF screenshot: shown as an image, or not said:\n%s", other)
	}
	for path, status := range map[string]int{
		"/surveys/" + e.survB.ID + "/responses/rpage0000000000000000001": http.StatusNotFound,
		"/surveys/" + e.survA.ID + "/responses/rpage0000000000000000009": http.StatusNotFound,
		"/surveys/" + e.survA.ID + "/responses/not!an!id":                http.StatusBadRequest,
	} {
		if rec := get(path); rec.Code != status {
			t.Errorf("GET %s = %d, want %d", path, rec.Code, status)
		}
	}
}

// TestResultsAreObserved: the pages honour the access log and the observer (metrics), by route
// pattern, as the API does; never with the path, which holds ids.
func TestResultsAreObserved(t *testing.T) {
	e := setup(t)
	var log strings.Builder
	var routes []string
	rs := console.NewResults(e.store, "a", console.Config{Now: e.clock.Now,
		AccessLog: slog.New(slog.NewTextHandler(&log, nil)),
		OnRequest: func(route string, status int, _ time.Duration) {
			routes = append(routes, fmt.Sprint(route, " ", status))
		}})
	for _, path := range []string{"/", "/surveys/" + e.survA.ID, "/nowhere"} {
		r := httptest.NewRequest("GET", path, nil)
		r.Host = "localhost"
		rs.ServeHTTP(httptest.NewRecorder(), r)
	}
	want := []string{"GET /{$} 200", "GET /surveys/{surveyId} 200", "/ 404"}
	if diff := cmp.Diff(want, routes); diff != "" {
		t.Errorf("routes observed (-want +got):\n%s", diff)
	}
	if !strings.Contains(log.String(), `route="GET /surveys/{surveyId}"`) || strings.Contains(log.String(), e.survA.ID) {
		t.Errorf("access log:\n%s", log.String())
	}
}
