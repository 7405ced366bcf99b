package console_test

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/svc-feedback/svc/internal/console"
	"github.com/svc-feedback/svc/store"
	"github.com/svc-feedback/svc/survey"
)

// editor drives the console's editor as a browser would: it reads the form of the page it is
// on and posts it back with the changes and the button a person pressed.
type editor struct {
	t    *testing.T
	c    http.Handler
	path string
	form url.Values
	last *httptest.ResponseRecorder
}

func (ed *editor) load() {
	ed.t.Helper()
	r := httptest.NewRequest("GET", ed.path, nil)
	r.Host = "localhost:8080"
	rec := httptest.NewRecorder()
	ed.c.ServeHTTP(rec, r)
	ed.read(rec)
}

// read takes the form's fields from a page: inputs, the selected option, textareas.
func (ed *editor) read(rec *httptest.ResponseRecorder) {
	ed.t.Helper()
	ed.last, ed.form = rec, url.Values{}
	body := rec.Body.String()
	for _, m := range regexp.MustCompile(`<input ([^>]*)>`).FindAllStringSubmatch(body, -1) {
		name, value := attr(m[1], "name"), attr(m[1], "value")
		if name == "" || (strings.Contains(m[1], `type="checkbox"`) && !strings.Contains(m[1], " checked")) {
			continue
		}
		if strings.Contains(m[1], `type="checkbox"`) {
			value = "on"
		}
		ed.form.Set(name, value)
	}
	for _, m := range regexp.MustCompile(`(?s)<select [^>]*name="([^"]+)"[^>]*>(.*?)</select>`).FindAllStringSubmatch(body, -1) {
		if s := regexp.MustCompile(`<option value="([^"]*)" selected>`).FindStringSubmatch(m[2]); s != nil {
			ed.form.Set(m[1], s[1])
		}
	}
	for _, m := range regexp.MustCompile(`(?s)<textarea [^>]*name="([^"]+)"[^>]*>(.*?)</textarea>`).FindAllStringSubmatch(body, -1) {
		ed.form.Set(m[1], unescape(m[2]))
	}
}

func attr(tag, name string) string {
	m := regexp.MustCompile(` ` + name + `="([^"]*)"`).FindStringSubmatch(tag)
	if m == nil {
		return ""
	}
	return unescape(m[1])
}

func unescape(s string) string {
	return strings.NewReplacer("&#34;", `"`, "&quot;", `"`, "&#39;", "'", "&lt;", "<", "&gt;", ">", "&amp;", "&", "&#43;", "+").Replace(s)
}

// setOptions gives the question of prefix p ("q7.") these options, as rows typed into.
func (ed *editor) setOptions(p string, values ...string) {
	n, _ := strconv.Atoi(ed.form.Get(p + "options"))
	for j := range n {
		ed.form.Del(p + "o" + strconv.Itoa(j) + ".value")
		ed.form.Del(p + "o" + strconv.Itoa(j) + ".description")
	}
	ed.form.Set(p+"options", strconv.Itoa(len(values)))
	for j, v := range values {
		ed.form.Set(p+"o"+strconv.Itoa(j)+".value", v)
	}
}

// press posts the form with a button's action, and follows a redirect back to the editor.
func (ed *editor) press(action string) *httptest.ResponseRecorder {
	ed.t.Helper()
	ed.form.Set("action", action)
	rec := send(ed.c, "POST", ed.path, ed.form, map[string]string{"Sec-Fetch-Site": "same-origin"})
	if rec.Code == http.StatusSeeOther {
		ed.load()
		return rec
	}
	ed.read(rec)
	return rec
}

