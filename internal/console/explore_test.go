package console_test

// The results pages past the summary: the filter bar and trend, every open answer, and the
// spreadsheet download's links.

import (
	"encoding/csv"
	"fmt"
	"html"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/svc-feedback/svc/internal/console"
	"github.com/svc-feedback/svc/store"
	"github.com/svc-feedback/svc/survey"
)

// The spreadsheet download links a bug report's screenshot to the response's page, which shows
// it, at the address the browser reached the pages at, under the app's own prefix.
func TestSpreadsheetLinksScreenshots(t *testing.T) {
	e := setup(t)
	e.putResponse(e.survA.ID, "rshot000000000000000001", "ann",
		`{"bug":{"title":"Broken","metadata":"/home","screenshotDataUrl":"data:image/png;base64,iVBORw0KGgo="}}`)
	e.clock.Advance(time.Minute)
	mounted := http.StripPrefix("/admin/feedback", console.NewResults(e.store, "a", console.Config{Now: e.clock.Now}))
	rec := httptest.NewRecorder()
	r := httptest.NewRequest("GET", "/admin/feedback/surveys/"+e.survA.ID+"/export?header=titles", nil)
	r.Host = "localhost:8080"
	mounted.ServeHTTP(rec, r)
	rows, err := csv.NewReader(rec.Body).ReadAll()
	if err != nil || len(rows) != 2 {
		t.Fatalf("%v: %q", err, rows)
	}
	i := slices.Index(rows[0], "Tell us about the bug: screenshot")
	want := "http://localhost:8080/admin/feedback/surveys/" + e.survA.ID + "/responses/rshot000000000000000001"
	if i < 0 || rows[1][i] != want {
		t.Errorf("the screenshot's cell: %q in %q, want %q", rows[1], rows[0], want)
	}
	if page := e.resultsGetter()(strings.TrimPrefix(want, "http://localhost:8080/admin/feedback")); page.Code != 200 || !strings.Contains(page.Body.String(), "<img") {
		t.Errorf("the response's page: %d, without the screenshot", page.Code)
	}
}

// The filter bar narrows everything the page counts (the summary, the trend, the latest
// responses) and its downloads; its empty controls mean "any"; a bad filter is the page's 400.
func TestResultsFilterBarAndTrend(t *testing.T) {
	e := setup(t)
	e.putResponse(e.survA.ID, "rfilterbar000000000001", "ann", `{"nps":10,"favourite":"Alerts"}`)
	e.clock.Advance(24 * time.Hour)
	e.putResponse(e.survA.ID, "rfilterbar000000000002", "bob", `{"nps":2,"favourite":"Reports"}`)
	e.putResponse(e.survA.ID, "rfilterbar000000000003", "cat", `{"nps":9,"favourite":"Alerts"}`)
	e.clock.Advance(time.Minute)
	get := e.resultsGetter()
	// As the form sends it: every control, the unused ones empty.
	page := get("/surveys/" + e.survA.ID + "?timeRange=last-7-days&answer.favourite=Alerts&answer.missing=&answer.nps.min=&answer.nps.max=&answer.stars.min=&answer.stars.max=&finished=")
	body := page.Body.String()
	for _, want := range []string{
		`role="search" aria-label="Filter responses"`, `<option selected>Alerts</option>`, `Clear filters`,
		`<span class="label">Promoters (9–10)</span> <strong>2</strong>`, // ann and cat, not bob
		`<span class="who">ann</span>`, `<span class="who">cat</span>`,
		`<caption>Responses per day</caption>`, `<caption>NPS per day: “How likely are you to recommend us to a friend?”</caption>`,
		`<caption>CSAT per day: “How would you rate the new dashboard?”</caption>`,
		`answer.favourite=Alerts`, // the downloads keep the filter
	} {
		if !strings.Contains(body, want) {
			t.Errorf("filtered page lacks %s", want)
		}
	}
	if strings.Contains(body, `<span class="who">bob</span>`) || page.Code != 200 {
		t.Errorf("bob's response passed the filter: %d", page.Code)
	}
	// The trend: a row a day in the NPS chart's table, each day's one answer and its NPS.
	if n := strings.Count(body, `<td>1</td><td>100</td></tr>`); n != 2 {
		t.Errorf("the trend's rows: %d days of one promoter, want 2", n)
	}
	download := regexp.MustCompile(`<a href="([^"]*)">Download for a spreadsheet \(CSV\)</a>`).FindStringSubmatch(body)
	if download == nil {
		t.Fatal("no spreadsheet download")
	}
	ref, _ := url.Parse(html.UnescapeString(download[1]))
	csvPage := get((&url.URL{Path: "/surveys/" + e.survA.ID}).ResolveReference(ref).String())
	if rows, err := csv.NewReader(csvPage.Body).ReadAll(); err != nil || len(rows) != 3 {
		t.Errorf("the filtered download: %d %v %q", csvPage.Code, err, rows)
	}
	if bad := get("/surveys/" + e.survA.ID + "?answer.nps=loud"); bad.Code != 400 {
		t.Errorf("a bad filter: %d", bad.Code)
	}
}

