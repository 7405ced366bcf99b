package storetest

import (
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/svc-feedback/svc/store"
	"github.com/svc-feedback/svc/survey"
)

// testAnswerCounts writes responses (created, updated, finished, deleted) and events over three
// days, and checks Counts of the summary's keys (store.ResponseCounts, store.EventsKey) and
// RangeStats over ranges of every shape against a recount of what remains.
func testAnswerCounts(t *testing.T, s store.Store) {
	ctx := t.Context()
	mustTeam(t, s, "a")
	sv := mustSurvey(t, s, newSurvey("a", t0))
	def := sv.Definition
	def.Normalize()
	type kept struct {
		answers  survey.Answers
		finished bool
		at       time.Time
	}
	responses := map[string]kept{}
	respondentOf := map[string]string{}
	var events []store.Event
	options := []string{"Speed", "Price", "Integrations", "Docs"}
	for i := range 150 {
		at := t0.Add(time.Duration(i) * 29 * time.Minute).Add(time.Duration(i*7) * time.Second)
		id := ids.New()
		a := survey.Answers{"nps": survey.Number(i % 11)}
		if i%11 <= 6 {
			a["missing"] = survey.Choices{options[i%4], options[(i+1)%4]}
		} else {
			a["stars"] = survey.Number(i%5 + 1)
			a["favourite"] = survey.Text([]string{"Reports", "Alerts", "something else"}[i%3])
		}
		put(t, s, store.ResponseWrite{SurveyID: sv.ID, ID: id, Respondent: fmt.Sprint("r", i%40), Data: a, At: at})
		finished := false
		if i%3 == 0 { // answered more, and finished
			a["comments"] = survey.Text("ok")
			finished = true
			put(t, s, store.ResponseWrite{SurveyID: sv.ID, ID: id, Respondent: fmt.Sprint("r", i%40), Data: a, At: at.Add(time.Hour), Finished: true})
		}
		responses[id] = kept{a, finished, at}
		respondentOf[id] = fmt.Sprint("r", i%40) // some answer more than once
		if i%7 == 0 {
			if err := s.DeleteResponse(ctx, sv.ID, id); err != nil {
				t.Fatal(err)
			}
			delete(responses, id)
		}
		e := store.Event{SurveyID: sv.ID, Respondent: fmt.Sprint("r", i%30), Type: store.EventView, At: at.Add(-90 * time.Second)}
		if i%4 == 0 {
			e.Type = store.EventDismiss
		}
		if err := s.RecordEvent(ctx, e); err != nil {
			t.Fatal(err)
		}
		events = append(events, e)
	}
	keys := []string{store.AnsweredKey, store.ReachedKey, store.FunnelKey, store.EventsKey, store.OptionKey("missing"), store.OptionKey("favourite"), "nps"}
	recount := func(from, to time.Time) map[string]map[int]int64 {
		out := map[string]map[int]int64{}
		for _, k := range keys {
			out[k] = map[int]int64{}
		}
		for _, r := range responses {
			if r.at.Before(from) || !r.at.Before(to) {
				continue
			}
			for _, c := range store.ResponseCounts(&def, r.answers, r.finished) {
				if m, ok := out[c.Key]; ok {
					m[c.N]++
				}
			}
		}
		for _, e := range events {
			if !e.At.Before(from) && e.At.Before(to) {
				out[store.EventsKey][map[store.EventType]int{store.EventView: 0, store.EventDismiss: 1}[e.Type]]++
			}
		}
		return out
	}
	checkStats := func(name string, from, to time.Time) {
		t.Helper()
		var want store.Stats
		responders, viewers, dismissers := map[string]bool{}, map[string]bool{}, map[string]bool{}
		for id, r := range responses {
			if !r.at.Before(from) && r.at.Before(to) {
				want.TotalResponses++
				responders[respondentOf[id]] = true
				if r.finished {
					want.FinishedResponses++
				}
			}
		}
		for _, e := range events {
			if e.At.Before(from) || !e.At.Before(to) {
				continue
			}
			if e.Type == store.EventView {
				want.TotalViews++
				viewers[e.Respondent] = true
			} else {
				want.TotalDismissals++
				dismissers[e.Respondent] = true
			}
		}
		want.UniqueResponders, want.UniqueViewers, want.UniqueDismissers = int64(len(responders)), int64(len(viewers)), int64(len(dismissers))
		got, err := s.RangeStats(ctx, sv.ID, from, to)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s: RangeStats (-recount +store):\n%s", name, diff)
		}
	}
	check := func(name string, from, to time.Time) {
		t.Helper()
		checkStats(name, from, to)
		got, err := s.Counts(ctx, sv.ID, keys, from, to)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(recount(from, to), got); diff != "" {
			t.Errorf("%s: counts (-recount +store):\n%s", name, diff)
		}
	}
	for _, w := range []struct{ name, from, to string }{
		{"everything", "-1h", "100h"},
		{"whole days", "0h", "48h"},
		{"edges inside minutes", "3h17m13s", "51h2m41s"},
		{"under a minute", "12h0m5s", "12h0m50s"},
		{"an hour and a bit", "20h59m59s", "22h0m1s"},
		{"before anything", "-48h", "-47h"},
	} {
		from, _ := time.ParseDuration(w.from)
		to, _ := time.ParseDuration(w.to)
		check(w.name, t0.Add(from), t0.Add(to))
	}
	// Seconds around a response or an event: less than a minute, read from the responses and
	// events themselves.
	n := 0
	for _, r := range responses {
		check("around a response at "+r.at.Format(time.TimeOnly), r.at.Add(-2*time.Second), r.at.Add(3*time.Second))
		if n++; n == 5 {
			break
		}
	}
	for _, e := range events[:5] {
		check("around an event at "+e.At.Format(time.TimeOnly), e.At.Add(-2*time.Second), e.At.Add(3*time.Second))
	}
}
