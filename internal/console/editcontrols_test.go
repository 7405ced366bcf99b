package console_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/svc-feedback/svc/internal/console"
	"github.com/svc-feedback/svc/store"
	"github.com/svc-feedback/svc/survey"
)

// The editor's structured controls: options as rows, a rule's Operator and Value offering what
// its question allows, display rules as rows, and times in a zone. Each button works without
// script, and the page comes back with the focus where the person was.

// autofocused is the one control the page focuses: its id, or a button's action.
func autofocused(body string) string {
	ms := regexp.MustCompile(`<(?:input|select|textarea|button)\b([^>]*)\sautofocus[^>]*>`).FindAllStringSubmatch(body, -1)
	if len(ms) != 1 {
		return fmt.Sprintf("%d controls autofocused", len(ms))
	}
	if id := attr(ms[0][1], "id"); id != "" {
		return id
	}
	return attr(ms[0][1], "value")
}

// choicesIn are the labels of the options of the select named name, and the selected value.
func choicesIn(body, name string) (labels []string, selected string) {
	m := regexp.MustCompile(`(?s)<select [^>]*name="` + regexp.QuoteMeta(name) + `"[^>]*>(.*?)</select>`).FindStringSubmatch(body)
	if m == nil {
		return nil, "no such select"
	}
	for _, o := range regexp.MustCompile(`<option value="([^"]*)"( selected)?>([^<]*)</option>`).FindAllStringSubmatch(m[1], -1) {
		labels = append(labels, unescape(o[3]))
		if o[2] != "" {
			selected = unescape(o[1])
		}
	}
	return labels, selected
}

func newEditor(t *testing.T, e *env) *editor {
	c := console.NewConsole(e.store, "a", console.Config{Now: e.clock.Now}, []byte("a controls test's key"))
	ed := &editor{t: t, c: c, path: "/surveys/" + e.survA.ID + "/edit"}
	ed.load()
	return ed
}

func (e *env) stored() store.Survey {
	e.t.Helper()
	sv, err := e.store.Survey(e.t.Context(), "a", e.survA.ID)
	if err != nil {
		e.t.Fatal(err)
	}
	return sv
}

