package storetest

import (
	"cmp"
	"errors"
	"slices"
	"sync"
	"testing"
	"time"

	gocmp "github.com/google/go-cmp/cmp"

	"github.com/svc-feedback/svc/store"
	"github.com/svc-feedback/svc/survey"
)

// optional returns s as T, one of the Store's optional interfaces (named name), or skips the
// test of a Store without it.
func optional[T any](t *testing.T, s store.Store, name string) T {
	t.Helper()
	c, ok := s.(T)
	if !ok {
		t.Skip("the Store has no " + name)
	}
	return c
}

// targeter returns s as a store.Targeter, or skips the test of a Store without it.
func targeter(t *testing.T, s store.Store) store.Targeter {
	t.Helper()
	return optional[store.Targeter](t, s, "store.Targeter")
}

// testSettings: a team's settings are the defaults until changed; a change moves UpdatedAt
// forward every time, and a change that fails changes nothing.
func testSettings(t *testing.T, s store.Store) {
	tg, ctx := targeter(t, s), t.Context()
	mustTeam(t, s, "a")
	if st, err := tg.Settings(ctx, "a"); err != nil || !gocmp.Equal(st, store.TeamSettings{}) {
		t.Fatalf("new team's settings: %+v, %v", st, err)
	}
	if _, err := tg.Settings(ctx, "nobody"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("an unknown team's settings: %v, want ErrNotFound", err)
	}
	var last time.Time
	for i := 1; i <= 3; i++ {
		st, err := tg.ModifySettings(ctx, "a", func(st *store.TeamSettings) error { st.CooldownDays = i; return nil })
		if err != nil || st.CooldownDays != i || !st.UpdatedAt.After(last) {
			t.Fatalf("change %d: %+v, %v (last version %v)", i, st, err, last)
		}
		last = st.UpdatedAt
	}
	boom := errors.New("refused")
	if _, err := tg.ModifySettings(ctx, "a", func(st *store.TeamSettings) error { st.CooldownDays = 99; return boom }); !errors.Is(err, boom) {
		t.Errorf("a refused change: %v", err)
	}
	if st, _ := tg.Settings(ctx, "a"); st.CooldownDays != 3 || !st.UpdatedAt.Equal(last) {
		t.Errorf("after a refused change: %+v", st)
	}
}

