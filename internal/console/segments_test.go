package console_test

// The filter bar's segments (metadata keys, language, page, with their most frequent values),
// the page filter, and Compare's figures.

import (
	"fmt"
	"html"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/svc-feedback/svc/store"
	"github.com/svc-feedback/svc/survey"
)

// segmentResponse is a response of the tests' own: its answers, metadata, language and
// whether it is finished.
type segmentResponse struct {
	data     survey.Answers
	meta     map[string]string
	language string
	finished bool
}

// putSegment writes r to survey A as the n-th response, at the clock's time.
func (e *env) putSegment(n int, r segmentResponse) {
	e.t.Helper()
	w := store.ResponseWrite{SurveyID: e.survA.ID, ID: fmt.Sprintf("rsegment%014d", n), Respondent: fmt.Sprintf("person-%d", n),
		Data: r.data, Metadata: r.meta, Language: r.language, Finished: r.finished, At: e.clock.Now()}
	if w.Data == nil {
		w.Data = survey.Answers{}
	}
	if _, _, err := e.store.PutResponse(e.t.Context(), w); err != nil {
		e.t.Fatal(err)
	}
}

// selectOptions are the values a select named name offers, in order, after its "Any"; nil when
// the page has no such select.
func selectOptions(body, name string) []string {
	m := regexp.MustCompile(`<select name="` + regexp.QuoteMeta(name) + `">(.*?)</select>`).FindStringSubmatch(body)
	if m == nil {
		return nil
	}
	var out []string
	for _, o := range regexp.MustCompile(`<option value="([^"]*)"`).FindAllStringSubmatch(m[1], -1) {
		if o[1] != "" {
			out = append(out, html.UnescapeString(o[1]))
		}
	}
	return out
}

// The filter bar offers each metadata key the responses hold, their languages and pages, each
// with its values most frequent first; a key with more than twenty values gets a text box too,
// and a value asked for that is not offered stays in it.
func TestResultsSegmentChoices(t *testing.T) {
	e := setup(t)
	plans := []string{"pro", "enterprise", "pro", "free", "enterprise", "pro"}
	pages := []string{"https://app.example/pricing?plan=pro#top", "https://app.example/docs/start", "https://app.example/pricing", "/docs/api?x=1", "https://app.example/pricing", "https://app.example"}
	for i, plan := range plans {
		e.putSegment(i, segmentResponse{meta: map[string]string{"plan": plan, "url": pages[i], "visitor": fmt.Sprint("v", i)},
			language: []string{"de", "fr", "de"}[i%3]})
		e.clock.Advance(time.Minute)
	}
	for i := range 22 { // 22 more visitors: more values than a list offers
		e.putSegment(100+i, segmentResponse{meta: map[string]string{"visitor": fmt.Sprintf("w%02d", i)}})
	}
	e.clock.Advance(time.Minute)
	body := e.resultsGetter()("/surveys/" + e.survA.ID + "?metadata.visitor=someone-else").Body.String()
	for name, want := range map[string]string{
		"metadata.plan": "[pro enterprise free]",
		"page":          "[/pricing / /docs/api /docs/start]", // ties in the order of their values
		"language":      "[de fr]",
	} {
		if got := fmt.Sprint(selectOptions(body, name)); got != want {
			t.Errorf("the select %s offers %s, want %s", name, got, want)
		}
	}
	if got := selectOptions(body, "metadata.visitor"); len(got) != 20 {
		t.Errorf("visitor offers %d values, want the 20 most frequent", len(got))
	}
	for _, want := range []string{
		`<label>Metadata: plan <select name="metadata.plan">`,
		`<label>Metadata: visitor, another value <input type="text" name="metadata.visitor" value="someone-else"`,
		`<label>Another page, or pages under a path <input type="text" name="page" value=""`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("the filter bar lacks %s", want)
		}
	}
	if strings.Contains(body, `name="metadata.plan" value=`) {
		t.Error("plan, whose every value is offered, has a text box")
	}
	if strings.Contains(body, "newest 1,000") {
		t.Error("the page says its values are the newest responses' when it read every one")
	}
}

// The values offered are those of the newest 1,000 responses, and the page says so.
func TestResultsSegmentChoicesNewest(t *testing.T) {
	e := setup(t)
	e.putSegment(0, segmentResponse{meta: map[string]string{"plan": "oldest"}})
	e.clock.Advance(time.Minute)
	for i := range 1000 {
		e.putSegment(1+i, segmentResponse{meta: map[string]string{"plan": "newer"}})
	}
	e.clock.Advance(time.Minute)
	body := e.resultsGetter()("/surveys/" + e.survA.ID).Body.String()
	if got := fmt.Sprint(selectOptions(body, "metadata.plan")); got != "[newer]" {
		t.Errorf("plan offers %s, want the newest 1,000 responses' values alone", got)
	}
	if !strings.Contains(body, "those of the survey’s newest 1,000 responses") {
		t.Error("the page does not say the values are the newest responses'")
	}
	// An older value can still be asked for, in the key's text box.
	if !strings.Contains(body, `<label>Metadata: plan, another value <input type="text" name="metadata.plan" value=""`) {
		t.Error("plan has no text box for the values of older responses")
	}
}

// page= picks responses by the path of the page they were written on, exactly or, ending in
// *, under a path; a malformed one is the page's 400, in words.
func TestResultsPageFilter(t *testing.T) {
	e := setup(t)
	for i, u := range []string{"https://app.example/pricing?plan=pro", "https://app.example/pricing/teams", "https://app.example/docs/api#auth", "/docs", ""} {
		meta := map[string]string{}
		if u != "" {
			meta["url"] = u
		}
		e.putSegment(i, segmentResponse{meta: meta})
	}
	e.clock.Advance(time.Minute)
	get := e.resultsGetter()
	who := regexp.MustCompile(`<span class="who">([^<]*)</span>`)
	for query, want := range map[string]string{
		"page=/pricing":                  "[person-0]",
		"page=/pricing*":                 "[person-1 person-0]",
		"page=/docs/*":                   "[person-2]",
		"page=/docs&page=/pricing/teams": "[person-3 person-1]",
		"page=&finished=":                "[person-4 person-3 person-2 person-1 person-0]",
	} {
		var got []string
		page := get("/surveys/" + e.survA.ID + "?" + query)
		for _, m := range who.FindAllStringSubmatch(page.Body.String(), -1) {
			got = append(got, m[1])
		}
		if fmt.Sprint(got) != want || page.Code != 200 {
			t.Errorf("%s: %d %v, want %s", query, page.Code, got, want)
		}
	}
	for _, bad := range []string{"pricing", "/pricing?plan=pro", "/d*cs"} {
		page := get("/surveys/" + e.survA.ID + "?page=" + bad)
		if page.Code != 400 || !strings.Contains(page.Body.String(), "page is a page") && !strings.Contains(page.Body.String(), "one *") {
			t.Errorf("page=%s: %d\n%s", bad, page.Code, page.Body)
		}
	}
}