// TestEditorOptionRows: a select's options are rows, each with its Option and description,
// added, moved and removed by buttons that keep the focus on the row, saved in their order.
func TestEditorOptionRows(t *testing.T) {
	e := setup(t)
	ed := newEditor(t, e)
	body := ed.last.Body.String()
	// "Which feature do you use most?" (question 3): Reports, Alerts (with a description), Exports.
	if ed.form.Get("q2.options") != "3" || ed.form.Get("q2.o1.value") != "Alerts" || ed.form.Get("q2.o1.description") != "E-mail and Slack alerts" {
		t.Fatalf("the option rows: %v", ed.form)
	}
	for _, want := range []string{`<fieldset class="row" id="q2-o0">`, `<legend>Option 1</legend>`, `<label for="q2-o0-value">Option</label>`,
		`<label for="q2-o0-description">Option description</label>`, `value="opt-down:2.0">Move option down</button>`,
		`value="opt-up:2.2">Move option up</button>`, `value="opt-remove:2.1">Remove option</button>`, `value="opt-add:2">Add option</button>`} {
		if !strings.Contains(body, want) {
			t.Errorf("the rows have no %s", want)
		}
	}
	if strings.Contains(body, `value="opt-up:2.0"`) || strings.Contains(body, `value="opt-down:2.2"`) || strings.Contains(body, "autofocus") {
		t.Error("the first row moves up, the last down, or a control is focused on a page just opened")
	}

	// Add option: a fourth row, its Option focused.
	ed.press("opt-add:2")
	if ed.form.Get("q2.options") != "4" || autofocused(ed.last.Body.String()) != "q2-o3-value" {
		t.Fatalf("after Add option: %s rows, focus on %s", ed.form.Get("q2.options"), autofocused(ed.last.Body.String()))
	}
	ed.form.Set("q2.o3.value", "Dashboards")
	ed.form.Set("q2.o3.description", "Charts of your own")
	// Moved up twice, the focus stays on its Move option up; at the top, on its Move option down.
	for _, tt := range []struct{ action, focus string }{{"opt-up:2.3", "opt-up:2.2"}, {"opt-up:2.2", "opt-up:2.1"}, {"opt-up:2.1", "opt-down:2.0"},
		{"opt-down:2.0", "opt-down:2.1"}} {
		ed.press(tt.action)
		if got := autofocused(ed.last.Body.String()); got != tt.focus {
			t.Errorf("after %s the focus is on %s, want %s", tt.action, got, tt.focus)
		}
	}
	values := func() []string {
		var out []string
		for j := range 4 {
			if v := ed.form.Get(fmt.Sprintf("q2.o%d.value", j)); v != "" {
				out = append(out, v)
			}
		}
		return out
	}
	if got := values(); !slices.Equal(got, []string{"Reports", "Dashboards", "Alerts", "Exports"}) || ed.form.Get("q2.o1.description") != "Charts of your own" {
		t.Fatalf("after the moves: %v, %q", got, ed.form.Get("q2.o1.description"))
	}
	if p := e.stored().Questions[2].Properties.(survey.SingleSelectProperties); len(p.Options) != 3 {
		t.Fatal("a button of the rows saved the survey")
	}

	// Remove option: the row that takes its place is focused, or the one before it at the end.
	ed.press("opt-remove:2.3")
	if body := ed.last.Body.String(); autofocused(body) != "q2-o2-value" || !strings.Contains(body, "Option 4 (“Exports”) of question 3 removed: save to keep the change.") {
		t.Errorf("after removing the last row: focus on %s", autofocused(body))
	}
	ed.press("opt-remove:2.0")
	if autofocused(ed.last.Body.String()) != "q2-o0-value" || ed.form.Get("q2.o0.value") != "Dashboards" {
		t.Errorf("after removing the first row: focus on %s, first %q", autofocused(ed.last.Body.String()), ed.form.Get("q2.o0.value"))
	}
	e.clock.Advance(time.Second)
	if rec := ed.press("save"); rec.Code != http.StatusSeeOther {
		t.Fatalf("save: %d\n%s", rec.Code, ed.last.Body)
	}
	desc := "Charts of your own"
	alerts := "E-mail and Slack alerts"
	p := e.stored().Questions[2].Properties.(survey.SingleSelectProperties)
	if diff := cmp.Diff([]survey.Option{{Value: "Dashboards", Description: &desc}, {Value: "Alerts", Description: &alerts}}, p.Options); diff != "" {
		t.Errorf("the saved options (-want +got):\n%s", diff)
	}

	// The last row removed: Add option is focused.
	ed.press("opt-remove:2.1")
	ed.press("opt-remove:2.0")
	if ed.form.Get("q2.options") != "0" || autofocused(ed.last.Body.String()) != "opt-add:2" {
		t.Errorf("no rows left: %s rows, focus on %s", ed.form.Get("q2.options"), autofocused(ed.last.Body.String()))
	}
	// A button of another question's rows, or of a row not there, changes nothing.
	ed.press("opt-remove:9.0")
	ed.press("opt-up:3.0")
	if ed.form.Get("q3.options") != "4" || ed.form.Get("q3.o0.value") != "Speed" {
		t.Errorf("a button of no row changed the rows: %v", ed.form)
	}
}