// testPersonAndPrompts: stored attributes, prompts and views, per team; a view uses up the
// person's prompts of its survey, once, even when views race; erasure takes it all.
func testPersonAndPrompts(t *testing.T, s store.Store) {
	tg, ctx := targeter(t, s), t.Context()
	mustTeam(t, s, "a")
	mustTeam(t, s, "b")
	sv1 := mustSurvey(t, s, newSurvey("a", t0))
	sv2 := mustSurvey(t, s, newSurvey("a", t0))
	other := mustSurvey(t, s, newSurvey("b", t0))

	attrs := map[string]any{"plan": "pro", "seats": 12.0, "beta": true}
	if err := tg.SetAttributes(ctx, "a", "ann", attrs); err != nil {
		t.Fatal(err)
	}
	for i, sv := range []store.Survey{sv1, sv2, other} {
		team := []string{"a", "a", "b"}[i]
		for j, who := range []string{"ann", "bob"} {
			p := store.Prompt{ID: ids.New(), TeamID: team, SurveyID: sv.ID, Respondent: who,
				CreatedAt: t0.Add(time.Duration(i)*time.Minute + time.Duration(j)*time.Second)}
			if err := tg.AddPrompt(ctx, p); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := tg.AddPrompt(ctx, store.Prompt{ID: ids.New(), TeamID: "a", SurveyID: other.ID, Respondent: "ann", CreatedAt: t0}); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("a prompt of another team's survey: %v, want ErrNotFound", err)
	}
	view := func(sv store.Survey, who string, typ store.EventType, at time.Time) {
		t.Helper()
		if err := s.RecordEvent(ctx, store.Event{SurveyID: sv.ID, Respondent: who, Type: typ, At: at}); err != nil {
			t.Fatal(err)
		}
	}
	view(sv1, "ann", store.EventView, t0.Add(time.Hour))
	view(sv1, "ann", store.EventDismiss, t0.Add(2*time.Hour))
	view(other, "ann", store.EventView, t0.Add(5*time.Hour))
	var wg sync.WaitGroup // views racing each other use the prompt up once, without error
	for i := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			view(sv1, "ann", store.EventView, t0.Add(3*time.Hour+time.Duration(i)*time.Second))
		}()
	}
	wg.Wait()

	p, err := tg.Person(ctx, "a", "ann", nil)
	if err != nil {
		t.Fatal(err)
	}
	if !gocmp.Equal(p.Attributes, attrs) {
		t.Errorf("attributes %v, want %v", p.Attributes, attrs)
	}
	if len(p.Prompts) != 1 || p.Prompts[0].SurveyID != sv2.ID || p.Prompts[0].Respondent != "ann" {
		t.Errorf("prompts after viewing the first survey: %+v, want the second's only", p.Prompts)
	}
	want := map[string]store.Seen{sv1.ID: {Views: 5, LastViewed: t0.Add(3*time.Hour + 3*time.Second), LastDismissed: t0.Add(2 * time.Hour)}}
	if diff := gocmp.Diff(want, p.Surveys); diff != "" {
		t.Errorf("history (-want +got):\n%s", diff)
	}
	if !p.LastViewed().Equal(t0.Add(3*time.Hour + 3*time.Second)) {
		t.Errorf("last view of any of the team's surveys: %v", p.LastViewed())
	}
	if bob, err := tg.Person(ctx, "a", "bob", nil); err != nil || len(bob.Attributes) != 0 || len(bob.Prompts) != 2 || len(bob.Surveys) != 0 {
		t.Errorf("bob: %+v, %v; want his two prompts only", bob, err)
	}
	if ann, err := tg.Person(ctx, "b", "ann", nil); err != nil || len(ann.Attributes) != 0 || len(ann.Prompts) != 0 || len(ann.Surveys) != 1 {
		t.Errorf("ann in team b: %+v, %v; want her view only (it used up her prompt there)", ann, err)
	}

	listed, err := tg.Prompts(ctx, "a", sv2.ID, 10)
	if err != nil || len(listed) != 2 || listed[0].Respondent != "ann" || listed[1].Respondent != "bob" {
		t.Errorf("prompts of the second survey: %+v, %v", listed, err)
	}
	if err := tg.DeletePrompt(ctx, "b", sv2.ID, listed[1].ID); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("another team deleting a prompt: %v", err)
	}
	if err := tg.DeletePrompt(ctx, "a", sv2.ID, listed[1].ID); err != nil {
		t.Fatal(err)
	}
	if err := tg.DeletePrompt(ctx, "a", sv2.ID, listed[1].ID); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("deleting a prompt twice: %v", err)
	}

	if err := tg.SetAttributes(ctx, "a", "ann", nil); err != nil {
		t.Fatal(err)
	}
	if p, _ := tg.Person(ctx, "a", "ann", nil); len(p.Attributes) != 0 {
		t.Errorf("attributes set to nil: %v", p.Attributes)
	}
	if err := tg.SetAttributes(ctx, "a", "ann", attrs); err != nil {
		t.Fatal(err)
	}
	if _, err := s.EraseRespondent(ctx, "a", "ann"); err != nil {
		t.Fatal(err)
	}
	if p, err := tg.Person(ctx, "a", "ann", nil); err != nil || len(p.Attributes) != 0 || len(p.Prompts) != 0 || len(p.Surveys) != 0 {
		t.Errorf("ann erased from team a: %+v, %v", p, err)
	}
	if ann, _ := tg.Person(ctx, "b", "ann", nil); len(ann.Surveys) != 1 {
		t.Errorf("erasing ann from team a took her history in team b: %+v", ann)
	}
	if bob, _ := tg.Person(ctx, "b", "bob", nil); len(bob.Prompts) != 1 {
		t.Errorf("team b's prompt for bob: %+v", bob)
	}
}

// testResponded: whether a person has a response to a survey; an imported view uses up no
// prompt.
func testResponded(t *testing.T, s store.Store) {
	tg, ctx := targeter(t, s), t.Context()
	mustTeam(t, s, "a")
	sv := mustSurvey(t, s, newSurvey("a", t0))
	if yes, err := tg.Responded(ctx, sv.ID, "ann"); err != nil || yes {
		t.Fatalf("before any response: %v, %v", yes, err)
	}
	put(t, s, store.ResponseWrite{SurveyID: sv.ID, ID: ids.New(), Respondent: "ann", Data: survey.Answers{"nps": survey.Number(9)}, At: t0})
	other := mustSurvey(t, s, newSurvey("a", t0))
	for who, want := range map[string]bool{"ann": true, "bob": false} {
		if yes, err := tg.Responded(ctx, sv.ID, who); err != nil || yes != want {
			t.Errorf("%s responded: %v, %v; want %v", who, yes, err, want)
		}
		p, err := tg.Person(ctx, "a", who, []string{sv.ID, other.ID, "nothere"})
		if err != nil || p.Responded[sv.ID] != want || p.Responded[other.ID] || len(p.Responded) > 1 {
			t.Errorf("%s's responses among three surveys: %v, %v; want %s only: %v", who, p.Responded, err, sv.ID, want)
		}
	}
	p := store.Prompt{ID: ids.New(), TeamID: "a", SurveyID: sv.ID, Respondent: "bob", CreatedAt: t0}
	if err := tg.AddPrompt(ctx, p); err != nil {
		t.Fatal(err)
	}
	if err := s.RecordEvent(ctx, store.Event{SurveyID: sv.ID, Respondent: "bob", Type: store.EventView, At: t0, Imported: true}); err != nil {
		t.Fatal(err)
	}
	if bob, _ := tg.Person(ctx, "a", "bob", nil); len(bob.Prompts) != 1 || bob.Surveys[sv.ID].Views != 1 {
		t.Errorf("after an imported view: %+v; want the prompt kept and the view counted", bob)
	}
}

