package console_test

import (
	"html"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/svc-feedback/svc/survey"
)

// compareRow finds the row of the Compare table headed label (under the question title, for
// a question's row) and returns its cells: segment A, segment B and the difference.
func compareRow(t *testing.T, body, label, title string) [3]string {
	t.Helper()
	head := regexp.QuoteMeta(label)
	if title != "" {
		head += regexp.QuoteMeta(`<span class="visually-hidden">, “` + title + `”</span>`)
	}
	m := regexp.MustCompile(`<tr><th scope="row">` + head + `</th><td>([^<]*)</td><td>([^<]*)</td><td>([^<]*)</td></tr>`).FindStringSubmatch(body)
	if m == nil {
		t.Errorf("no row %q of %q", label, title)
		return [3]string{}
	}
	return [3]string{html.UnescapeString(m[1]), html.UnescapeString(m[2]), html.UnescapeString(m[3])}
}

// Compare shows two segments side by side, each counted as the results page counts its filter,
// with the difference B less A in its units; the results page links to it with its filter as
// segment A.
func TestCompareSegments(t *testing.T) {
	e := setup(t)
	for i, r := range []segmentResponse{
		{data: survey.Answers{"nps": survey.Number(10), "stars": survey.Number(5), "favourite": survey.Text("Alerts")}, meta: map[string]string{"plan": "pro"}, finished: true},
		{data: survey.Answers{"nps": survey.Number(10), "stars": survey.Number(4), "favourite": survey.Text("Reports")}, meta: map[string]string{"plan": "pro"}, finished: true},
		{data: survey.Answers{"nps": survey.Number(0), "stars": survey.Number(2), "favourite": survey.Text("Alerts")}, meta: map[string]string{"plan": "pro"}},
		{data: survey.Answers{"nps": survey.Number(9), "stars": survey.Number(3), "favourite": survey.Text("Reports")}, meta: map[string]string{"plan": "free"}, finished: true},
		{data: survey.Answers{"nps": survey.Number(7), "favourite": survey.Text("Alerts")}, meta: map[string]string{"plan": "free"}},
	} {
		e.putSegment(i, r)
		e.clock.Advance(time.Minute)
	}
	get := e.resultsGetter()
	results := get("/surveys/" + e.survA.ID + "?timeRange=last-7-days&metadata.plan=pro").Body.String()
	link := regexp.MustCompile(`<a href="([^"]*)">Compare segments</a>`).FindStringSubmatch(results)
	if link == nil || html.UnescapeString(link[1]) != e.survA.ID+"/compare?a.metadata.plan=pro&timeRange=last-7-days" {
		t.Fatalf("the results page's link to Compare: %q", link)
	}
	page := get("/surveys/" + e.survA.ID + "/compare?timeRange=last-7-days&a.metadata.plan=pro&b.metadata.plan=free&b.finished=")
	body := page.Body.String()
	if page.Code != 200 {
		t.Fatalf("compare: %d\n%s", page.Code, body)
	}
	nps, stars, favourite := "How likely are you to recommend us to a friend?", "How would you rate the new dashboard?", "Which feature do you use most?"
	for _, want := range []struct {
		label, title string
		cells        [3]string
	}{
		{"Responses", "", [3]string{"3", "2", "−1"}},
		{"Finished", "", [3]string{"2", "1", "−1"}},
		{"Finished, share of responses", "", [3]string{"66.7%", "50.0%", "−16.7 percentage points"}},
		{"NPS (−100 to 100)", nps, [3]string{"33", "50", "+17 points"}}, // 2 promoters, 1 detractor; 1 promoter, 1 passive
		{"CSAT (share of 4 and 5)", stars, [3]string{"66.7%", "0.0%", "−66.7 percentage points"}},
		{"Average score (1 to 5)", stars, [3]string{"3.7", "3.0", "−0.7"}},
		{"Answered", stars, [3]string{"3", "1", "−2"}},
		{"Alerts", favourite, [3]string{"66.7%", "50.0%", "−16.7 percentage points"}},
		{"Reports", favourite, [3]string{"33.3%", "50.0%", "+16.7 percentage points"}},
		{"Exports", favourite, [3]string{"0.0%", "0.0%", "0.0 percentage points"}},
	} {
		if got := compareRow(t, body, want.label, want.title); got != want.cells {
			t.Errorf("%s of %q: %q, want %q", want.label, want.title, got, want.cells)
		}
	}
	for _, want := range []string{
		`<fieldset class="segment"><legend>Segment A</legend>`, `<fieldset class="segment"><legend>Segment B</legend>`,
		`<select name="a.metadata.plan"><option value="">Any</option><option value="pro" selected>pro</option><option value="free">free</option></select>`,
		`<select name="b.metadata.plan"><option value="">Any</option><option value="pro">pro</option><option value="free" selected>free</option></select>`,
		`<th scope="col">Segment A</th><th scope="col">Segment B</th><th scope="col">Difference (B − A)</th>`,
		`<dt>Segment A</dt><dd>Metadata plan is pro</dd><dt>Segment B</dt><dd>Metadata plan is free</dd>`,
		`role="region" aria-labelledby="compare-caption"`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("the compare page lacks %s", want)
		}
	}
	// A score below zero is written with a minus sign, as its difference is.
	detractors := get("/surveys/" + e.survA.ID + "/compare?a.metadata.plan=pro&b.answer.nps.max=6").Body.String()
	if got := compareRow(t, detractors, "NPS (−100 to 100)", nps); got != [3]string{"33", "−100", "−133 points"} {
		t.Errorf("NPS of pro against the detractors: %q", got)
	}
	// Nothing picked: every response, on both sides.
	all := get("/surveys/" + e.survA.ID + "/compare").Body.String()
	if got := compareRow(t, all, "Responses", ""); got != [3]string{"5", "5", "0"} {
		t.Errorf("two empty segments: %q", got)
	}
	// A bad filter is said in its segment, the form kept, and no figures.
	bad := get("/surveys/" + e.survA.ID + "/compare?a.metadata.plan=pro&b.answer.nps=loud")
	badBody := html.UnescapeString(bad.Body.String())
	if bad.Code != 400 || !strings.Contains(badBody, `<p class="problem" role="alert">This segment’s filter cannot be used: answer.nps: a rating's value is a score.</p>`) ||
		!strings.Contains(badBody, `<option value="pro" selected>pro</option>`) || strings.Contains(badBody, "<table") {
		t.Errorf("a bad filter: %d\n%s", bad.Code, badBody)
	}
}