// TestEditorRuleChoices: a rule's Operator offers only what its question's type allows, its
// Value the options or the scale's scores (text for an answer in words); a statement takes no
// rule; and a rule whose question changed (its type, its scale) loses what no longer holds,
// with a notice beside it.
func TestEditorRuleChoices(t *testing.T) {
	e := setup(t)
	ed := newEditor(t, e)
	for i := range 7 {
		if ed.form.Get(fmt.Sprintf("q%d.rules", i)) == "0" && i != 5 {
			ed.press(fmt.Sprintf("rule:%d", i))
			if got := autofocused(ed.last.Body.String()); got != fmt.Sprintf("q%d-r0-op", i) {
				t.Errorf("question %d: after Add routing rule the focus is on %s", i+1, got)
			}
		}
	}
	body := ed.last.Body.String()
	choose := []string{"Choose…"}
	scores := func(from, to int) []string {
		out := slices.Clone(choose)
		for n := from; n <= to; n++ {
			out = append(out, fmt.Sprint(n))
		}
		return out
	}
	for _, tt := range []struct {
		q        int
		ops      []string
		values   []string // nil: a textbox
		selected string
	}{
		{0, []string{"is", "is not", "is more than", "is at least", "is less than", "is at most"}, scores(0, 10)[1:], "6"}, // the sample's nps rule: at most 6
		{1, []string{"is", "is not", "is more than", "is at least", "is less than", "is at most"}, scores(1, 5), ""},
		{2, []string{"is", "is not"}, append(slices.Clone(choose), "Reports", "Alerts", "Exports"), ""},
		{3, []string{"contains", "does not contain"}, append(slices.Clone(choose), "Speed", "Price", "Integrations", "Docs"), ""},
		{4, []string{"contains", "does not contain", "is", "is not"}, nil, ""},
		{6, []string{"contains", "does not contain", "is", "is not"}, nil, ""},
	} {
		p := fmt.Sprintf("q%d.r0.", tt.q)
		if ops, _ := choicesIn(body, p+"op"); !slices.Equal(ops, tt.ops) {
			t.Errorf("question %d's Operator offers %q, want %q", tt.q+1, ops, tt.ops)
		}
		if !strings.Contains(body, fmt.Sprintf(`<label for="q%d-r0-op">Operator</label>`, tt.q)) || !strings.Contains(body, fmt.Sprintf(`<label for="q%d-r0-value">Value</label>`, tt.q)) {
			t.Errorf("question %d's rule: no Operator or Value label", tt.q+1)
		}
		values, selected := choicesIn(body, p+"value")
		if tt.values == nil {
			if values != nil || !strings.Contains(body, fmt.Sprintf(`<input id="q%d-r0-value" name="%svalue"`, tt.q, p)) {
				t.Errorf("question %d's Value is not a textbox: %q", tt.q+1, values)
			}
			continue
		}
		if !slices.Equal(values, tt.values) || selected != tt.selected {
			t.Errorf("question %d's Value offers %q, %q selected; want %q, %q", tt.q+1, values, selected, tt.values, tt.selected)
		}
	}
	if strings.Contains(body, `value="rule:5"`) {
		t.Error("a statement offers Add routing rule")
	}

	// A single choice made a multiple choice: its options stay, its rule's "is" goes, its value
	// stays; a rating's scale shortened: a score past it goes; both said beside the rule.
	ed.form.Set("q2.r0.op", survey.OpEqual)
	ed.form.Set("q2.r0.value", "Alerts")
	ed.form.Set("q2.r0.to", "q:comments")
	ed.form.Set("q2.type", survey.TypeMultiSelect)
	ed.form.Set("q1.r0.value", "5")
	ed.form.Set("q1.scale", "3")
	ed.press("rule:6") // any button shows the form again
	body = ed.last.Body.String()
	if ops, selected := choicesIn(body, "q2.r0.op"); !slices.Equal(ops, []string{"Choose…", "contains", "does not contain"}) || selected != "" {
		t.Errorf("the retyped question's Operator: %q, %q selected", ops, selected)
	}
	if _, selected := choicesIn(body, "q2.r0.value"); selected != "Alerts" || ed.form.Get("q2.options") != "3" {
		t.Errorf("the retyped question's value %q, %s options", selected, ed.form.Get("q2.options"))
	}
	if !strings.Contains(body, `<p class="notice" id="q2-r0-notice">“is” does not apply to this type of question: choose an operator.</p>`) {
		t.Errorf("no notice beside the retyped question's rule")
	}
	if values, selected := choicesIn(body, "q1.r0.value"); !slices.Equal(values, scores(1, 3)) || selected != "" ||
		!strings.Contains(body, `<p class="notice" id="q1-r0-notice">“5” is not among this question&#39;s scores now: choose a value.</p>`) {
		t.Errorf("the shortened scale's rule: %q, %q selected", values, selected)
	}
	// Saved as it is, the rules with nothing chosen are refused beside them.
	if rec := ed.press("save"); rec.Code != http.StatusUnprocessableEntity || !strings.Contains(rec.Body.String(), `id="q1-r0-error"`) {
		t.Fatalf("a rule with no value saved: %d", rec.Code)
	}
	ed.form.Set("q1.r0.value", "3")
	ed.form.Set("q2.r0.op", survey.OpContains)
	ed.press("unrule:3.0")
	ed.press("unrule:6.1") // the second, added above
	if autofocused(ed.last.Body.String()) != "q6-r0-op" {
		t.Errorf("after removing the last of two rules the focus is on %s", autofocused(ed.last.Body.String()))
	}
	ed.press("unrule:6.0")
	if autofocused(ed.last.Body.String()) != "rule:6" {
		t.Errorf("after removing the last rule the focus is on %s", autofocused(ed.last.Body.String()))
	}
	e.clock.Advance(time.Second)
	if rec := ed.press("save"); rec.Code != http.StatusSeeOther {
		t.Fatalf("save: %d\n%s", rec.Code, ed.last.Body)
	}
	sv := e.stored()
	fav := sv.Questions[2]
	if p, ok := fav.Properties.(survey.MultiSelectProperties); !ok || len(p.Options) != 3 || len(fav.RoutingLogic.Cases) != 1 ||
		fav.RoutingLogic.Cases[0].Operator != survey.OpContains || fav.RoutingLogic.Cases[0].Value.Text != "Alerts" || fav.RoutingLogic.Cases[0].Target.Position != 4 {
		t.Errorf("the retyped question: %+v", fav)
	}
	if c := sv.Questions[1].RoutingLogic.Cases; len(c) != 1 || !c[0].Value.IsNumber || c[0].Value.Number != 3 {
		t.Errorf("the rating's rule: %+v", c)
	}

	// Made a statement: its rules go, said so, and it offers none.
	ed.form.Set("q2.type", survey.TypeStatement)
	ed.press("rule:2")
	body = ed.last.Body.String()
	if ed.form.Get("q2.rules") != "0" || strings.Contains(body, `value="rule:2"`) ||
		!strings.Contains(body, "A statement takes no answer, so its routing rule was removed: save to keep the change.") {
		t.Errorf("a statement's rules: %s rules", ed.form.Get("q2.rules"))
	}
}

