package storetest

import (
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/svc-feedback/svc/store"
	"github.com/svc-feedback/svc/survey"
)

// testPersonSeesEveryWrite: a Store may keep what Person read in memory, but a Person read that
// begins after a write returned sees that write, of every kind that changes a person, even
// while other reads of the same person race the writes.
func testPersonSeesEveryWrite(t *testing.T, s store.Store) {
	tg, ctx := targeter(t, s), t.Context()
	mustTeam(t, s, "a")
	sv := mustSurvey(t, s, newSurvey("a", t0))
	asked := []string{sv.ID}
	read := func() store.Person {
		t.Helper()
		p, err := tg.Person(ctx, "a", "ann", asked)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	var reads atomic.Int64
	for range 4 { // readers that keep filling any cache with what they read
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				if _, err := tg.Person(ctx, "a", "ann", asked); err != nil {
					t.Error(err)
					return
				}
				reads.Add(1)
			}
		}()
	}
	defer func() { close(stop); wg.Wait() }()

	steps := []struct {
		name  string
		write func() error
		check func(store.Person) bool
	}{
		{"attributes set", func() error { return tg.SetAttributes(ctx, "a", "ann", map[string]any{"plan": "pro"}) },
			func(p store.Person) bool { return p.Attributes["plan"] == "pro" }},
		{"attributes changed", func() error { return tg.SetAttributes(ctx, "a", "ann", map[string]any{"plan": "team"}) },
			func(p store.Person) bool { return p.Attributes["plan"] == "team" }},
		{"a prompt", func() error {
			return tg.AddPrompt(ctx, store.Prompt{ID: "p1", TeamID: "a", SurveyID: sv.ID, Respondent: "ann", CreatedAt: t0})
		}, func(p store.Person) bool { return len(p.Prompts) == 1 }},
		{"the prompt deleted", func() error { return tg.DeletePrompt(ctx, "a", sv.ID, "p1") },
			func(p store.Person) bool { return len(p.Prompts) == 0 }},
		{"another prompt", func() error {
			return tg.AddPrompt(ctx, store.Prompt{ID: "p2", TeamID: "a", SurveyID: sv.ID, Respondent: "ann", CreatedAt: t0})
		}, func(p store.Person) bool { return len(p.Prompts) == 1 }},
		{"a view, using the prompt up", func() error {
			return s.RecordEvent(ctx, store.Event{SurveyID: sv.ID, Respondent: "ann", Type: store.EventView, At: t0.Add(time.Hour)})
		}, func(p store.Person) bool { return p.Surveys[sv.ID].Views == 1 && len(p.Prompts) == 0 }},
		{"a dismissal", func() error {
			return s.RecordEvent(ctx, store.Event{SurveyID: sv.ID, Respondent: "ann", Type: store.EventDismiss, At: t0.Add(2 * time.Hour)})
		}, func(p store.Person) bool { return p.Surveys[sv.ID].LastDismissed.Equal(t0.Add(2 * time.Hour)) }},
		{"a response", func() error {
			_, _, err := s.PutResponse(ctx, store.ResponseWrite{SurveyID: sv.ID, ID: "r1", Respondent: "ann",
				Data: survey.Answers{"nps": survey.Number(9)}, At: t0.Add(3 * time.Hour)})
			return err
		}, func(p store.Person) bool { return p.Responded[sv.ID] }},
		{"the response deleted", func() error { return s.DeleteResponse(ctx, sv.ID, "r1") },
			func(p store.Person) bool { return !p.Responded[sv.ID] }},
		{"another view", func() error {
			return s.RecordEvent(ctx, store.Event{SurveyID: sv.ID, Respondent: "ann", Type: store.EventView, At: t0.Add(4 * time.Hour)})
		}, func(p store.Person) bool { return p.Surveys[sv.ID].Views == 2 }},
		{"erased", func() error { _, err := s.EraseRespondent(ctx, "a", "ann"); return err },
			func(p store.Person) bool { return len(p.Attributes) == 0 && len(p.Surveys) == 0 && len(p.Prompts) == 0 }},
	}
	for _, st := range steps {
		read() // what a cache would keep, before the write
		if err := st.write(); err != nil {
			t.Fatalf("%s: %v", st.name, err)
		}
		if p := read(); !st.check(p) {
			t.Errorf("after %s: %+v", st.name, p)
		}
	}
	// Many views in a row, each seen by the read after it, while the readers race them.
	for i := range 50 {
		if err := s.RecordEvent(ctx, store.Event{SurveyID: sv.ID, Respondent: "ann", Type: store.EventView,
			At: t0.Add(5*time.Hour + time.Duration(i)*time.Second)}); err != nil {
			t.Fatal(err)
		}
		if got := read().Surveys[sv.ID].Views; got != i+1 {
			t.Fatalf("after view %d of the burst: %d views read", i+1, got)
		}
	}
	if reads.Load() == 0 {
		t.Error("the racing readers read nothing")
	}
}
