package console_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/svc-feedback/svc/store"
	"github.com/svc-feedback/svc/survey"
)

// TestEditorMergesConcurrentEdits: a save made on a version changed meanwhile (another tab, the
// store, a Pause in the list) is merged field by field with that change; only a field changed on
// both sides is refused, and the form then keeps the person's value, shows the other beside it,
// and saves the person's value when saved again.
func TestEditorMergesConcurrentEdits(t *testing.T) {
	e := setup(t)
	c := lcConsole(e)
	path := "/surveys/" + e.survA.ID + "/edit"
	open := func() *editor {
		ed := &editor{t: t, c: c, path: path}
		ed.load()
		return ed
	}
	stored := func() store.Survey { return lcStored(t, e, e.survA.ID) }

	// Two tabs, different questions: both kept, the second merged.
	one, two := open(), open()
	one.form.Set("q0.title", "How likely, from one?")
	e.clock.Advance(time.Second)
	if rec := one.press("save"); rec.Code != http.StatusSeeOther {
		t.Fatalf("the first tab's save: %d\n%s", rec.Code, one.last.Body)
	}
	two.form.Set("q2.title", "Which feature, from two?")
	e.clock.Advance(time.Second)
	rec := lcPressOnly(two, "save")
	if rec.Code != http.StatusSeeOther || rec.Header().Get("Location") != "edit?saved=merged" {
		t.Fatalf("the second tab's save: %d %q\n%s", rec.Code, rec.Header().Get("Location"), rec.Body)
	}
	if sv := stored(); sv.Questions[0].Title != "How likely, from one?" || sv.Questions[2].Title != "Which feature, from two?" {
		t.Fatalf("merged: %q, %q", sv.Questions[0].Title, sv.Questions[2].Title)
	}
	if page := lcGet(t, c, path+"?saved=merged").Body.String(); !strings.Contains(page, "Saved, with the changes made meanwhile by someone else kept.") {
		t.Error("the notice after a merged save")
	}
	if sv := stored(); len(sv.Questions) != 7 || sv.Questions[0].RoutingLogic.Cases[0].Target.Position != 3 {
		t.Errorf("the routing after merging: %+v", sv.Questions[0].RoutingLogic)
	}

	// The same field on both sides: refused, the person's value kept, the other beside it.
	one, two = open(), open()
	one.form.Set("title", "Their title")
	one.form.Set("q1.title", "Their stars")
	e.clock.Advance(time.Second)
	one.press("save")
	two.form.Set("title", "My title")
	two.form.Set("q4.title", "My comments")
	e.clock.Advance(time.Second)
	rec = two.press("save")
	body := rec.Body.String()
	if rec.Code != http.StatusUnprocessableEntity || !strings.Contains(body, "Someone changed this survey since you opened it, and changed some of the fields you changed too") ||
		!strings.Contains(body, "maxlength=\"1000\"></p>\n<p class=\"meanwhile\">Changed meanwhile to: “Their title”</p>") {
		t.Fatalf("a conflict: %d\n%s", rec.Code, body)
	}
	if two.form.Get("title") != "My title" || two.form.Get("q4.title") != "My comments" || two.form.Get("q1.title") != "Their stars" {
		t.Errorf("the form after a conflict: %q %q %q", two.form.Get("title"), two.form.Get("q4.title"), two.form.Get("q1.title"))
	}
	if sv := stored(); sv.Title != "Their title" || sv.Questions[4].Title == "My comments" {
		t.Errorf("a conflict saved: %q", sv.Title)
	}
	e.clock.Advance(time.Second)
	if rec := two.press("save"); rec.Code != http.StatusSeeOther {
		t.Fatalf("saved again: %d\n%s", rec.Code, two.last.Body)
	}
	if sv := stored(); sv.Title != "My title" || sv.Questions[4].Title != "My comments" || sv.Questions[1].Title != "Their stars" {
		t.Errorf("saved again: %q %q %q", sv.Title, sv.Questions[4].Title, sv.Questions[1].Title)
	}

	// A Pause in the list while the editor is open: the edits are saved, the survey stays paused.
	ed := open()
	ed.form.Set("description", "Written while it was paused")
	token := ed.form.Get("csrf")
	e.clock.Advance(time.Second)
	list := &editor{t: t, c: c, path: "/surveys/" + e.survA.ID + "/status", form: url.Values{"csrf": {token}, "status": {"inactive"}}}
	if rec := lcPressOnly(list, ""); rec.Code != http.StatusSeeOther || stored().Status != store.StatusInactive {
		t.Fatalf("the list's Pause: %d", rec.Code)
	}
	e.clock.Advance(time.Second)
	if rec := ed.press("save"); rec.Code != http.StatusSeeOther {
		t.Fatalf("a save after the list's Pause: %d\n%s", rec.Code, ed.last.Body)
	}
	if sv := stored(); sv.Status != store.StatusInactive || sv.Description == nil || *sv.Description != "Written while it was paused" {
		t.Errorf("after the pause and the save: %s %v", sv.Status, sv.Description)
	}

	// Questions: one added and an option added elsewhere, one moved and retitled here; routing
	// follows the questions by id.
	ed = open()
	e.clock.Advance(time.Second)
	if _, err := store.ModifySurvey(t.Context(), e.store, "a", e.survA.ID, func(sv *store.Survey) error {
		p := sv.Questions[2].Properties.(survey.SingleSelectProperties)
		p.Options = append(p.Options, survey.Option{Value: "Billing"})
		sv.Questions[2].Properties = p
		q := sv.Questions[4]
		q.ID, q.Title = "extra", "Added elsewhere"
		sv.Questions = append(sv.Questions[:1], append([]survey.Question{q}, sv.Questions[1:]...)...)
		for i := range sv.Questions {
			sv.Questions[i].Position = i
		}
		sv.Questions[0].RoutingLogic.Cases[0].Target.Position = 4 // still "missing"
		sv.UpdatedAt = e.clock.Now()
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	ed.press("up:3") // "missing" above "favourite"
	ed.form.Set("q2.title", "Missing, moved here")
	e.clock.Advance(time.Second)
	if rec := ed.press("save"); rec.Code != http.StatusSeeOther {
		t.Fatalf("a save merging questions: %d\n%s", rec.Code, ed.last.Body)
	}
	sv := stored()
	var ids []string
	for _, q := range sv.Questions {
		ids = append(ids, q.ID)
	}
	fav, _ := sv.Question("favourite")
	if strings.Join(ids, " ") != "nps extra stars missing favourite comments thanks bug" || sv.Questions[3].Title != "Missing, moved here" ||
		len(fav.Properties.(survey.SingleSelectProperties).Options) != 4 || sv.Questions[0].RoutingLogic.Cases[0].Target.Position != 3 {
		t.Errorf("merged questions: %v, %q, nps jumps to %d", ids, sv.Questions[3].Title, sv.Questions[0].RoutingLogic.Cases[0].Target.Position)
	}

	// A question removed elsewhere and changed here: refused, with the question kept here.
	ed = open()
	e.clock.Advance(time.Second)
	if _, err := store.ModifySurvey(t.Context(), e.store, "a", e.survA.ID, func(sv *store.Survey) error {
		sv.Questions = append(sv.Questions[:1], sv.Questions[2:]...) // "extra"
		for i := range sv.Questions {
			sv.Questions[i].Position = i
		}
		sv.Questions[0].RoutingLogic.Cases[0].Target.Position = 2
		sv.UpdatedAt = e.clock.Now()
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	ed.form.Set("q1.title", "Extra, changed here")
	if rec := ed.press("save"); rec.Code != http.StatusUnprocessableEntity || !strings.Contains(rec.Body.String(), "This question: Changed meanwhile to: (removed)") ||
		ed.form.Get("q1.title") != "Extra, changed here" {
		t.Errorf("a question removed elsewhere and changed here: %d\n%s", rec.Code, rec.Body)
	}

	// A form without its base (from before merging): a stale save is refused, as it was.
	ed = open()
	ed.form.Del("base")
	e.clock.Advance(time.Second)
	store.ModifySurvey(t.Context(), e.store, "a", e.survA.ID, func(sv *store.Survey) error { sv.UpdatedAt = e.clock.Now(); return nil })
	if rec := ed.press("save"); rec.Code != http.StatusUnprocessableEntity || !strings.Contains(rec.Body.String(), "saving would overwrite their change") {
		t.Errorf("a stale save without a base: %d", rec.Code)
	}
}
