package console_test

// The survey page's trend as charts drawn on the server: an SVG image per chart, named and
// described, with labelled axes; a column a bucket up to now and none after; a score's line
// broken where no one answered; and the same figures as a table one control away.

import (
	"html"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/svc-feedback/svc/store"
	"github.com/svc-feedback/svc/survey"
)

// putAt writes a response of answers data (JSON) at a time, finished or not.
func (e *env) putAt(at time.Time, finished bool, data string) {
	e.t.Helper()
	var a survey.Answers
	if err := a.UnmarshalJSON([]byte(data)); err != nil {
		e.t.Fatal(err)
	}
	if _, _, err := e.store.PutResponse(e.t.Context(), store.ResponseWrite{SurveyID: e.survA.ID, ID: e.ids.New(), Respondent: e.ids.New(),
		Data: a, Metadata: map[string]string{}, Finished: finished, At: at}); err != nil {
		e.t.Fatal(err)
	}
}

// chartsOf cuts a survey page into its charts: each chart's heading, SVG and table, by the
// id its heading has.
type pageChart struct{ heading, svg, table string }

func chartsOf(t *testing.T, body string) map[string]pageChart {
	t.Helper()
	re := regexp.MustCompile(`(?s)<h3 id="(chart-[a-z0-9-]+)">(.*?)</h3>.*?(<svg role="img".*?</svg>).*?(<details class="figures">.*?</details>)`)
	out := map[string]pageChart{}
	for _, m := range re.FindAllStringSubmatch(body, -1) {
		out[m[1]] = pageChart{heading: html.UnescapeString(m[2]), svg: m[3], table: m[4]}
	}
	return out
}

