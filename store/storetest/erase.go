package storetest

import (
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/svc-feedback/svc/store"
	"github.com/svc-feedback/svc/survey"
)

// history is what the suite writes for erasure tests: responses and events of two
// respondents, in two surveys of a team and one of another team.
type erasePlan struct {
	writes []store.ResponseWrite
	events []store.Event
}

// expected recounts, from the writes and events that remain, what a store that never saw the
// others would answer: the suite's independent model of stats, rating counts and history.
func (p erasePlan) expected(surveyID string, keep func(respondent, responseID string) bool) (store.Stats, map[int]int64, map[string]store.History) {
	var st store.Stats
	counts := map[int]int64{}
	hist := map[string]store.History{}
	latest := map[string]store.ResponseWrite{} // by response id: its last write
	created := map[string]time.Time{}
	order := []string{}
	for _, w := range p.writes {
		if w.SurveyID != surveyID || !keep(w.Respondent, w.ID) {
			continue
		}
		if _, ok := latest[w.ID]; !ok {
			created[w.ID] = w.At
			order = append(order, w.ID)
		}
		prev := latest[w.ID]
		w.Finished = w.Finished || prev.Finished
		latest[w.ID] = w
		h := hist[w.Respondent]
		h.LastRespondedAt = later(h.LastRespondedAt, w.At)
		hist[w.Respondent] = h
	}
	responders := map[string]bool{}
	for _, id := range order {
		w := latest[id]
		st.TotalResponses++
		responders[w.Respondent] = true
		if w.Finished {
			st.FinishedResponses++
		}
		if n, ok := w.Data["nps"].(survey.Number); ok {
			counts[int(n)]++
		}
	}
	st.UniqueResponders = int64(len(responders))
	viewers, dismissers := map[string]bool{}, map[string]bool{}
	for _, e := range p.events {
		if e.SurveyID != surveyID || !keep(e.Respondent, "") {
			continue
		}
		h := hist[e.Respondent]
		if e.Type == store.EventView {
			st.TotalViews++
			viewers[e.Respondent] = true
			h.LastViewedAt = later(h.LastViewedAt, e.At)
		} else {
			st.TotalDismissals++
			dismissers[e.Respondent] = true
			h.LastDismissedAt = later(h.LastDismissedAt, e.At)
		}
		hist[e.Respondent] = h
	}
	st.UniqueViewers, st.UniqueDismissers = int64(len(viewers)), int64(len(dismissers))
	return st, counts, hist
}

func later(t *time.Time, at time.Time) *time.Time {
	if t == nil || at.After(*t) {
		return &at
	}
	return t
}