// TestEditorDisplayRows: each kind of display rule is a row added and removed by buttons that
// keep the focus, saved as the survey's display rules and read back as rows; a stored value's
// type is kept; a row left empty is refused beside the rules.
func TestEditorDisplayRows(t *testing.T) {
	e := setup(t)
	ed := newEditor(t, e)
	body := ed.last.Body.String()
	for _, want := range []string{`value="d-add:pages">Add page rule</button>`, `value="d-add:exclude">Add excluded page rule</button>`,
		`value="d-add:attributes">Add attribute rule</button>`, `value="d-add:events">Add event</button>`} {
		if !strings.Contains(body, want) {
			t.Errorf("no %s", want)
		}
	}
	type row struct {
		add, focus string
		fields     map[string]string
	}
	for _, r := range []row{
		{"pages", "d-p0-match", map[string]string{"d.p0.op": survey.MatchPrefix, "d.p0.value": "/docs"}},
		{"pages", "d-p1-match", map[string]string{"d.p1.op": survey.MatchRegex, "d.p1.value": `^/billing/\d+$`}},
		{"exclude", "d-x0-match", map[string]string{"d.x0.op": survey.MatchExact, "d.x0.value": "/docs/legal"}},
		{"attributes", "d-a0-key", map[string]string{"d.a0.key": "plan", "d.a0.op": survey.OpNotIn, "d.a0.value": "free, trial"}},
		{"attributes", "d-a1-key", map[string]string{"d.a1.key": "seats", "d.a1.op": survey.OpLess, "d.a1.value": "10"}},
		{"attributes", "d-a2-key", map[string]string{"d.a2.key": "beta", "d.a2.op": survey.OpExists}},
		{"attributes", "d-a3-key", map[string]string{"d.a3.key": "company", "d.a3.op": survey.OpContains, "d.a3.value": "Acme"}},
		{"events", "d-e0-value", map[string]string{"d.e0.value": "signed-up"}},
		{"events", "d-e1-value", map[string]string{"d.e1.value": "upgraded"}},
	} {
		ed.press("d-add:" + r.add)
		if got := autofocused(ed.last.Body.String()); got != r.focus {
			t.Errorf("after Add %s the focus is on %s, want %s", r.add, got, r.focus)
		}
		for k, v := range r.fields {
			ed.form.Set(k, v)
		}
	}
	body = ed.last.Body.String()
	for _, want := range []string{`<legend>Page rule 2</legend>`, `<label for="d-p1-match">Match</label>`, `<label for="d-p1-page">Page</label>`,
		`<legend>Excluded page rule 1</legend>`, `<legend>Attribute rule 4</legend>`, `<label for="d-a0-key">Attribute</label>`,
		`<label for="d-a0-op">Operator</label>`, `<label for="d-a0-value">Value</label>`, `<legend>Event 2</legend>`, `<label for="d-e1-value">Event</label>`,
		`value="d-remove:pages.1">Remove</button>`, `value="d-remove:events.1">Remove</button>`} {
		if !strings.Contains(body, want) {
			t.Errorf("the rows have no %s", want)
		}
	}
	if labels, _ := choicesIn(body, "d.p0.op"); !slices.Equal(labels, []string{"starts with", "is", "contains", "matches the regular expression"}) {
		t.Errorf("Match offers %q", labels)
	}
	if labels, _ := choicesIn(body, "d.a0.op"); len(labels) != 9 || labels[0] != "is" || labels[5] != "is one of" || labels[8] != "is not set" {
		t.Errorf("an attribute rule's Operator offers %q", labels)
	}
	// Removed: the row in its place is focused, or the Add button once none is left.
	ed.press("d-remove:events.0")
	if body := ed.last.Body.String(); autofocused(body) != "d-e0-value" || ed.form.Get("d.e0.value") != "upgraded" || !strings.Contains(body, "Event 1 removed: save to keep the change.") {
		t.Errorf("after removing an event: focus on %s, %v", autofocused(body), ed.form)
	}
	ed.press("d-add:events")
	ed.press("d-remove:events.1")
	ed.press("d-remove:events.0")
	if ed.form.Get("d.events") != "0" || autofocused(ed.last.Body.String()) != "d-add:events" {
		t.Errorf("no event left: %s rows, focus on %s", ed.form.Get("d.events"), autofocused(ed.last.Body.String()))
	}
	ed.press("d-add:events")
	ed.form.Set("d.e0.value", "upgraded")

	// A page rule left empty is refused beside the rules.
	ed.form.Set("display", "on")
	ed.press("d-add:exclude")
	if rec := ed.press("save"); rec.Code != http.StatusUnprocessableEntity || !strings.Contains(rec.Body.String(), "excluded page rule 2 has no page") {
		t.Fatalf("an empty row: %d", rec.Code)
	}
	ed.press("d-remove:exclude.1")
	e.clock.Advance(time.Second)
	if rec := ed.press("save"); rec.Code != http.StatusSeeOther {
		t.Fatalf("save: %d\n%s", rec.Code, ed.last.Body)
	}
	want := &survey.Display{
		URLs:        []survey.URLRule{{Match: survey.MatchPrefix, Value: "/docs"}, {Match: survey.MatchRegex, Value: `^/billing/\d+$`}},
		ExcludeURLs: []survey.URLRule{{Match: survey.MatchExact, Value: "/docs/legal"}},
		Attributes: []survey.AttributeRule{{Key: "plan", Operator: survey.OpNotIn, Value: []any{"free", "trial"}},
			{Key: "seats", Operator: survey.OpLess, Value: 10.0}, {Key: "beta", Operator: survey.OpExists},
			{Key: "company", Operator: survey.OpContains, Value: "Acme"}},
		Events: []string{"upgraded"}, Recontact: survey.RecontactUntilResponded,
	}
	if diff := cmp.Diff(want, e.stored().Display); diff != "" {
		t.Fatalf("the saved display rules (-want +got):\n%s", diff)
	}
	if ed.form.Get("d.pages") != "2" || ed.form.Get("d.p1.op") != survey.MatchRegex || ed.form.Get("d.a0.value") != "free, trial" || ed.form.Get("d.a1.op") != survey.OpLess {
		t.Errorf("read back: %v", ed.form)
	}

	// A value stored as text that reads as a number ("10") stays text, while unchanged.
	if _, err := store.ModifySurvey(t.Context(), e.store, "a", e.survA.ID, func(sv *store.Survey) error {
		sv.Display.Attributes[1] = survey.AttributeRule{Key: "seats", Operator: survey.OpEqual, Value: "10"}
		sv.UpdatedAt = e.clock.Now()
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	ed.load()
	e.clock.Advance(time.Second)
	if rec := ed.press("save"); rec.Code != http.StatusSeeOther {
		t.Fatalf("save: %d", rec.Code)
	}
	if got := e.stored().Display.Attributes[1].Value; got != "10" {
		t.Errorf("an unchanged text value became %#v", got)
	}
	ed.form.Set("d.a1.value", "12")
	e.clock.Advance(time.Second)
	ed.press("save")
	if got := e.stored().Display.Attributes[1].Value; got != 12.0 {
		t.Errorf("a changed value is %#v", got)
	}
}

// TestEditorTimes: the times are shown in UTC until the editor's script gives the browser's
// zone's offset, and are stored in UTC; the script is the console's own, allowed by the page's
// policy, which still allows nothing inline.
func TestEditorTimes(t *testing.T) {
	e := setup(t)
	ed := newEditor(t, e)
	rec := ed.last
	body := rec.Body.String()
	if csp := rec.Header().Get("Content-Security-Policy"); !strings.Contains(csp, "script-src 'self'") || strings.Contains(csp, "unsafe") || !strings.Contains(csp, "default-src 'none'") {
		t.Errorf("the editor's policy: %q", csp)
	}
	if !strings.Contains(body, `<script src="../../editor.js"></script>`) || strings.Contains(body, "<script>") || strings.Contains(body, "style=") {
		t.Error("the editor does not load its script, or has inline script or style")
	}
	if !strings.Contains(body, `<span class="zone" id="d-starts-zone">UTC</span>`) || ed.form.Get("d.startsOffset") != "0" {
		t.Errorf("the times' zone as served: %q", ed.form.Get("d.startsOffset"))
	}
	r := httptestGet(ed, "/editor.js")
	if r.Code != 200 || !strings.HasPrefix(r.Header().Get("Content-Type"), "text/javascript") || !strings.Contains(r.Body.String(), "getTimezoneOffset") {
		t.Errorf("editor.js: %d %q", r.Code, r.Header().Get("Content-Type"))
	}

	// Paris in winter (UTC+01:00), as the script says: 10:00 there is 09:00 UTC.
	ed.form.Set("display", "on")
	ed.form.Set("d.starts", "2026-12-01T10:00")
	ed.form.Set("d.startsOffset", "60")
	ed.form.Set("d.ends", "2027-01-01T00:00")
	ed.form.Set("d.endsOffset", "-300") // New York
	ed.press("d-add:events")            // shown again as typed, in the zone typed
	if ed.form.Get("d.starts") != "2026-12-01T10:00" || !strings.Contains(ed.last.Body.String(), `id="d-starts-zone">UTC&#43;01:00</span>`) ||
		!strings.Contains(ed.last.Body.String(), `id="d-ends-zone">UTC−05:00</span>`) {
		t.Errorf("shown again: %q\n%s", ed.form.Get("d.starts"), ed.last.Body)
	}
	ed.press("d-remove:events.0")
	e.clock.Advance(time.Second)
	if rec := ed.press("save"); rec.Code != http.StatusSeeOther {
		t.Fatalf("save: %d\n%s", rec.Code, ed.last.Body)
	}
	d := e.stored().Display
	if !d.StartsAt.Equal(time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)) || !d.EndsAt.Equal(time.Date(2027, 1, 1, 5, 0, 0, 0, time.UTC)) {
		t.Errorf("stored: %v to %v", d.StartsAt, d.EndsAt)
	}
	if ed.form.Get("d.starts") != "2026-12-01T09:00" || ed.form.Get("d.startsOffset") != "0" {
		t.Errorf("read back: %q at offset %q", ed.form.Get("d.starts"), ed.form.Get("d.startsOffset"))
	}
	ed.form.Set("d.startsOffset", "100000")
	if rec := ed.press("save"); rec.Code != http.StatusUnprocessableEntity || !strings.Contains(rec.Body.String(), "the time zone of From") {
		t.Errorf("an offset off the Earth: %d", rec.Code)
	}
}

func httptestGet(ed *editor, path string) *httptest.ResponseRecorder {
	r := httptest.NewRequest("GET", path, nil)
	r.Host = "localhost:8080"
	rec := httptest.NewRecorder()
	ed.c.ServeHTTP(rec, r)
	return rec
}