// testActiveRules: the team's active surveys only, each with its display rules as saved (nil
// for a survey without), its creation and its last change.
func testActiveRules(t *testing.T, s store.Store) {
	tg, ctx := targeter(t, s), t.Context()
	mustTeam(t, s, "a")
	mustTeam(t, s, "b")
	pct := 12.5
	ruled := newSurvey("a", t0)
	ruled.Display = &survey.Display{URLs: []survey.URLRule{{Match: survey.MatchRegex, Value: `^/app/(a|b)/`}},
		Attributes: []survey.AttributeRule{{Key: "plan", Operator: survey.OpIn, Value: []any{"pro", "team"}}},
		Percentage: &pct, Recontact: survey.RecontactOnce, Priority: 2}
	mustSurvey(t, s, ruled)
	plain := mustSurvey(t, s, newSurvey("a", t0.Add(time.Minute)))
	paused := newSurvey("a", t0)
	paused.Display, paused.Status = ruled.Display, store.StatusInactive
	mustSurvey(t, s, paused)
	gone := mustSurvey(t, s, newSurvey("a", t0))
	if _, err := store.ModifySurvey(ctx, s, "a", gone.ID, func(v *store.Survey) error {
		v.Status, v.UpdatedAt = store.StatusDeleted, t0.Add(time.Hour)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	mustSurvey(t, s, newSurvey("b", t0))

	got, err := tg.ActiveRules(ctx, "a")
	if err != nil {
		t.Fatal(err)
	}
	slices.SortFunc(got, func(a, b store.SurveyRules) int { return cmp.Compare(a.ID, b.ID) })
	want := []store.SurveyRules{
		{ID: ruled.ID, CreatedAt: t0, UpdatedAt: t0, Display: ruled.Display},
		{ID: plain.ID, CreatedAt: plain.CreatedAt, UpdatedAt: plain.UpdatedAt},
	}
	slices.SortFunc(want, func(a, b store.SurveyRules) int { return cmp.Compare(a.ID, b.ID) })
	if diff := gocmp.Diff(want, got); diff != "" {
		t.Errorf("team a's active rules (-want +got):\n%s", diff)
	}
	if none, err := tg.ActiveRules(ctx, "nobody"); err != nil || len(none) != 0 {
		t.Errorf("an unknown team's rules: %v, %v", none, err)
	}
}

// testRulesVersion: a Store's version of a team's active surveys changes when one is created
// active, changed, paused, resumed or deleted, and only then: not when nothing changed, nor for
// a change to a survey that is not active, nor for another team's.
func testRulesVersion(t *testing.T, s store.Store) {
	rv := optional[store.RulesVersioner](t, s, "store.RulesVersioner")
	ctx := t.Context()
	mustTeam(t, s, "a")
	mustTeam(t, s, "b")
	version := func() string {
		t.Helper()
		v, err := rv.RulesVersion(ctx, "a")
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	at := t0
	modify := func(id string, fn func(*store.Survey)) {
		t.Helper()
		at = at.Add(time.Second)
		if _, err := store.ModifySurvey(ctx, s, "a", id, func(v *store.Survey) error {
			fn(v)
			v.UpdatedAt = at
			return nil
		}); err != nil {
			t.Fatal(err)
		}
	}
	draft := newSurvey("a", t0)
	draft.Status = store.StatusInactive
	mustSurvey(t, s, draft)
	v := version()
	steps := []struct {
		name    string
		change  func()
		changes bool
	}{
		{"nothing", func() {}, false},
		{"a survey that is not active changed", func() { modify(draft.ID, func(v *store.Survey) { v.Definition.Title = "Later" }) }, false},
		{"another team's survey created", func() { mustSurvey(t, s, newSurvey("b", t0)) }, false},
		{"a survey created active", func() { mustSurvey(t, s, newSurvey("a", t0)) }, true},
		{"the draft made active", func() { modify(draft.ID, func(v *store.Survey) { v.Status = store.StatusActive }) }, true},
		{"its rules changed", func() {
			modify(draft.ID, func(v *store.Survey) { v.Display = &survey.Display{Events: []string{"export"}} })
		}, true},
		{"paused", func() { modify(draft.ID, func(v *store.Survey) { v.Status = store.StatusInactive }) }, true},
		{"resumed", func() { modify(draft.ID, func(v *store.Survey) { v.Status = store.StatusActive }) }, true},
		{"deleted", func() { modify(draft.ID, func(v *store.Survey) { v.Status = store.StatusDeleted }) }, true},
	}
	for _, st := range steps {
		st.change()
		if now := version(); (now != v) != st.changes {
			t.Errorf("%s: version %q after %q; want a change: %v", st.name, now, v, st.changes)
		} else {
			v = now
		}
	}
}