func TestTrendCharts(t *testing.T) {
	e := setup(t)
	day := func(d, hour int) time.Time { return time.Date(2026, 11, d, hour, 0, 0, 0, time.UTC) }
	// 15 Nov: none. 16: a promoter, 5 stars. 17: a promoter. 18: none. 19: a detractor.
	// 20: a detractor and a promoter, unfinished. 21 (today): none yet. After: a response
	// dated tomorrow, which no chart may show.
	e.putAt(day(16, 9), true, `{"nps":10,"stars":5}`)
	e.putAt(day(17, 9), true, `{"nps":9}`)
	e.putAt(day(19, 9), true, `{"nps":2,"stars":3}`)
	e.putAt(day(20, 9), false, `{"nps":0}`)
	e.putAt(day(20, 11), false, `{"nps":10}`)
	e.putAt(day(22, 9), true, `{"nps":10}`)
	get := e.resultsGetter() // the clock stands at t0, 21 Nov 2026 10:04
	page := get("/surveys/" + e.survA.ID + "?from=2026-11-15&to=2026-11-30")
	body := page.Body.String()
	if page.Code != 200 {
		t.Fatalf("%d\n%s", page.Code, body)
	}
	if strings.Contains(body, "style=") || strings.Contains(body, "<script") {
		t.Error("the page has inline style or script, which its policy refuses")
	}
	charts := chartsOf(t, body)
	if len(charts) != 3 || strings.Count(body, `<svg role="img" class="trend-svg"`) != 3 {
		t.Fatalf("%d charts, want the responses' and each rating's: %q", len(charts), charts)
	}

	// The responses: a column a day from the 15th to today, the 21st; none after.
	resp := charts["chart-responses"]
	for _, want := range []string{`aria-labelledby="chart-responses"`, `aria-describedby="chart-responses-desc"`, `<title>Responses per day</title>`,
		`>Day (UTC)</text>`, `>Responses</text>`, `>15 Nov</text>`, `>2026</text>`, `>Finished</text>`,
		`<desc id="chart-responses-desc">Responses by day, 15 Nov 2026 to 21 Nov 2026: 5 in all, 3 finished; first 0 (15 Nov 2026), last 0 (21 Nov 2026), lowest 0 (15 Nov 2026), highest 2 (20 Nov 2026).</desc>`,
		`<g><title>20 Nov 2026: 2 responses, 0 finished</title>`, `<g><title>16 Nov 2026: 1 response, 1 finished</title>`} {
		if !strings.Contains(resp.svg, want) {
			t.Errorf("the responses' chart lacks %s:\n%s", want, resp.svg)
		}
	}
	if resp.heading != "Responses per day" {
		t.Errorf("the responses' heading: %q", resp.heading)
	}
	if n := strings.Count(resp.svg, `<rect class="col" `); n != 7 {
		t.Errorf("%d columns, want one a day from 15 to 21 November", n)
	}
	if strings.Contains(body, "22 Nov 2026") || strings.Contains(resp.svg, ">22 Nov<") {
		t.Error("a day after now is drawn or listed")
	}
	// The y axis: 0 to 2, a tick each.
	for _, tick := range []string{`text-anchor="end">0</text>`, `text-anchor="end">1</text>`, `text-anchor="end">2</text>`} {
		if !strings.Contains(resp.svg, tick) {
			t.Errorf("the responses' y axis lacks %s", tick)
		}
	}
	// Its figures as a table, one control away: the same counts.
	for _, want := range []string{`<summary>Figures as a table<span class="visually-hidden">: Responses per day</span></summary>`,
		`<caption>Responses per day</caption>`, `<th scope="col">Day</th><th scope="col">Responses</th><th scope="col">Finished</th>`,
		`<tr><th scope="row">15 Nov 2026</th><td>0</td><td>0</td></tr>`, `<tr><th scope="row">16 Nov 2026</th><td>1</td><td>1</td></tr>`,
		`<tr><th scope="row">20 Nov 2026</th><td>2</td><td>0</td></tr>`, `<tr><th scope="row">21 Nov 2026</th><td>0</td><td>0</td></tr>`} {
		if !strings.Contains(resp.table, want) {
			t.Errorf("the responses' table lacks %s:\n%s", want, resp.table)
		}
	}
	if n := strings.Count(resp.table, `<th scope="row">`); n != 7 {
		t.Errorf("the responses' table: %d rows, want 7", n)
	}
	// The chart scrolls inside its own box: a group named for it (as the tables' boxes are),
	// focusable, to scroll by keyboard.
	if !strings.Contains(body, `<div class="trend-plot" role="group" tabindex="0" aria-label="Responses per day, a chart that scrolls sideways">`) {
		t.Error("the responses' chart is not in a named box of its own")
	}

	// The NPS: a line from -100 to 100, 0 marked, broken where a day had no answer: 16 and
	// 17, then 19 and 20.
	nps := charts["chart-q1"]
	if nps.heading != "NPS per day: “How likely are you to recommend us to a friend?”" {
		t.Errorf("the NPS chart's heading: %q", nps.heading)
	}
	for _, want := range []string{`>NPS (−100 to 100)</text>`, `text-anchor="end">-100</text>`, `text-anchor="end">100</text>`,
		`<line class="zero" `, `text-anchor="end">0</text>`,
		`first 100 (16 Nov 2026), last 0 (20 Nov 2026), lowest -100 (19 Nov 2026), highest 100 (16 Nov 2026). No answers in 3 of the 7 days.`,
		`<title>19 Nov 2026: -100</title>`} {
		if !strings.Contains(nps.svg, want) {
			t.Errorf("the NPS chart lacks %s:\n%s", want, nps.svg)
		}
	}
	d := regexp.MustCompile(`<path class="line" d="([^"]*)"`).FindStringSubmatch(nps.svg)
	if d == nil || strings.Count(d[1], "M") != 2 || strings.Count(d[1], "L") != 2 {
		t.Errorf("the NPS line: %q, want two pieces of two points each", d)
	}
	if n := strings.Count(nps.svg, `<circle class="dot"`); n != 4 {
		t.Errorf("%d dots on the NPS line, want the 4 days answered", n)
	}
	for _, want := range []string{`<th scope="col">Day</th><th scope="col">Answered</th><th scope="col">NPS</th>`,
		`<tr><th scope="row">16 Nov 2026</th><td>1</td><td>100</td></tr>`, `<tr><th scope="row">18 Nov 2026</th><td>0</td><td>–</td></tr>`,
		`<tr><th scope="row">19 Nov 2026</th><td>1</td><td>-100</td></tr>`, `<tr><th scope="row">20 Nov 2026</th><td>2</td><td>0</td></tr>`} {
		if !strings.Contains(nps.table, want) {
			t.Errorf("the NPS table lacks %s:\n%s", want, nps.table)
		}
	}

	// The stars, a 5-point rating: its CSAT, and its average in the table too.
	stars := charts["chart-q2"]
	for _, want := range []string{`>CSAT (% of 4 and 5)</text>`, `<title>16 Nov 2026: 100.0%</title>`, `<title>19 Nov 2026: 0.0%</title>`,
		`first 100.0% (16 Nov 2026), last 0.0% (19 Nov 2026)`} {
		if !strings.Contains(stars.svg, want) {
			t.Errorf("the stars' chart lacks %s:\n%s", want, stars.svg)
		}
	}
	if !strings.Contains(stars.table, `<tr><th scope="row">16 Nov 2026</th><td>1</td><td>100.0%</td><td>5.0</td></tr>`) {
		t.Errorf("the stars' table:\n%s", stars.table)
	}
}

