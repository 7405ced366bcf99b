package api_test

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestResponseFilters checks the filters of docs/api.md#filters on the list (paged) and the
// export against a recount of a generated history: answers of each kind, metadata, finished.
func TestResponseFilters(t *testing.T) {
	e := setup(t)
	type gen struct {
		id, favourite, comment, plan string
		nps                          int
		missing                      []string
		finished                     bool
	}
	favourites := []string{"Reports", "Alerts", "Exports", "My own words"}
	comments := []string{"exports are SLOW", "love it", "", "slowish but fine"}
	var all []gen
	for i := range 40 {
		g := gen{id: fmt.Sprintf("rfilter%04d", i), favourite: favourites[i%4], comment: comments[i%4], plan: []string{"pro", "free"}[i%3%2],
			nps: i % 11, missing: [][]string{{"Docs"}, {"Speed", "Docs"}, {"Price"}}[i%3], finished: i%2 == 0}
		data := map[string]any{"nps": g.nps, "favourite": g.favourite, "missing": g.missing}
		if g.comment != "" {
			data["comments"] = g.comment
		}
		body, _ := json.Marshal(map[string]any{"respondent": g.id, "data": data, "metadata": map[string]string{"plan": g.plan}, "finished": g.finished})
		wantStatus(t, e.public("PUT", "/v1/svc/"+e.survA.ID+"/response/"+g.id, string(body)), 200, "")
		e.clock.Advance(time.Minute)
		all = append(all, g)
	}
	// newestFirst lists the ids that pick keeps, as the list orders them.
	newestFirst := func(pick func(g gen) bool) []string {
		var ids []string
		for i := len(all) - 1; i >= 0; i-- {
			if pick(all[i]) {
				ids = append(ids, all[i].id)
			}
		}
		return ids
	}
	// list pages through the list, 3 at a time, and returns the ids.
	list := func(query string) []string {
		t.Helper()
		var ids []string
		path := "/v1/protected/surveys/" + e.survA.ID + "/responses?limit=3&" + query
		for pages := 0; path != ""; pages++ {
			rec := e.protected(path)
			wantStatus(t, rec, 200, "")
			var page struct {
				Data       []struct{ ID string }
				NextCursor *string
			}
			if err := json.Unmarshal(rec.Body.Bytes(), &page); err != nil || pages > 40 {
				t.Fatalf("%v, page %d: %s", err, pages, rec.Body)
			}
			for _, r := range page.Data {
				ids = append(ids, r.ID)
			}
			path = ""
			if page.NextCursor != nil {
				path = "/v1/protected/surveys/" + e.survA.ID + "/responses?limit=3&" + query + "&cursor=" + url.QueryEscape(*page.NextCursor)
			}
		}
		return ids
	}
	for _, tc := range []struct {
		query string
		pick  func(g gen) bool
	}{
		{"answer.favourite=Exports", func(g gen) bool { return g.favourite == "Exports" }},
		{"answer.favourite=Exports&answer.favourite=My+own+words", func(g gen) bool { return g.favourite == "Exports" || g.favourite == "My own words" }},
		{"answer.nps.min=9", func(g gen) bool { return g.nps >= 9 }},
		{"answer.nps.min=3&answer.nps.max=5", func(g gen) bool { return g.nps >= 3 && g.nps <= 5 }},
		{"answer.nps=3&answer.nps=10", func(g gen) bool { return g.nps == 3 || g.nps == 10 }},
		{"answer.missing=Docs", func(g gen) bool { return slices.Contains(g.missing, "Docs") }},
		{"answer.comments=slow", func(g gen) bool { return strings.Contains(strings.ToLower(g.comment), "slow") }},
		{"metadata.plan=pro&finished=true", func(g gen) bool { return g.plan == "pro" && g.finished }},
		{"finished=false&answer.favourite=Reports&answer.nps.max=6", func(g gen) bool { return !g.finished && g.favourite == "Reports" && g.nps <= 6 }},
		{"answer.favourite=Nothing", func(gen) bool { return false }},
	} {
		want := newestFirst(tc.pick)
		if diff := cmp.Diff(want, list(tc.query)); diff != "" {
			t.Errorf("list %s (-want +got):\n%s", tc.query, diff)
		}
		rec := e.protected("/v1/protected/surveys/" + e.survA.ID + "/responses/export?" + tc.query)
		wantStatus(t, rec, 200, "")
		rows, err := csv.NewReader(rec.Body).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, row := range rows[1:] {
			got = append([]string{row[0]}, got...) // the export is oldest first
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("export %s (-want +got):\n%s", tc.query, diff)
		}
	}
	// The summary, stats and trends take the same filters, counted from the responses picked.
	exports := newestFirst(func(g gen) bool { return g.favourite == "Exports" })
	var finished int
	for _, g := range all {
		if g.favourite == "Exports" && g.finished {
			finished++
		}
	}
	var summary struct {
		Data struct {
			Current struct {
				Funnel    struct{ Started, Finished int }
				Questions []struct {
					QuestionID string
					Answered   int
					Options    []struct {
						Value string
						Count int
					}
				}
			}
		}
	}
	rec := e.protected("/v1/protected/surveys/" + e.survA.ID + "/summary?answer.favourite=Exports")
	wantStatus(t, rec, 200, "")
	if err := json.Unmarshal(rec.Body.Bytes(), &summary); err != nil {
		t.Fatal(err)
	}
	cur := summary.Data.Current
	if cur.Funnel.Started != len(exports) || cur.Funnel.Finished != finished || cur.Questions[0].Answered != len(exports) ||
		fmt.Sprint(cur.Questions[2].Options) != "[{Reports 0} {Alerts 0} {Exports 10}]" {
		t.Errorf("summary of Exports' responses: %+v; want %d started, %d finished", cur, len(exports), finished)
	}
	var got struct {
		Data struct{ TotalResponses, UniqueResponders, FinishedResponses int }
	}
	rec = e.protected("/v1/protected/surveys/" + e.survA.ID + "/stats?answer.favourite=Exports")
	wantStatus(t, rec, 200, "")
	stats := &got.Data
	if err := json.Unmarshal(rec.Body.Bytes(), &got); err != nil || stats.TotalResponses != len(exports) ||
		stats.UniqueResponders != len(exports) || stats.FinishedResponses != finished {
		t.Errorf("stats of Exports' responses: %+v, %v", stats, err)
	}
	var trend struct {
		Data struct {
			Buckets []struct {
				Responses int
				Questions []struct{ Answered int }
			}
		}
	}
	rec = e.protected("/v1/protected/surveys/" + e.survA.ID + "/trends?answer.nps.min=9&questionIds=nps")
	wantStatus(t, rec, 200, "")
	if err := json.Unmarshal(rec.Body.Bytes(), &trend); err != nil {
		t.Fatal(err)
	}
	responses, answered := 0, 0
	for _, b := range trend.Data.Buckets {
		responses, answered = responses+b.Responses, answered+b.Questions[0].Answered
	}
	if want := len(newestFirst(func(g gen) bool { return g.nps >= 9 })); responses != want || answered != want {
		t.Errorf("trend of scores of 9 and 10: %d responses, %d answered; want %d", responses, answered, want)
	}

	for _, bad := range []string{"answer.nope=1", "answer.favourite.min=1", "answer.nps=high", "answer.bug=x", "answer.thanks=x",
		"language=xx", "finished=maybe", "answer.nps.min=1&answer.nps.min=2", "answer.comments=" + strings.Repeat("x", 1001)} {
		wantStatus(t, e.protected("/v1/protected/surveys/"+e.survA.ID+"/responses?"+bad), http.StatusBadRequest, "invalid_request")
	}
}
