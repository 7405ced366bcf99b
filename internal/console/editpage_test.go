package console_test

import (
	"bytes"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/svc-feedback/svc/survey"
	"github.com/svc-feedback/svc/widget"
)

// TestEditorScript: the editor loads the widget and its own script from the console, by plain
// script elements, under a policy that allows only the console's own scripts, and their posts
// to the console itself; the script is served as JavaScript, and is not among the widget's files
// an app's pages load.
func TestEditorScript(t *testing.T) {
	e := setup(t)
	ed := newEditor(t, e)
	body := ed.last.Body.String()
	if !strings.Contains(body, `<script src="../../widget.js"></script>`) || !strings.Contains(body, `<script src="../../editor.js"></script>`) {
		t.Error("the editor does not load the widget and its script")
	}
	if strings.Contains(body, "<script>") || strings.Contains(body, "style=") || regexp.MustCompile(`(?i) on[a-z]+=`).MatchString(body) {
		t.Error("the editor has inline script or style")
	}
	csp := ed.last.Header().Get("Content-Security-Policy")
	for _, want := range []string{"default-src 'none'", "script-src 'self'", "connect-src 'self'", "style-src 'self'", "frame-ancestors 'self'"} {
		if !strings.Contains(csp, want) {
			t.Errorf("the editor's policy %q lacks %q", csp, want)
		}
	}
	if strings.Contains(csp, "unsafe") {
		t.Errorf("the editor's policy allows something unsafe: %q", csp)
	}

	rec := httptestGet(ed, "/editor.js")
	f, err := widget.EditorScript()
	if err != nil {
		t.Fatal(err)
	}
	if rec.Code != http.StatusOK || rec.Header().Get("Content-Type") != "text/javascript; charset=utf-8" || rec.Header().Get("X-Content-Type-Options") != "nosniff" {
		t.Errorf("editor.js: %d, %v", rec.Code, rec.Header())
	}
	if !bytes.Equal(rec.Body.Bytes(), f.Content) || len(f.Content) < 1000 || rec.Header().Get("ETag") != f.ETag {
		t.Errorf("editor.js: %d bytes, not the built script's %d", rec.Body.Len(), len(f.Content))
	}
	// Classic script, nothing it would need to evaluate strings as code for.
	if js := rec.Body.String(); strings.Contains(js, "eval(") || strings.Contains(js, "new Function") || strings.Contains(js, "import ") {
		t.Error("editor.js evaluates code or is a module")
	}
	files, err := widget.Files()
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := files[widget.Editor]; ok {
		t.Error("the widget's files, served to apps' pages, hold the console's editor")
	}
}

// TestEditorAnswerCounts: each question of the form says how many answers it has stored, for
// the script to ask before removing or retyping it; a question added in the form has none.
func TestEditorAnswerCounts(t *testing.T) {
	e := setup(t)
	for i, who := range []string{"ann", "bob", "cy"} {
		e.putResponse(e.survA.ID, "ranswers00000000000000"+string(rune('1'+i)), who, `{"nps":9}`)
	}
	e.putResponse(e.survA.ID, "ranswers000000000000009", "dee", `{"nps":3,"comments":"slow"}`)
	ed := newEditor(t, e)
	counts := func() map[string]string {
		out := map[string]string{}
		for _, m := range regexp.MustCompile(`<fieldset class="question-edit" id="(q\d+)" data-answers="(\d+)">`).FindAllStringSubmatch(ed.last.Body.String(), -1) {
			out[m[1]] = m[2]
		}
		return out
	}
	got := counts()
	if len(got) != 7 || got["q0"] != "4" || got["q1"] != "0" {
		t.Fatalf("the answers beside the questions: %v", got)
	}
	comments := ""
	for i := range 7 {
		if ed.form.Get("q"+string(rune('0'+i))+".id") == "comments" {
			comments = "q" + string(rune('0'+i))
		}
	}
	if got[comments] != "1" {
		t.Errorf("comments has %q answers, want 1 (%v)", got[comments], got)
	}
	ed.press("up:1") // the counts follow their questions
	if got := counts(); got["q1"] != "4" || got["q0"] != "0" {
		t.Errorf("moved: %v", got)
	}
	ed.press("add")
	if got := counts(); len(got) != 8 || got["q7"] != "0" {
		t.Errorf("added: %v", got)
	}
}

