package api_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestSummary checks the summary of the demo survey after a known history against values
// worked out by hand from its routing (nps <= 6 jumps to the multi-select at 3; favourite jumps
// to comments at 4; comments with "bug" jump to the bug report at 6; the statement at 5 ends).
func TestSummary(t *testing.T) {
	e := setup(t)
	put := func(id, data string, finished bool) {
		t.Helper()
		body := `{"respondent":"` + id + `","data":` + data + `,"metadata":{}`
		if finished {
			body += `,"finished":true`
		}
		wantStatus(t, e.public("PUT", "/v1/svc/"+e.survA.ID+"/response/"+id, body+"}"), 200, "")
		e.clock.Advance(time.Minute)
	}
	put("rsummary0000000000000001", `{"nps":10,"stars":5,"favourite":"Reports","comments":"Great"}`, true)
	put("rsummary0000000000000002", `{"nps":3,"missing":["Speed","Docs"],"comments":"found a bug"}`, false)
	put("rsummary0000000000000003", `{"nps":8,"favourite":"Something custom"}`, false)
	put("rsummary0000000000000004", `{"nps":9}`, false)
	put("rsummary0000000000000004", `{"nps":9}`, true) // finished on a later write
	for i, typ := range []string{"view", "view", "dismiss", "view", "view", "dismiss", "view", "view"} {
		wantStatus(t, e.public("POST", "/v1/svc/"+e.survA.ID+"/respondent/v"+string(rune('a'+i))+"/event", `{"type":"`+typ+`"}`), 200, "")
	}
	e.clock.Advance(time.Minute)

	rec := e.protected("/v1/protected/surveys/" + e.survA.ID + "/summary")
	wantStatus(t, rec, 200, "")
	var got struct {
		Data struct {
			TimeRange string
			Current   struct {
				Funnel    map[string]int64
				Questions []map[string]any
			}
			Previous any
		}
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	if got.Data.TimeRange != "all-time" || got.Data.Previous != nil {
		t.Errorf("timeRange %q, previous %v", got.Data.TimeRange, got.Data.Previous)
	}
	if diff := cmp.Diff(map[string]int64{"views": 6, "dismissals": 2, "started": 4, "finished": 2}, got.Data.Current.Funnel); diff != "" {
		t.Errorf("funnel (-want +got):\n%s", diff)
	}
	want := []map[string]any{
		{"questionId": "nps", "title": "How likely are you to recommend us to a friend?", "type": "rating", "position": 0.0,
			"reached": 4.0, "answered": 4.0, "scale": 10.0, "average": 7.5, "nps": 25.0, "promoters": 2.0, "passives": 1.0, "detractors": 1.0,
			"counts": map[string]any{"0": 0.0, "1": 0.0, "2": 0.0, "3": 1.0, "4": 0.0, "5": 0.0, "6": 0.0, "7": 0.0, "8": 1.0, "9": 1.0, "10": 1.0}},
		{"questionId": "stars", "title": "How would you rate the new dashboard?", "type": "rating", "position": 1.0,
			"reached": 3.0, "answered": 1.0, "scale": 5.0, "average": 5.0, "csat": 100.0,
			"counts": map[string]any{"1": 0.0, "2": 0.0, "3": 0.0, "4": 0.0, "5": 1.0}},
		{"questionId": "favourite", "title": "Which feature do you use most?", "type": "single-select", "position": 2.0,
			"reached": 3.0, "answered": 2.0, "other": 1.0,
			"options": []any{map[string]any{"value": "Reports", "count": 1.0}, map[string]any{"value": "Alerts", "count": 0.0}, map[string]any{"value": "Exports", "count": 0.0}},
			// What the person wrote instead of an option, since the question takes free text.
			"latest": []any{map[string]any{"responseId": "rsummary0000000000000003", "text": "Something custom", "createdAt": "2026-11-21T10:06:05.123Z"}}},
		// No editable text: no count of free text, nor any phantom row of one.
		{"questionId": "missing", "title": "What would make it better?", "type": "multi-select", "position": 3.0,
			"reached": 1.0, "answered": 1.0,
			"options": []any{map[string]any{"value": "Speed", "count": 1.0}, map[string]any{"value": "Price", "count": 0.0},
				map[string]any{"value": "Integrations", "count": 0.0}, map[string]any{"value": "Docs", "count": 1.0}}},
		{"questionId": "comments", "title": "Anything else you would like to tell us?", "type": "open-ended", "position": 4.0,
			"reached": 4.0, "answered": 2.0, "latest": []any{
				map[string]any{"responseId": "rsummary0000000000000002", "text": "found a bug", "createdAt": "2026-11-21T10:05:05.123Z"},
				map[string]any{"responseId": "rsummary0000000000000001", "text": "Great", "createdAt": "2026-11-21T10:04:05.123Z"}}},
		// r1 and r4 finished through it; r3 stopped after favourite, so reached comments only.
		{"questionId": "thanks", "title": "Thanks! Our changelog lists what we shipped this month.", "type": "statement", "position": 5.0,
			"reached": 2.0, "answered": 0.0},
		{"questionId": "bug", "title": "Tell us about the bug", "type": "bug-report", "position": 6.0, "reached": 1.0, "answered": 0.0},
	}
	if diff := cmp.Diff(want, got.Data.Current.Questions); diff != "" {
		t.Errorf("questions (-want +got):\n%s", diff)
	}

	// Every range holding the whole history gives the same results, and a previous period
	// before it that holds nothing.
	for _, tr := range []string{"last-7-days", "last-30-days", "q4-2026", "custom_2026-11-21_2026-11-21"} {
		rec := e.protected("/v1/protected/surveys/" + e.survA.ID + "/summary?timeRange=" + tr)
		var ranged struct {
			Data struct {
				TimeRange string
				Current   struct {
					Funnel    map[string]int64
					Questions []map[string]any
				}
				Previous struct{ Funnel map[string]int64 }
			}
		}
		if err := json.Unmarshal(rec.Body.Bytes(), &ranged); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, ranged.Data.Current.Questions); diff != "" || ranged.Data.TimeRange != tr {
			t.Errorf("%s: questions (-want +got):\n%s", tr, diff)
		}
		if diff := cmp.Diff(got.Data.Current.Funnel, ranged.Data.Current.Funnel); diff != "" {
			t.Errorf("%s: funnel (-all-time +range):\n%s", tr, diff)
		}
		if ranged.Data.Previous.Funnel["started"] != 0 || ranged.Data.Previous.Funnel["views"] != 0 {
			t.Errorf("%s: previous period %v", tr, ranged.Data.Previous.Funnel)
		}
	}

	// A range before any of it counts nothing, and has a previous period.
	rec = e.protected("/v1/protected/surveys/" + e.survA.ID + "/summary?timeRange=custom_2026-11-01_2026-11-20")
	wantStatus(t, rec, 200, "")
	var empty struct {
		Data struct {
			Current struct {
				Funnel    map[string]int64
				Questions []map[string]any
			}
			Previous map[string]any
		}
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &empty); err != nil {
		t.Fatal(err)
	}
	if empty.Data.Current.Funnel["started"] != 0 || empty.Data.Current.Funnel["views"] != 0 || empty.Data.Previous == nil ||
		empty.Data.Current.Questions[0]["answered"] != 0.0 || empty.Data.Current.Questions[0]["average"] != nil {
		t.Errorf("summary of an empty range: %s", rec.Body)
	}
	wantStatus(t, e.protected("/v1/protected/surveys/"+e.survA.ID+"/summary?timeRange=yesterday"), http.StatusBadRequest, "invalid_request")
	wantStatus(t, e.manage("GET", "/v1/protected/surveys/"+e.survA.ID+"/summary", "", e.skB), http.StatusNotFound, "not_found")
}

