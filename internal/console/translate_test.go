package console_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/svc-feedback/svc/internal/console"
	"github.com/svc-feedback/svc/store"
	"github.com/svc-feedback/svc/survey"
)

// TestTranslations: a language added from the console, its texts written beside the survey's
// own and saved (an empty field keeps the survey's text), a survey changed elsewhere meanwhile
// not overwritten, and the language removed.
func TestTranslations(t *testing.T) {
	e := setup(t)
	c := console.NewConsole(e.store, "a", console.Config{Now: e.clock.Now}, []byte("a translation test's key"))
	base := "/surveys/" + e.survA.ID
	stored := func() *store.Survey {
		t.Helper()
		sv, err := e.store.Survey(t.Context(), "a", e.survA.ID)
		if err != nil {
			t.Fatal(err)
		}
		return &sv
	}

	list := &editor{t: t, c: c, path: base + "/translations"}
	list.load()
	if list.form.Get("default") != "en" || !strings.Contains(list.last.Body.String(), "no translation yet") {
		t.Fatalf("the translations page: %v\n%s", list.form, list.last.Body)
	}
	list.form.Set("lang", "klingon")
	if rec := list.press(""); rec.Code != http.StatusBadRequest || !strings.Contains(rec.Body.String(), "not a language svc knows") {
		t.Errorf("an unknown language: %d", rec.Code)
	}
	list.load()
	list.form.Set("lang", "DE")
	if rec := list.press(""); rec.Code != http.StatusSeeOther || rec.Header().Get("Location") != "translations/de" {
		t.Fatalf("add a language: %d %q", rec.Code, rec.Header().Get("Location"))
	}
	if l := stored().Languages; l == nil || l.Default != "en" || len(l.Translations) != 1 {
		t.Fatalf("languages after adding de: %+v", l)
	}

	ed := &editor{t: t, c: c, path: base + "/translations/de"}
	ed.load()
	body := ed.last.Body.String()
	for _, want := range []string{`name="q.missing.option.0"`, "Option “Speed”", `lang="de"`, "How likely are you to recommend us to a friend?"} {
		if !strings.Contains(body, want) {
			t.Errorf("the German form lacks %s", want)
		}
	}
	ed.form.Set("title", "Wie machen wir uns?")
	ed.form.Set("q.nps.title", "Würden Sie uns empfehlen?")
	ed.form.Set("q.missing.option.0", "Geschwindigkeit")
	ed.form.Set("confirm.button", "Schließen")
	e.clock.Advance(time.Second)
	if rec := ed.press("save"); rec.Code != http.StatusSeeOther || rec.Header().Get("Location") != "de?saved=1" {
		t.Fatalf("save: %d %q\n%s", rec.Code, rec.Header().Get("Location"), ed.last.Body)
	}
	de := stored().Localize("de")
	nps, _ := de.Question("nps")
	missing, _ := de.Question("missing")
	opts := missing.Properties.(survey.MultiSelectProperties).Options
	if de.Title != "Wie machen wir uns?" || nps.Title != "Würden Sie uns empfehlen?" || *opts[0].Label != "Geschwindigkeit" || opts[0].Value != "Speed" ||
		opts[1].Label != nil || de.Confirmation.ButtonText != "Schließen" || de.Confirmation.Title != e.survA.Confirmation.Title {
		t.Errorf("the German view: %q, %q, options %+v, confirmation %+v", de.Title, nps.Title, opts, de.Confirmation)
	}
	if ed.form.Get("title") != "Wie machen wir uns?" {
		t.Errorf("after saving, the form shows what was saved: %q", ed.form.Get("title"))
	}

	// Someone changes the survey meanwhile: the save is refused, the text typed kept.
	e.clock.Advance(time.Second)
	if _, err := store.ModifySurvey(t.Context(), e.store, "a", e.survA.ID, func(sv *store.Survey) error {
		sv.UpdatedAt = e.clock.Now()
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	ed.form.Set("title", "Wie läuft es?")
	if rec := ed.press("save"); rec.Code != http.StatusConflict || ed.form.Get("title") != "Wie läuft es?" || !strings.Contains(rec.Body.String(), "Someone changed this survey") {
		t.Errorf("a stale save: %d, title %q", rec.Code, ed.form.Get("title"))
	}
	if stored().Localize("de").Title != "Wie machen wir uns?" {
		t.Error("a stale save overwrote the survey")
	}
	if rec := ed.press("save"); rec.Code != http.StatusSeeOther || stored().Localize("de").Title != "Wie läuft es?" {
		t.Errorf("saving again over the survey now read: %d", rec.Code)
	}

	ed.form.Set("action", "remove")
	if rec := ed.press("remove"); rec.Code != http.StatusSeeOther || rec.Header().Get("Location") != "../translations" {
		t.Fatalf("remove: %d %q", rec.Code, rec.Header().Get("Location"))
	}
	if l := stored().Languages; l == nil || len(l.Translations) != 0 {
		t.Errorf("after removing de: %+v", l)
	}
	ed.load()
	if ed.last.Code != http.StatusNotFound {
		t.Errorf("the removed language's form: %d", ed.last.Code)
	}
}