// check compares the store's stats, all-time rating counts and the histories of who with the
// model's.
func (p erasePlan) check(t *testing.T, s store.Store, surveyID string, who []string, keep func(respondent, responseID string) bool) {
	t.Helper()
	ctx := t.Context()
	wantStats, wantCounts, wantHist := p.expected(surveyID, keep)
	st, err := s.Stats(ctx, surveyID)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(wantStats, st); diff != "" {
		t.Errorf("survey %s: stats (-recounted +store):\n%s", surveyID, diff)
	}
	counts, err := s.Counts(ctx, surveyID, []string{"nps"}, t0.Add(-time.Hour), t0.Add(48*time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	if len(wantCounts) == 0 {
		wantCounts = nil
	}
	got := counts["nps"]
	if len(got) == 0 {
		got = nil
	}
	if diff := cmp.Diff(wantCounts, got); diff != "" {
		t.Errorf("survey %s: nps counts (-recounted +store):\n%s", surveyID, diff)
	}
	// A window holding only the first day's minutes checks the finer rollups too.
	day, err := s.Counts(ctx, surveyID, []string{"nps"}, t0, t0.Add(90*time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	var inDay, wantDay int64
	for _, n := range day["nps"] {
		inDay += n
	}
	for _, w := range p.writes {
		if w.SurveyID == surveyID && keep(w.Respondent, w.ID) && !w.At.Before(t0) && w.At.Before(t0.Add(90*time.Minute)) {
			if _, ok := w.Data["nps"]; ok && w.Metadata["first"] == "yes" {
				wantDay++
			}
		}
	}
	if inDay != wantDay {
		t.Errorf("survey %s: %d nps answers in the first 90 minutes, want %d", surveyID, inDay, wantDay)
	}
	for _, r := range who {
		h, err := s.History(ctx, surveyID, r)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(wantHist[r], h); diff != "" {
			t.Errorf("survey %s: history of %s (-recounted +store):\n%s", surveyID, r, diff)
		}
	}
}

// run writes the plan.
func (p erasePlan) run(t *testing.T, s store.Store) {
	t.Helper()
	for _, w := range p.writes {
		put(t, s, w)
	}
	for _, e := range p.events {
		if err := s.RecordEvent(t.Context(), e); err != nil {
			t.Fatal(err)
		}
	}
}

// newErasePlan writes, in surveys a1 and a2 of team a and b1 of team b: responses of ann and
// bob (created, updated, finished, some updated with another score), and views and dismissals.
func newErasePlan(a1, a2, b1 string) erasePlan {
	var p erasePlan
	at := func(m int) time.Time { return t0.Add(time.Duration(m) * time.Minute) }
	for i, sid := range []string{a1, a2, b1} {
		for j, who := range []string{"ann", "bob", "bob", "ann", "bob"} {
			id := ids.New()
			created := at(i*7 + j*31) // some in the first 90 minutes, some later
			p.writes = append(p.writes, store.ResponseWrite{SurveyID: sid, ID: id, Respondent: who, At: created,
				Data: survey.Answers{"nps": survey.Number((i + j) % 11)}, Metadata: map[string]string{"first": "yes"}})
			if j%2 == 0 {
				// Updated later, with another score, and finished.
				p.writes = append(p.writes, store.ResponseWrite{SurveyID: sid, ID: id, Respondent: who, At: created.Add(26 * time.Hour),
					Data: survey.Answers{"nps": survey.Number(10 - j)}, Metadata: map[string]string{}, Finished: true})
			}
		}
		for j, who := range []string{"ann", "bob", "bob", "cat"} {
			typ := store.EventView
			if j == 2 {
				typ = store.EventDismiss
			}
			p.events = append(p.events, store.Event{SurveyID: sid, Respondent: who, Type: typ, At: at(200 + i + j)})
		}
	}
	return p
}

// writeErasePlan makes teams a and b, surveys a1 (with a webhook) and a2 of a and b1 of b, and
// writes the erase plan into them.
func writeErasePlan(t *testing.T, s store.Store) (p erasePlan, a1, a2, b1 store.Survey) {
	t.Helper()
	mustTeam(t, s, "a")
	mustTeam(t, s, "b")
	a1 = hookedSurvey(t, s, "a")
	a2 = mustSurvey(t, s, newSurvey("a", t0))
	b1 = mustSurvey(t, s, newSurvey("b", t0))
	p = newErasePlan(a1.ID, a2.ID, b1.ID)
	p.run(t, s)
	return p, a1, a2, b1
}

// testDeleteResponse deletes responses one by one and checks the survey's numbers against a
// recount of what remains, and that their deliveries are gone.
func testDeleteResponse(t *testing.T, s store.Store) {
	ctx := t.Context()
	p, a1, a2, _ := writeErasePlan(t, s)
	deleted := map[string]bool{}
	keep := func(_, id string) bool { return !deleted[id] }
	who := []string{"ann", "bob", "cat"}
	p.check(t, s, a1.ID, who, keep)
	if n := len(deliveriesOf(t, s, a1.ID)); n != 5 {
		t.Fatalf("%d deliveries before deleting, want 5", n)
	}
	// Delete bob's responses of a1 one at a time (the first one updated and finished), then
	// one of ann's.
	var victims []string
	annsFirst := ""
	for _, w := range p.writes {
		switch {
		case w.SurveyID != a1.ID || contains(victims, w.ID):
		case w.Respondent == "bob":
			victims = append(victims, w.ID)
		case annsFirst == "":
			annsFirst = w.ID
		}
	}
	victims = append(victims, annsFirst)
	for _, id := range victims {
		if err := s.DeleteResponse(ctx, a1.ID, id); err != nil {
			t.Fatalf("DeleteResponse(%s): %v", id, err)
		}
		deleted[id] = true
		p.check(t, s, a1.ID, who, keep)
		if _, err := s.Response(ctx, a1.ID, id); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("Response after delete: %v, want ErrNotFound", err)
		}
		for _, d := range deliveriesOf(t, s, a1.ID) {
			if d.ResponseID == id {
				t.Errorf("response %s deleted, its delivery %s is not", id, d.ID)
			}
		}
	}
	wantErr(t, "DeleteResponse again", s.DeleteResponse(ctx, a1.ID, victims[0]), store.ErrNotFound)
	wantErr(t, "DeleteResponse in another survey", s.DeleteResponse(ctx, a2.ID, p.writes[0].ID), store.ErrNotFound)
	// The other surveys are untouched; the deleted responses' deliveries are never claimed.
	p.check(t, s, a2.ID, who, func(string, string) bool { return true })
	claimed, err := s.ClaimDeliveries(ctx, t0.Add(1000*time.Hour), time.Minute, 100)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range claimed {
		if deleted[d.ResponseID] {
			t.Errorf("claimed the delivery of deleted response %s", d.ResponseID)
		}
	}
	if len(claimed) != 5-len(victims) {
		t.Errorf("claimed %d deliveries, want %d", len(claimed), 5-len(victims))
	}
	// A response written again with a deleted id is a new response, of whoever writes it.
	if _, created := put(t, s, store.ResponseWrite{SurveyID: a1.ID, ID: victims[0], Respondent: "dan", Data: survey.Answers{}, At: t0}); !created {
		t.Error("a write with a deleted response's id did not create a response")
	}
}

// testEraseRespondent erases bob from team a: every survey of a is recounted without him, team
// b keeps him, and erasing again erases nothing.
func testEraseRespondent(t *testing.T, s store.Store) {
	ctx := t.Context()
	p, a1, a2, b1 := writeErasePlan(t, s)
	// A deleted survey of the team is erased too.
	if err := store.SetSurveyStatus(ctx, s, "a", a2.ID, store.StatusDeleted, t0); err != nil {
		t.Fatal(err)
	}
	got, err := s.EraseRespondent(ctx, "a", "bob")
	if err != nil {
		t.Fatal(err)
	}
	// bob: 3 responses and 2 events (a view, a dismissal) in each of a1 and a2.
	if got != (store.Erased{Responses: 6, Events: 4}) {
		t.Errorf("EraseRespondent = %+v, want 6 responses and 4 events", got)
	}
	notBob := func(r, _ string) bool { return r != "bob" }
	who := []string{"ann", "bob", "cat"}
	p.check(t, s, a1.ID, who, notBob)
	p.check(t, s, a2.ID, who, notBob)
	p.check(t, s, b1.ID, who, func(string, string) bool { return true })
	for _, d := range deliveriesOf(t, s, a1.ID) {
		for _, w := range p.writes {
			if w.ID == d.ResponseID && w.Respondent == "bob" {
				t.Errorf("bob's delivery %s is kept", d.ID)
			}
		}
	}
	page, _, err := s.Responses(ctx, store.ResponseQuery{SurveyID: a1.ID, Respondent: "bob", Limit: 10})
	if err != nil || len(page) != 0 {
		t.Errorf("bob's responses after erasure: %d, %v", len(page), err)
	}
	again, err := s.EraseRespondent(ctx, "a", "bob")
	if err != nil || again != (store.Erased{}) {
		t.Errorf("erasing again = %+v, %v; want zeros", again, err)
	}
	if none, err := s.EraseRespondent(ctx, "a", "nobody"); err != nil || none != (store.Erased{}) {
		t.Errorf("erasing an unknown respondent = %+v, %v", none, err)
	}
	// bob comes back: he counts again, from zero.
	put(t, s, store.ResponseWrite{SurveyID: a1.ID, ID: ids.New(), Respondent: "bob", Data: survey.Answers{}, At: t0.Add(72 * time.Hour)})
	if err := s.RecordEvent(ctx, store.Event{SurveyID: a1.ID, Respondent: "bob", Type: store.EventView, At: t0.Add(72 * time.Hour)}); err != nil {
		t.Fatal(err)
	}
	st, err := s.Stats(ctx, a1.ID)
	if err != nil {
		t.Fatal(err)
	}
	want, _, _ := p.expected(a1.ID, notBob)
	want.TotalResponses++
	want.UniqueResponders++
	want.TotalViews++
	want.UniqueViewers++
	if diff := cmp.Diff(want, st); diff != "" {
		t.Errorf("stats after bob came back (-want +got):\n%s", diff)
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