// TestStatsTimeRange: stats over a range count what happened in it, unique respondents
// included; without one (or with all-time) they are the lifetime counters.
func TestStatsTimeRange(t *testing.T) {
	e := setup(t)
	e.putResponse(e.survA.ID, e.ids.New(), "ann", `{"nps":9}`)
	wantStatus(t, e.public("POST", "/v1/svc/"+e.survA.ID+"/respondent/ann/event", `{"type":"view"}`), 200, "")
	e.clock.Advance(10 * 24 * time.Hour)
	e.putResponse(e.survA.ID, e.ids.New(), "bob", `{"nps":3}`)
	e.putResponse(e.survA.ID, e.ids.New(), "bob", `{"nps":4}`)
	wantStatus(t, e.public("POST", "/v1/svc/"+e.survA.ID+"/respondent/bob/event", `{"type":"dismiss"}`), 200, "")
	e.clock.Advance(time.Minute)
	path := "/v1/protected/surveys/" + e.survA.ID + "/stats"
	for q, want := range map[string]string{
		"":                       `{"totalViews":1,"uniqueViewers":1,"totalDismissals":1,"uniqueDismissers":1,"totalResponses":3,"uniqueResponders":2,"finishedResponses":0}`,
		"?timeRange=all-time":    `{"totalViews":1,"uniqueViewers":1,"totalDismissals":1,"uniqueDismissers":1,"totalResponses":3,"uniqueResponders":2,"finishedResponses":0}`,
		"?timeRange=last-7-days": `{"totalViews":0,"uniqueViewers":0,"totalDismissals":1,"uniqueDismissers":1,"totalResponses":2,"uniqueResponders":1,"finishedResponses":0}`,
	} {
		rec := e.protected(path + q)
		var got struct{ Data json.RawMessage }
		if err := json.Unmarshal(rec.Body.Bytes(), &got); err != nil || string(got.Data) != want {
			t.Errorf("stats%s = %s, want %s", q, rec.Body, want)
		}
	}
	wantStatus(t, e.protected(path+"?timeRange=tomorrow"), http.StatusBadRequest, "invalid_request")
}