// An open-ended question's every answer, fifty a page, newest first, and a search among them;
// linked from the survey page.
func TestResultsAnswersPagedAndSearched(t *testing.T) {
	e := setup(t)
	for i := range 64 {
		data := `{"nps":5}` // no comment: passed over
		if i%8 != 7 {
			word := map[bool]string{true: "exports are SLOW", false: "all good"}[i%3 == 0]
			data = fmt.Sprintf(`{"comments":"%d: %s"}`, i, word)
		}
		e.putResponse(e.survA.ID, fmt.Sprintf("ranswers%015d", i), "ann", data)
		e.clock.Advance(time.Minute)
	}
	get := e.resultsGetter()
	if !strings.Contains(get("/surveys/"+e.survA.ID).Body.String(), `/answers/comments?timeRange=all-time">All 56 answers to`) {
		t.Error("the survey page does not link every answer")
	}
	texts := regexp.MustCompile(`<p class="written">([^<]*)</p>`)
	older := regexp.MustCompile(`<a href="([^"]*)">Older answers</a>`)
	first := get("/surveys/" + e.survA.ID + "/answers/comments").Body.String()
	page1 := texts.FindAllStringSubmatch(first, -1)
	next := older.FindStringSubmatch(first)
	if len(page1) != 50 || page1[0][1] != "62: all good" || next == nil {
		t.Fatalf("the first page: %d answers, the first %q, older %v", len(page1), page1[0], next)
	}
	second := get("/surveys/" + e.survA.ID + "/answers/comments" + html.UnescapeString(next[1])).Body.String()
	if page2 := texts.FindAllStringSubmatch(second, -1); len(page2) != 6 || page2[5][1] != "0: exports are SLOW" || older.MatchString(second) {
		t.Errorf("the second page: %q", page2)
	}
	found := texts.FindAllStringSubmatch(get("/surveys/"+e.survA.ID+"/answers/comments?q=slow").Body.String(), -1)
	if len(found) != 19 { // i%3 == 0 and i%8 != 7, for i < 64
		t.Errorf("the search for slow: %d answers", len(found))
	}
	for _, path := range []string{"/answers/nps", "/answers/nope"} {
		if rec := get("/surveys/" + e.survA.ID + path); rec.Code != 404 {
			t.Errorf("%s: %d", path, rec.Code)
		}
	}
}

// TestResultsLanguageFilter: a translated survey's results are filtered by the language people
// answered in.
func TestResultsLanguageFilter(t *testing.T) {
	e := setup(t)
	if _, err := store.ModifySurvey(t.Context(), e.store, "a", e.survA.ID, func(sv *store.Survey) error {
		sv.Languages = &survey.Languages{Default: "en", Translations: map[string]survey.Translation{"de": {}, "ar": {}}}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	for i, lang := range []string{"de", "ar"} {
		w := store.ResponseWrite{SurveyID: e.survA.ID, ID: "rlanguage00000000000" + strconv.Itoa(i), Respondent: "person-" + lang,
			Data: survey.Answers{"nps": survey.Number(9)}, Metadata: map[string]string{}, Language: lang, At: e.clock.Now()}
		if _, _, err := e.store.PutResponse(t.Context(), w); err != nil {
			t.Fatal(err)
		}
	}
	e.clock.Advance(time.Minute)
	body := e.resultsGetter()("/surveys/" + e.survA.ID + "?language=de").Body.String()
	if !strings.Contains(body, `<select name="language">`) || !strings.Contains(body, `<option selected>de</option>`) ||
		!strings.Contains(body, `<span class="who">person-de</span>`) || strings.Contains(body, `<span class="who">person-ar</span>`) {
		t.Errorf("the page filtered by language:\n%s", body)
	}
}