// TestEditor: a survey's title and questions changed, a question added, retyped with options,
// moved (its routing following it) and removed, saved through the survey's validation, whose
// message appears beside its question; a survey changed elsewhere is not overwritten; and a
// question with answers asks first.
func TestEditor(t *testing.T) {
	e := setup(t)
	c := console.NewConsole(e.store, "a", console.Config{Now: e.clock.Now}, []byte("an editor test's key"))
	ed := &editor{t: t, c: c, path: "/surveys/" + e.survA.ID + "/edit"}
	ed.load()
	if ed.form.Get("title") != "How are we doing?" || ed.form.Get("n") != "7" || ed.form.Get("q2.type") != "single-select" {
		t.Fatalf("the editor's form: %v", ed.form)
	}
	stored := func() store.Survey {
		t.Helper()
		sv, err := e.store.Survey(t.Context(), "a", e.survA.ID)
		if err != nil {
			t.Fatal(err)
		}
		return sv
	}

	// Move "missing" (position 3) above "favourite": nps's jump to it follows it.
	ed.press("up:3")
	if ed.form.Get("q2.id") != "missing" {
		t.Fatalf("after Move up, question 3 is %q", ed.form.Get("q2.id"))
	}
	ed.form.Set("title", "How are we doing, really?")
	ed.form.Set("confirmTitle", "Thanks a lot!")
	ed.form.Set("q0.description", "Zero is not at all, ten is certainly.")
	ed.form.Set("q4.placeholder", "Anything at all")
	ed.form.Set("q4.button", "Send")
	ed.form.Del("back") // unticked
	e.clock.Advance(time.Second)
	if rec := ed.press("save"); rec.Code != http.StatusSeeOther {
		t.Fatalf("save: %d %s", rec.Code, ed.last.Body)
	}
	sv := stored()
	comments, _ := sv.Questions[4].Properties.(survey.OpenEndedProperties)
	if d := sv.Questions[0].Description; d == nil || *d != "Zero is not at all, ten is certainly." || comments.Placeholder == nil ||
		*comments.Placeholder != "Anything at all" || comments.ButtonLabel != "Send" {
		t.Errorf("a description, placeholder and button label: %v, %+v", d, comments)
	}
	if sv.Confirmation.Title != "Thanks a lot!" || sv.Confirmation.ButtonText == "" || sv.IsBackNavigationAllowed {
		t.Errorf("the confirmation and back navigation: %+v, back %v", sv.Confirmation, sv.IsBackNavigationAllowed)
	}
	if sv.Title != "How are we doing, really?" || sv.Questions[2].ID != "missing" || sv.Questions[0].RoutingLogic.Cases[0].Target.Position != 2 {
		t.Errorf("saved: %q, question 3 %q, nps jumps to %d", sv.Title, sv.Questions[2].ID, sv.Questions[0].RoutingLogic.Cases[0].Target.Position)
	}

	// Add a question, make it a single choice of two options.
	ed.press("add")
	n, _ := strconv.Atoi(ed.form.Get("n"))
	last := "q" + strconv.Itoa(n-1) + "."
	ed.form.Set(last+"title", "Which plan?")
	ed.form.Set(last+"type", survey.TypeSingleSelect)
	if rec := ed.press("save"); rec.Code != http.StatusSeeOther { // retyped: saved with the type's default options
		t.Fatalf("save a retyped question: %d\n%s", rec.Code, ed.last.Body)
	}
	if ed.form.Get(last+"options") != "2" || ed.form.Get(last+"o0.value") != "Yes" {
		t.Fatalf("the retyped question's options: %v", ed.form)
	}
	ed.setOptions(last, "Free", "Pro")
	e.clock.Advance(time.Second)
	if rec := ed.press("save"); rec.Code != http.StatusSeeOther {
		t.Fatalf("save the new question: %d", rec.Code)
	}
	q := stored().Questions[n-1]
	if p, ok := q.Properties.(survey.SingleSelectProperties); !ok || q.Title != "Which plan?" || len(p.Options) != 2 || p.Options[1].Value != "Pro" {
		t.Errorf("the new question: %+v", q)
	}

	// No options: the survey's own message, beside the question.
	ed.setOptions(last)
	if rec := ed.press("save"); rec.Code != http.StatusUnprocessableEntity ||
		!strings.Contains(rec.Body.String(), `id="q`+strconv.Itoa(n-1)+`-error">questions[`+strconv.Itoa(n-1)+`].properties.options must not be empty`) ||
		!strings.Contains(rec.Body.String(), `role="alert"`) {
		t.Errorf("an invalid question: %d\n%s", rec.Code, rec.Body)
	}

	// The preview shows the form's survey, unsaved, with its own scripts allowed, and nothing
	// inline; an invalid survey gets its message instead.
	ed.setOptions(last, "Free", "Team")
	ed.form.Set("title", "Previewed, not saved")
	rec := ed.press("preview")
	if csp := rec.Header().Get("Content-Security-Policy"); rec.Code != 200 || !strings.Contains(csp, "script-src 'self'") || strings.Contains(csp, "unsafe") ||
		!strings.Contains(rec.Body.String(), `data-survey="{&#34;title&#34;:&#34;Previewed, not saved&#34;`) || !strings.Contains(rec.Body.String(), `&#34;value&#34;:&#34;Team&#34;`) {
		t.Errorf("the preview: %d %q\n%s", rec.Code, csp, rec.Body)
	}
	if stored().Title == "Previewed, not saved" {
		t.Error("the preview saved the survey")
	}
	ed.setOptions(last)
	if rec := ed.press("preview"); rec.Code != http.StatusUnprocessableEntity || strings.Contains(rec.Body.String(), "data-survey") {
		t.Errorf("the preview of an invalid survey: %d", rec.Code)
	}

	// Changed elsewhere meanwhile: not overwritten.
	ed.load()
	e.clock.Advance(time.Second)
	if _, err := store.ModifySurvey(t.Context(), e.store, "a", e.survA.ID, func(sv *store.Survey) error {
		sv.Title, sv.UpdatedAt = "Changed elsewhere", e.clock.Now()
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	ed.form.Set("title", "Mine")
	if rec := ed.press("save"); rec.Code != http.StatusUnprocessableEntity || !strings.Contains(rec.Body.String(), "Someone changed this survey") || stored().Title != "Changed elsewhere" {
		t.Errorf("a stale save: %d, title %q", rec.Code, stored().Title)
	}

	// A question with answers: removing it asks first.
	e.putResponse(e.survA.ID, "reditor0000000000000001", "ann", `{"nps":9}`)
	ed.load()
	ed.press("remove:0")
	if ed.form.Get("q0.id") == "nps" {
		t.Fatal("Remove question left it")
	}
	rec = ed.press("save")
	if rec.Code != http.StatusUnprocessableEntity || !strings.Contains(rec.Body.String(), "has 1 answer and would be removed") || stored().Questions[0].ID != "nps" {
		t.Fatalf("removing an answered question: %d\n%s", rec.Code, rec.Body)
	}
	e.clock.Advance(time.Second)
	if rec := ed.press("save-anyway"); rec.Code != http.StatusSeeOther || stored().Questions[0].ID == "nps" {
		t.Errorf("save anyway: %d, first question %q", rec.Code, stored().Questions[0].ID)
	}
}

// TestEditorRouting: a question's rules read from the survey, a rule added to another question
// and saved as its routing, rules following their questions by id, and a rule removed.
func TestEditorRouting(t *testing.T) {
	e := setup(t)
	c := console.NewConsole(e.store, "a", console.Config{Now: e.clock.Now}, []byte("a routing test's key"))
	ed := &editor{t: t, c: c, path: "/surveys/" + e.survA.ID + "/edit"}
	ed.load()
	// The sample's NPS question: a detractor (less than 7) goes on to "missing".
	if ed.form.Get("q0.rules") == "0" || ed.form.Get("q0.r0.to") != "q:missing" {
		t.Fatalf("the NPS question's rules: %v", ed.form)
	}
	if body := ed.last.Body.String(); !strings.Contains(body, "Rule 1: if the answer…") || !strings.Contains(body, `>Question 4: What would make it better?<`) {
		t.Errorf("the rules do not read as sentences with their targets")
	}
	ed.press("rule:3")
	if ed.form.Get("q3.rules") != "1" {
		t.Fatalf("after Add routing rule: %v", ed.form.Get("q3.rules"))
	}
	ed.form.Set("q3.r0.op", survey.OpContains)
	ed.form.Set("q3.r0.value", "Docs")
	ed.form.Set("q3.r0.to", "q:bug")
	ed.form.Set("q3.next", "end")
	e.clock.Advance(time.Second)
	if rec := ed.press("save"); rec.Code != http.StatusSeeOther {
		t.Fatalf("save: %d\n%s", rec.Code, ed.last.Body)
	}
	sv, _ := e.store.Survey(t.Context(), "a", e.survA.ID)
	r := sv.Questions[3].RoutingLogic
	if r.Type != survey.RoutingSwitch || len(r.Cases) != 1 || r.Cases[0].Operator != survey.OpContains || r.Cases[0].Value.Text != "Docs" ||
		r.Cases[0].Target.Position != 6 || r.Default.Type != survey.TargetEnd {
		t.Fatalf("the saved routing: %+v", r)
	}
	// The bug report moved up above "thanks": the rule still goes to it.
	ed.press("up:6")
	e.clock.Advance(time.Second)
	ed.press("save")
	sv, _ = e.store.Survey(t.Context(), "a", e.survA.ID)
	if got := sv.Questions[3].RoutingLogic.Cases[0].Target.Position; sv.Questions[5].ID != "bug" || got != 5 {
		t.Errorf("after moving the bug report to 6th, the rule goes to position %d", got)
	}
	ed.press("unrule:3.0")
	e.clock.Advance(time.Second)
	ed.press("save")
	sv, _ = e.store.Survey(t.Context(), "a", e.survA.ID)
	if r := sv.Questions[3].RoutingLogic; r.Type != survey.RoutingAlways || r.Target.Type != survey.TargetEnd {
		t.Errorf("after removing the rule: %+v", r)
	}
}

// TestEditorRefusesRulesThatCannotHold: a rule whose value no answer can take ("is at most
// six" on a rating, "is reports" where the option is "Reports") is not saved; the reason
// stands beside the rule, tied to its value's field, and the stored routing is unchanged.
func TestEditorRefusesRulesThatCannotHold(t *testing.T) {
	e := setup(t)
	c := console.NewConsole(e.store, "a", console.Config{Now: e.clock.Now}, []byte("a routing test's key"))
	for _, tt := range []struct {
		question, op, value, want string
	}{
		{"0", survey.OpLessOrEqual, "six", `This rule cannot be saved: its value &#34;six&#34; can never match: a score of this rating is a whole number from 0 to 10`},
		{"0", survey.OpContains, "6", `its operator &#34;contains&#34; cannot hold for a rating question`},
		{"2", survey.OpEqual, "reports", `its value &#34;reports&#34; is not one of the question&#39;s options (&#34;Reports&#34;, &#34;Alerts&#34;, &#34;Exports&#34;): values match exactly, so write &#34;Reports&#34;`},
	} {
		ed := &editor{t: t, c: c, path: "/surveys/" + e.survA.ID + "/edit"}
		ed.load()
		if ed.form.Get("q"+tt.question+".rules") == "0" {
			ed.press("rule:" + tt.question)
		}
		p := "q" + tt.question + ".r0."
		ed.form.Set(p+"op", tt.op)
		ed.form.Set(p+"value", tt.value)
		rec := ed.press("save")
		body := rec.Body.String()
		if rec.Code != http.StatusUnprocessableEntity || !strings.Contains(body, tt.want) {
			t.Errorf("%s %s: %d, want 422 with %q beside the rule\n%s", tt.op, tt.value, rec.Code, tt.want, body)
			continue
		}
		id := "q" + tt.question + "-r0-error"
		if !strings.Contains(body, `<p class="field-error" id="`+id+`">`) || !strings.Contains(body, `aria-invalid="true" aria-describedby="`+id+`"`) {
			t.Errorf("%s %s: the message is not tied to the rule's value", tt.op, tt.value)
		}
		if !strings.Contains(body, "Rule 1 of question "+string(rune(tt.question[0]+1))+" cannot be saved as it is: see beside it.") {
			t.Errorf("%s %s: the form's head does not say which rule", tt.op, tt.value)
		}
	}
	sv, _ := e.store.Survey(t.Context(), "a", e.survA.ID)
	if r := sv.Questions[0].RoutingLogic; len(r.Cases) != 1 || r.Cases[0].Value.Number != 6 {
		t.Errorf("the stored routing changed: %+v", r)
	}
}

// TestEditorDisplayAndWebhook: display rules written as rows and fields, saved as the survey's
// rules and read back as written; a row that is no rule refused beside the rules; the webhook's
// URL and wait saved, a bad URL refused beside it, and a secret rotated and shown once.
func TestEditorDisplayAndWebhook(t *testing.T) {
	e := setup(t)
	c := console.NewConsole(e.store, "a", console.Config{Now: e.clock.Now}, []byte("a display test's key"))
	ed := &editor{t: t, c: c, path: "/surveys/" + e.survA.ID + "/edit"}
	ed.load()
	// The rows as typed (editcontrols_test.go presses their buttons).
	fill := map[string]string{"display": "on",
		"d.pages": "2", "d.p0.op": survey.MatchPrefix, "d.p0.value": "/docs", "d.p1.op": survey.MatchContains, "d.p1.value": "billing",
		"d.exclude": "1", "d.x0.op": survey.MatchExact, "d.x0.value": "/docs/legal",
		"d.attributes": "3", "d.a0.key": "plan", "d.a0.op": survey.OpIn, "d.a0.value": "pro, team",
		"d.a1.key": "seats", "d.a1.op": survey.OpGreater, "d.a1.value": "10", "d.a2.key": "beta", "d.a2.op": survey.OpEqual, "d.a2.value": "true",
		"d.events": "1", "d.e0.value": "upgraded", "d.delay": "5",
		"d.percentage": "50", "d.recontact": survey.RecontactOnce, "d.starts": "2026-12-01T09:00",
		"webhookUrl": "https://hooks.example.com/svc", "webhookWait": "30"}
	for k, v := range fill {
		ed.form.Set(k, v)
	}
	ed.form.Set("d.a0.key", "")
	if rec := ed.press("save"); rec.Code != http.StatusUnprocessableEntity || !strings.Contains(rec.Body.String(), "attribute rule 1 names no attribute") {
		t.Fatalf("a rule that names no attribute: %d", rec.Code)
	}
	ed.form.Set("d.a0.key", fill["d.a0.key"])
	ed.form.Set("webhookUrl", "ftp://hooks.example.com")
	if rec := ed.press("save"); rec.Code != http.StatusUnprocessableEntity || !strings.Contains(rec.Body.String(), `id="webhook-error"`) {
		t.Fatalf("a bad webhook URL: %d", rec.Code)
	}
	if sv, _ := e.store.Survey(t.Context(), "a", e.survA.ID); sv.Display != nil || sv.WebhookURL != "" {
		t.Fatalf("a refused save changed the survey: %+v %q", sv.Display, sv.WebhookURL)
	}
	ed.form.Set("webhookUrl", fill["webhookUrl"])
	e.clock.Advance(time.Second)
	if rec := ed.press("save"); rec.Code != http.StatusSeeOther {
		t.Fatalf("save: %d\n%s", rec.Code, ed.last.Body)
	}
	sv, _ := e.store.Survey(t.Context(), "a", e.survA.ID)
	d := sv.Display
	starts := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	if d == nil || len(d.URLs) != 2 || d.URLs[0] != (survey.URLRule{Match: survey.MatchPrefix, Value: "/docs"}) || d.URLs[1].Match != survey.MatchContains ||
		d.ExcludeURLs[0].Match != survey.MatchExact || len(d.Attributes) != 3 || d.Attributes[0].Operator != survey.OpIn ||
		d.Attributes[1].Value != 10.0 || d.Attributes[2].Value != true || d.Events[0] != "upgraded" || d.DelaySeconds != 5 ||
		*d.Percentage != 50 || d.Recontact != survey.RecontactOnce || !d.StartsAt.Equal(starts) {
		t.Fatalf("the saved display rules: %+v", d)
	}
	if sv.WebhookURL != "https://hooks.example.com/svc" || sv.WebhookWaitSeconds != 30 {
		t.Errorf("the webhook: %q, %d", sv.WebhookURL, sv.WebhookWaitSeconds)
	}
	for k, v := range fill {
		if got := ed.form.Get(k); got != v && k != "display" {
			t.Errorf("read back, %s = %q, want %q", k, got, v)
		}
	}

	ed.form.Set("webhookWait", "45") // typed, not yet saved
	rec := ed.press("rotate-secret")
	sv, _ = e.store.Survey(t.Context(), "a", e.survA.ID)
	if rec.Code != http.StatusOK || sv.WebhookSecret == "" || !strings.Contains(unescape(rec.Body.String()), sv.WebhookSecret) || rec.Header().Get("Cache-Control") != "no-store" {
		t.Fatalf("rotate: %d, secret %q shown: %v", rec.Code, sv.WebhookSecret, strings.Contains(unescape(rec.Body.String()), sv.WebhookSecret))
	}
	if ed.form.Get("webhookWait") != "45" {
		t.Errorf("the rotation lost what was typed: %q", ed.form.Get("webhookWait"))
	}
	e.clock.Advance(time.Second)
	if rec := ed.press("save"); rec.Code != http.StatusSeeOther {
		t.Fatalf("save after rotating: %d", rec.Code)
	}
	if sv2, _ := e.store.Survey(t.Context(), "a", e.survA.ID); sv2.WebhookWaitSeconds != 45 || sv2.WebhookSecret != sv.WebhookSecret {
		t.Errorf("after saving: wait %d, secret kept %v", sv2.WebhookWaitSeconds, sv2.WebhookSecret == sv.WebhookSecret)
	}
	ed.load()
	if strings.Contains(unescape(ed.last.Body.String()), sv.WebhookSecret) {
		t.Error("the secret is shown again")
	}
}

// TestEditorKeepsEverything: a survey saved from the editor unchanged is the survey it was,
// every property of every question type included; and each type's own fields change what they
// show.
func TestEditorKeepsEverything(t *testing.T) {
	e := setup(t)
	c := console.NewConsole(e.store, "a", console.Config{Now: e.clock.Now}, []byte("a round trip test's key"))
	ed := &editor{t: t, c: c, path: "/surveys/" + e.survA.ID + "/edit"}
	ed.load()
	e.clock.Advance(time.Second)
	if rec := ed.press("save"); rec.Code != http.StatusSeeOther {
		t.Fatalf("save: %d\n%s", rec.Code, ed.last.Body)
	}
	sv, _ := e.store.Survey(t.Context(), "a", e.survA.ID)
	if diff := cmp.Diff(e.survA.Definition, sv.Definition); diff != "" {
		t.Fatalf("saved unchanged, the survey changed (-was +now):\n%s", diff)
	}
	set := map[string]string{"q0.display": "emoji", "q0.lower": "Never", "q0.upper": "Surely", "q2.ownLabel": "Something else",
		"q3.maxChoices": "2", "q4.maxLength": "300", "q5.buttonUrl": "https://example.com/changelog", "q6.detailsLabel": "What happened?"}
	for k, v := range set {
		ed.form.Set(k, v)
	}
	ed.form.Del("q3.own")
	ed.form.Del("q6.screenshot")
	ed.form.Set("q6.recording", "on")
	e.clock.Advance(time.Second)
	if rec := ed.press("save"); rec.Code != http.StatusSeeOther {
		t.Fatalf("save: %d\n%s", rec.Code, ed.last.Body)
	}
	sv, _ = e.store.Survey(t.Context(), "a", e.survA.ID)
	nps := sv.Questions[0].Properties.(survey.RatingProperties)
	fav := sv.Questions[2].Properties.(survey.SingleSelectProperties)
	missing := sv.Questions[3].Properties.(survey.MultiSelectProperties)
	comments := sv.Questions[4].Properties.(survey.OpenEndedProperties)
	thanks := sv.Questions[5].Properties.(survey.StatementProperties)
	bug := sv.Questions[6].Properties.(survey.BugReportProperties)
	if *nps.Display != "emoji" || *nps.Labels.Lower != "Never" || fav.Editable.Label != "Something else" || *missing.Max != 2 ||
		comments.Max != 300 || *thanks.ButtonURL != "https://example.com/changelog" || bug.DetailsLabel != "What happened?" ||
		bug.EnableScreenshot || !bug.EnableRecording {
		t.Errorf("the types' own fields: %+v %+v %+v %+v %+v %+v %+v", nps, fav, missing, comments, thanks, bug, sv.Questions[6])
	}
	ed.form.Set("q4.maxLength", "many")
	if rec := ed.press("save"); rec.Code != http.StatusUnprocessableEntity || !strings.Contains(rec.Body.String(), "the longest answer must be a whole number") {
		t.Errorf("a length that is no number: %d", rec.Code)
	}
}