// TestSummaryLatestAnswers: an open-ended question's latest answers are its three newest among
// the period's 200 newest responses, found past the first page of them when the newer ones
// left it empty.
func TestSummaryLatestAnswers(t *testing.T) {
	e := setup(t)
	put := func(data string) { putNext(t, e, data) }
	latest := func() []string { return latestComments(t, e, "") }

	put(`{"nps":9,"comments":"too old to be read"}`)
	for range 60 {
		put(`{"nps":9}`)
	}
	put(`{"nps":9,"comments":"first"}`)
	put(`{"nps":9,"comments":"second"}`)
	for range 150 { // the two answers are now past the first page, and within the 200 read
		put(`{"nps":9}`)
	}
	if diff := cmp.Diff([]string{"second", "first"}, latest()); diff != "" {
		t.Errorf("latest answers behind 150 without one (-want +got):\n%s", diff)
	}
	for _, text := range []string{"third", "fourth", "fifth"} {
		put(`{"nps":9,"comments":"` + text + `"}`)
	}
	if diff := cmp.Diff([]string{"fifth", "fourth", "third"}, latest()); diff != "" {
		t.Errorf("latest answers (-want +got):\n%s", diff)
	}
}

// TestSummaryCostIgnoresLargeAnswers: bug reports with large screenshots, in a survey whose
// open question nobody answered, made every summary read all of them in full (2-3 s on SQLite,
// 13-24 s on PostgreSQL, for ~10 MB ones). A summary reads only the texts it shows: what it
// allocates does not grow with the screenshots (it once took 300 MiB for four at once).
func TestSummaryCostIgnoresLargeAnswers(t *testing.T) {
	e := setup(t)
	shot := `"data:image/png;base64,` + strings.Repeat("A", 2<<20) + `"`
	for i := range 20 {
		e.putResponse(e.survA.ID, e.ids.New(), fmt.Sprint("r", i), `{"nps":2,"bug":{"title":"Crash","metadata":"{}","screenshotDataUrl":`+shot+`}}`)
		e.clock.Advance(time.Second)
	}
	e.clock.Advance(time.Minute)
	summary := func() {
		wantStatus(t, e.protected("/v1/protected/surveys/"+e.survA.ID+"/summary?timeRange=last-7-days"), 200, "")
	}
	summary() // caches warm
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	summary()
	runtime.ReadMemStats(&after)
	if got := after.TotalAlloc - before.TotalAlloc; got > 4<<20 {
		t.Errorf("a summary allocated %d MiB beside 40 MiB of screenshots, want under 4 MiB", got>>20)
	}
}