// TestEditorPreviewAndUnsaved: the preview is beside the form from the start, without pressing
// Preview; a form posted back the same as the survey stored is not marked unsaved, one changed
// in it is (the script asks before leaving it).
func TestEditorPreviewAndUnsaved(t *testing.T) {
	e := setup(t)
	ed := newEditor(t, e)
	body := ed.last.Body.String()
	if !strings.Contains(body, `<div id="preview" data-survey="{&#34;title&#34;:&#34;How are we doing?&#34;`) {
		t.Errorf("no preview on opening the editor:\n%s", body)
	}
	if strings.Contains(body, "data-unsaved") {
		t.Error("the survey as stored is marked unsaved")
	}
	ed.press("preview")
	if strings.Contains(ed.last.Body.String(), "data-unsaved") {
		t.Error("the form posted back as stored is marked unsaved")
	}
	ed.press("opt-add:2") // an empty row: the survey is the same
	if strings.Contains(ed.last.Body.String(), "data-unsaved") {
		t.Error("an empty option row is marked unsaved")
	}
	ed.press("remove:1")
	if !strings.Contains(ed.last.Body.String(), `data-unsaved="true"`) {
		t.Error("a question removed is not marked unsaved")
	}
	ed.load()
	ed.setOptions("q2.")
	ed.press("d-add:events") // a survey that cannot be saved: the preview says how to see why
	if b := ed.last.Body.String(); strings.Contains(b, "data-survey") || !strings.Contains(b, "The preview shows the survey once it can be saved") {
		t.Errorf("the preview of a survey that cannot be saved:\n%s", b)
	}
}

// TestEditorRetypeKeepsOptions: a single choice made a multiple choice, and back, as the script
// posts a type change (no button), keeps the options as typed.
func TestEditorRetypeKeepsOptions(t *testing.T) {
	e := setup(t)
	ed := newEditor(t, e)
	if ed.form.Get("q2.type") != survey.TypeSingleSelect {
		t.Fatalf("question 3 is a %s", ed.form.Get("q2.type"))
	}
	ed.setOptions("q2.", "Reports", "Exports", "Alerts")
	for _, typ := range []string{survey.TypeMultiSelect, survey.TypeSingleSelect} {
		ed.form.Set("q2.type", typ)
		if rec := ed.press(""); rec.Code != http.StatusOK {
			t.Fatalf("retyped to %s: %d", typ, rec.Code)
		}
		if ed.form.Get("q2.type") != typ || ed.form.Get("q2.shown") != typ || ed.form.Get("q2.options") != "3" || ed.form.Get("q2.o1.value") != "Exports" {
			t.Errorf("retyped to %s: %s, shown %s, options %s: %q", typ, ed.form.Get("q2.type"), ed.form.Get("q2.shown"), ed.form.Get("q2.options"), ed.form.Get("q2.o1.value"))
		}
	}
	ed.form.Set("q2.type", survey.TypeRating) // no options there: the rating's scale instead
	ed.press("")
	if ed.form.Get("q2.options") != "" || ed.form.Get("q2.scale") == "" {
		t.Errorf("made a rating: options %q, scale %q", ed.form.Get("q2.options"), ed.form.Get("q2.scale"))
	}
}

// TestEditorAskedOnce: a question with answers removed after the page's dialog asked (the form
// then carries its id in asked) is saved without asking again; another one still asks, with its
// count.
func TestEditorAskedOnce(t *testing.T) {
	e := setup(t)
	e.putResponse(e.survA.ID, "raskedonce000000000001", "ann", `{"nps":9,"comments":"fine"}`)
	ed := newEditor(t, e)
	ed.press("remove:0") // nps
	ed.form.Set("asked", "nps")
	if rec := ed.press("remove:3"); rec.Code != http.StatusOK || ed.form.Get("asked") != "nps" { // comments, not asked; asked kept across pages
		t.Fatalf("remove: %d, asked %q", rec.Code, ed.form.Get("asked"))
	}
	rec := ed.press("save")
	body := rec.Body.String()
	if rec.Code != http.StatusUnprocessableEntity || !strings.Contains(body, "“Anything else you would like to tell us?” has 1 answer and would be removed.") ||
		strings.Contains(body, "would like to recommend") || strings.Contains(body, "“How likely") {
		t.Fatalf("save: %d, want only the question not asked about\n%s", rec.Code, body)
	}
	e.clock.Advance(time.Second)
	if rec := ed.press("save-anyway"); rec.Code != http.StatusSeeOther {
		t.Fatalf("save anyway: %d", rec.Code)
	}
	if n := len(e.stored().Questions); n != 5 {
		t.Errorf("%d questions stored, want 5", n)
	}
}