// A quarter's weeks, up to the week of now, none after; a range that has not begun has no
// chart, and says so.
func TestTrendChartsStopAtNow(t *testing.T) {
	e := setup(t)
	e.putAt(time.Date(2026, 10, 6, 9, 0, 0, 0, time.UTC), true, `{"nps":10}`)
	e.putAt(time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC), true, `{"nps":3}`)
	get := e.resultsGetter()
	body := get("/surveys/" + e.survA.ID + "?timeRange=q4-2026").Body.String()
	resp := chartsOf(t, body)["chart-responses"]
	// 1 October (a Thursday) to the week of Monday 16 November, which holds now: 8 weeks.
	if n := strings.Count(resp.svg, `<rect class="col" `); n != 8 {
		t.Errorf("%d columns, want the 8 weeks up to now:\n%s", n, resp.svg)
	}
	for _, want := range []string{`<title>Responses per week</title>`, `>Week, from Monday (UTC)</text>`,
		`<tr><th scope="row">week of 1 Oct 2026</th><td>0</td><td>0</td></tr>`, `<tr><th scope="row">week of 5 Oct 2026</th><td>1</td><td>1</td></tr>`,
		`<tr><th scope="row">week of 16 Nov 2026</th><td>1</td><td>1</td></tr>`} {
		if !strings.Contains(resp.svg+resp.table, want) {
			t.Errorf("the quarter's chart lacks %s", want)
		}
	}
	for _, future := range []string{"week of 23 Nov 2026", "week of 28 Dec 2026", ">23 Nov<"} {
		if strings.Contains(body, future) {
			t.Errorf("the quarter's trend shows %s, after now", future)
		}
	}
	// Two days on, Monday 23 November: a new week, its responses so far.
	e.clock.Advance(48 * time.Hour)
	e.putAt(e.clock.Now(), false, `{"nps":10}`)
	e.clock.Advance(time.Minute)
	body = get("/surveys/" + e.survA.ID + "?timeRange=q4-2026").Body.String()
	resp = chartsOf(t, body)["chart-responses"]
	if n := strings.Count(resp.svg, `<rect class="col" `); n != 9 || !strings.Contains(resp.table, `<tr><th scope="row">week of 23 Nov 2026</th><td>1</td><td>0</td></tr>`) {
		t.Errorf("two days later, in a new week: %d columns\n%s", n, resp.table)
	}
	notYet := get("/surveys/" + e.survA.ID + "?from=2026-12-01&to=2026-12-10").Body.String()
	if strings.Contains(notYet, `class="trend-svg"`) || !strings.Contains(notYet, "This range has not begun yet: there is nothing to chart.") {
		t.Errorf("a range after now:\n%s", notYet)
	}
}

// Every rating's chart scales to its own range: a 7-point rating's average from 1 to 7. A
// question's title is text in the chart, never markup.
func TestTrendChartAverageScale(t *testing.T) {
	e := setup(t)
	sv := e.survA
	for i := range sv.Questions {
		if sv.Questions[i].ID == "stars" {
			p := sv.Questions[i].Properties.(survey.RatingProperties)
			p.Scale = 7
			sv.Questions[i].Properties = p
			sv.Questions[i].Title = "How would you rate the <b>new</b> dashboard?"
		}
	}
	if err := e.store.UpdateSurvey(t.Context(), sv); err != nil {
		t.Fatal(err)
	}
	e.putAt(t0.Add(-time.Hour), true, `{"nps":5,"stars":6}`)
	body := e.resultsGetter()("/surveys/" + e.survA.ID + "?timeRange=last-7-days").Body.String()
	stars := chartsOf(t, body)["chart-q2"]
	for _, want := range []string{`>Average score (1 to 7)</text>`, `text-anchor="end">1</text>`, `text-anchor="end">3</text>`, `text-anchor="end">7</text>`,
		`<title>Average score per day: “How would you rate the &lt;b&gt;new&lt;/b&gt; dashboard?”</title>`, `<th scope="row">21 Nov 2026</th><td>1</td><td>6.0</td></tr>`} {
		if !strings.Contains(stars.svg+stars.table, want) {
			t.Errorf("the 7-point rating's chart lacks %s:\n%s", want, stars.svg)
		}
	}
	if strings.Contains(body, "<b>new</b>") {
		t.Error("a question's title is markup on the page")
	}
	if strings.Contains(stars.table, "Average</th>") {
		t.Error("the average is in the table twice")
	}
}