// BenchmarkSummaryBesideScreenshots is a summary of a survey holding 20 bug reports with
// 2 MiB screenshots and no open-ended answer (TestSummaryCostIgnoresLargeAnswers's survey).
//
//	go test ./handler -run '^$' -bench SummaryBesideScreenshots
func BenchmarkSummaryBesideScreenshots(b *testing.B) {
	e := setup(b)
	shot := `"data:image/png;base64,` + strings.Repeat("A", 2<<20) + `"`
	for i := range 20 {
		e.putResponse(e.survA.ID, e.ids.New(), fmt.Sprint("r", i), `{"nps":2,"bug":{"title":"Crash","metadata":"{}","screenshotDataUrl":`+shot+`}}`)
		e.clock.Advance(time.Second)
	}
	e.clock.Advance(time.Minute)
	b.ReportAllocs()
	for b.Loop() {
		wantStatus(b, e.protected("/v1/protected/surveys/"+e.survA.ID+"/summary?timeRange=last-7-days"), 200, "")
	}
}

// TestSummaryLatestAnswersFiltered: a filtered summary shows the newest texts of the responses
// the filter picks, among the newest 200 of those (not of all the period's responses), as the
// unfiltered one does among all.
func TestSummaryLatestAnswersFiltered(t *testing.T) {
	e := setup(t)
	put := func(data string) { putNext(t, e, data) }
	latest := func() []string { return latestComments(t, e, "?answer.nps.min=9") }

	put(`{"nps":9,"comments":"too old to be read"}`)
	for i := range 200 { // 200 picked after it, and as many the filter leaves out, with texts
		put(`{"nps":10}`)
		put(`{"nps":3,"comments":"not picked ` + strconv.Itoa(i) + `"}`)
	}
	if got := latest(); len(got) != 0 {
		t.Errorf("latest answers, the one picked 201st newest: %q, want none", got)
	}
	put(`{"nps":9,"comments":"first"}`)
	put(`{"nps":2,"comments":"left out"}`)
	put(`{"nps":10,"comments":"second"}`)
	for range 150 {
		put(`{"nps":9}`)
		put(`{"nps":1,"comments":"left out"}`)
	}
	if diff := cmp.Diff([]string{"second", "first"}, latest()); diff != "" {
		t.Errorf("latest answers behind 150 picked without one (-want +got):\n%s", diff)
	}
	for _, text := range []string{"third", "fourth", "fifth", "sixth"} {
		put(`{"nps":10,"comments":"` + text + `"}`)
	}
	put(`{"nps":0,"comments":"newest, left out"}`)
	if diff := cmp.Diff([]string{"sixth", "fifth", "fourth"}, latest()); diff != "" {
		t.Errorf("latest answers (-want +got):\n%s", diff)
	}
}

// putNext writes a response of data to survey A, by a respondent of its own, and moves the clock
// a second on, so that the next one is newer.
func putNext(t *testing.T, e *env, data string) {
	t.Helper()
	id := e.ids.New()
	e.putResponse(e.survA.ID, id, "r-"+id, data)
	e.clock.Advance(time.Second)
}

// latestComments returns the latest answers to survey A's comments question that its summary
// shows, with query (a filter, or "").
func latestComments(t *testing.T, e *env, query string) []string {
	t.Helper()
	rec := e.protected("/v1/protected/surveys/" + e.survA.ID + "/summary" + query)
	wantStatus(t, rec, 200, "")
	var got struct {
		Data struct {
			Current struct {
				Questions []struct {
					QuestionID string
					Latest     []struct{ Text string }
				}
			}
		}
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	var texts []string
	for _, q := range got.Data.Current.Questions {
		if q.QuestionID == "comments" {
			for _, a := range q.Latest {
				texts = append(texts, a.Text)
			}
		}
	}
	return texts
}
