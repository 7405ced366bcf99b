package console

import (
	"cmp"
	"encoding/json"
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/svc-feedback/svc/survey"
)

// The editor's form, and the definition it stands for. The form carries its whole state, so a
// question added, moved or removed is kept across the pages until Save: each question's id,
// its JSON as it was (what the form does not show: labels, routing, descriptions), and the
// fields the form shows over it.

// editQuestion is a question as the form shows it.
type editQuestion struct {
	N                   int // 1-based
	ID, JSON, Title     string
	Description, Button string
	Placeholder         string // an open-ended question's
	Type                string
	Required            bool
	Options             []editOption // a select question's options, a row each
	Scale               int          // a rating's
	Error               string       // the save's complaint about this question
	First, Last         bool
	// Answers is how many answers are stored for it, for the page's script to ask before
	// removing it or changing its type.
	Answers int
	// Rules are its routing rules, Next where the rest go (see routingform.go).
	Rules       []editRule
	Next        string
	NextChoices []choice
	// The properties of its type beyond those above, as typed.
	Display, Lower, Upper     string // a rating's
	Own                       bool   // a select's: people may write their own answer
	OwnLabel, MaxChoices      string // its label; a multi-select's most choices
	MaxLength                 string // an open-ended answer's longest
	ButtonURL                 string // a statement's link
	Screenshot, Recording     bool   // a bug report's
	DetailsLabel, DetailsHint string
	Redact                    string // a bug report's classes masked, space-separated
	AutoProgress              bool   // a rating's or single choice's: moves on once chosen
	OwnMax                    string // the longest own answer
	Displays                  []choice
	// Shown is the type whose fields the form showed: a type chosen since shows the new type's
	// fields, filled with its defaults, and saves them once they are shown (see retype).
	Shown string
	// Notice says what the form changed by itself, such as rules dropped from a statement;
	// FocusAddOption and FocusAddRule put the focus on the Add buttons once no row is left.
	Notice                       string
	FocusAddOption, FocusAddRule bool
}

// editOption is a select question's option as a row of the form. Focus names the control of
// the row that the page focuses when it comes back from a button of the rows ("value", "up",
// "down"): without script, the browser keeps the person's place by the autofocus attribute.
type editOption struct {
	N                  int // 1-based
	Value, Description string
	First, Last        bool
	Focus              string
}

// ratingDisplays are the ways a rating is shown, with their names for people.
var ratingDisplays = []struct{ Value, Label string }{
	{"number", "Numbers"}, {"star", "Stars"}, {survey.DisplayNPS, "Net Promoter Score, 0 to 10"}, {"emoji", "Faces"},
	{survey.DisplayCES, "Customer effort, 1 to 7"}, {survey.DisplayThumbs, "Thumbs up or down (scale 2)"},
}

// questionTypes are the types the form offers, with their names for people.
var questionTypes = []struct{ Value, Label string }{
	{survey.TypeRating, "Rating"}, {survey.TypeSingleSelect, "Single choice"}, {survey.TypeMultiSelect, "Multiple choice"},
	{survey.TypeOpenEnded, "Open text"}, {survey.TypeStatement, "Statement"}, {survey.TypeBugReport, "Bug report"},
	{survey.TypeMatrix, "Matrix"}, {survey.TypeRanking, "Ranking"}, {survey.TypeDate, "Date"},
	{survey.TypeConsent, "Consent"}, {survey.TypeCTA, "Call to action"}, {survey.TypeContact, "Contact details"},
}

// MoreType reports whether the question is of a type whose own settings (a matrix's rows and
// columns, a ranking's options, a date's bounds, a consent's label, a call to action's link, a
// contact's fields) the form does not show yet: they are kept as stored, or as the type's
// defaults for a new question, and changed through the management API.
func (e editQuestion) MoreType() bool {
	switch e.Type {
	case survey.TypeMatrix, survey.TypeRanking, survey.TypeDate, survey.TypeConsent, survey.TypeCTA, survey.TypeContact:
		return true
	}
	return false
}

// newQuestionJSON is a new question of a type, with the defaults a person would leave out.
func newQuestionJSON(id, typ string) string {
	props := map[string]string{
		survey.TypeRating:       `{"type":"rating","scale":5,"display":"star"}`,
		survey.TypeSingleSelect: `{"type":"single-select","options":[{"value":"Yes"},{"value":"No"}]}`,
		survey.TypeMultiSelect:  `{"type":"multi-select","options":[{"value":"First"},{"value":"Second"}]}`,
		survey.TypeOpenEnded:    `{"type":"open-ended"}`,
		survey.TypeStatement:    `{"type":"statement"}`,
		survey.TypeBugReport:    `{"type":"bug-report","enableScreenshot":true,"enableRecording":false}`,
		survey.TypeMatrix:       `{"type":"matrix","rows":[{"value":"First"},{"value":"Second"}],"columns":[{"value":"No"},{"value":"Yes"}]}`,
		survey.TypeRanking:      `{"type":"ranking","options":[{"value":"First"},{"value":"Second"}]}`,
		survey.TypeDate:         `{"type":"date"}`,
		survey.TypeConsent:      `{"type":"consent","label":"I agree"}`,
		survey.TypeCTA:          `{"type":"cta","buttonLabel":"Learn more"}`,
		survey.TypeContact:      `{"type":"contact","fields":[{"id":"email","required":true}]}`,
	}[typ]
	members := map[string]json.RawMessage{"questions": json.RawMessage(`[{"id":` + strconv.Quote(id) + `,"title":"","properties":` + props + `}]`)}
	_ = survey.FillDefaults(members)
	var qs []json.RawMessage
	_ = json.Unmarshal(members["questions"], &qs)
	return string(qs[0])
}

// formQuestions reads the form's questions.
func formQuestions(f url.Values) []editQuestion {
	n, _ := strconv.Atoi(f.Get("n"))
	n = min(max(n, 0), survey.MaxQuestions+1)
	out := make([]editQuestion, 0, n)
	for i := range n {
		p := fmt.Sprintf("q%d.", i)
		scale, _ := strconv.Atoi(f.Get(p + "scale"))
		rules, next := formRules(f, i)
		out = append(out, editQuestion{ID: f.Get(p + "id"), JSON: f.Get(p + "json"), Title: f.Get(p + "title"), Type: f.Get(p + "type"),
			Required: f.Get(p+"required") == "on", Options: formOptions(f, p), Scale: scale, Shown: f.Get(p + "shown"),
			Description: f.Get(p + "description"), Button: f.Get(p + "button"), Placeholder: f.Get(p + "placeholder"),
			Rules: rules, Next: next, Display: f.Get(p + "display"), Lower: f.Get(p + "lower"), Upper: f.Get(p + "upper"),
			Own: f.Get(p+"own") == "on", OwnLabel: f.Get(p + "ownLabel"), MaxChoices: f.Get(p + "maxChoices"), MaxLength: f.Get(p + "maxLength"),
			ButtonURL: f.Get(p + "buttonUrl"), Screenshot: f.Get(p+"screenshot") == "on", Recording: f.Get(p+"recording") == "on",
			DetailsLabel: f.Get(p + "detailsLabel"), DetailsHint: f.Get(p + "detailsHint"), Redact: f.Get(p + "redact"),
			AutoProgress: f.Get(p+"auto") == "on", OwnMax: f.Get(p + "ownMax")})
		out[len(out)-1].retype()
	}
	return out
}

// formOptions reads a question's option rows (p is its fields' prefix, "q0.").
func formOptions(f url.Values, p string) []editOption {
	n, _ := strconv.Atoi(f.Get(p + "options"))
	n = min(max(n, 0), survey.MaxOptions+1)
	out := make([]editOption, n)
	for j := range n {
		rp := fmt.Sprintf("%so%d.", p, j)
		out[j] = editOption{Value: f.Get(rp + "value"), Description: f.Get(rp + "description")}
	}
	return numberOptions(out)
}

// numberOptions numbers the rows, and says which is first and last.
func numberOptions(opts []editOption) []editOption {
	for j := range opts {
		opts[j].N, opts[j].First, opts[j].Last = j+1, j == 0, j == len(opts)-1
	}
	return opts
}

// retype gives a question whose type was chosen since the form was shown that type's fields:
// its stored ones when it is its stored type again, else the type's defaults (a select's
// options stay as typed when it becomes the other kind of select). Its title, description,
// button and routing stay as typed; the routing's rules are fitted to the type where the form
// shows them (routingChoices).
func (e *editQuestion) retype() {
	if e.Shown == "" || e.Shown == e.Type || !knownType(e.Type) {
		return
	}
	var q survey.Question
	if json.Unmarshal([]byte(e.JSON), &q) != nil || q.Type() != e.Type {
		if json.Unmarshal([]byte(newQuestionJSON(e.ID, e.Type)), &q) != nil {
			return
		}
	}
	v := viewQuestion(q, nil)
	if !isSelect(e.Shown) || !isSelect(e.Type) { // from one choice to several, or back, the options stay as typed
		e.Options, e.Own, e.OwnLabel, e.OwnMax = v.Options, v.Own, v.OwnLabel, v.OwnMax
	}
	e.Scale, e.Display, e.Lower, e.Upper, e.MaxChoices, e.MaxLength = v.Scale, v.Display, v.Lower, v.Upper, v.MaxChoices, v.MaxLength
	e.Placeholder, e.ButtonURL, e.Screenshot, e.Recording = v.Placeholder, v.ButtonURL, v.Screenshot, v.Recording
	e.DetailsLabel, e.DetailsHint, e.Redact, e.AutoProgress = v.DetailsLabel, v.DetailsHint, v.Redact, v.AutoProgress
	e.Shown = e.Type // the fields are the new type's now: a save takes them
}

func isSelect(t string) bool { return t == survey.TypeSingleSelect || t == survey.TypeMultiSelect }

func knownType(t string) bool {
	return slices.ContainsFunc(questionTypes, func(c struct{ Value, Label string }) bool { return c.Value == t })
}

// optionAction applies a button of a question's option rows: "opt-add:Q", "opt-remove:Q.I",
// "opt-up:Q.I" or "opt-down:Q.I", and marks where the focus goes back to: the new row, the
// row moved, or the row now in the place of the one removed. Nothing is saved until Save.
func optionAction(qs []editQuestion, action, arg string) (notice string) {
	q, row, _ := strings.Cut(arg, ".")
	qi, err := strconv.Atoi(q)
	if err != nil || qi < 0 || qi >= len(qs) {
		return ""
	}
	e := &qs[qi]
	if action == "opt-add" {
		if len(e.Options) >= survey.MaxOptions {
			return fmt.Sprintf("Question %d has the most options a question may have, %d.", qi+1, survey.MaxOptions)
		}
		e.Options = numberOptions(append(e.Options, editOption{Focus: "value"}))
		return ""
	}
	j, err := strconv.Atoi(row)
	if err != nil || j < 0 || j >= len(e.Options) {
		return ""
	}
	switch action {
	case "opt-remove":
		removed := e.Options[j]
		e.Options = numberOptions(slices.Delete(e.Options, j, j+1))
		if len(e.Options) == 0 {
			e.FocusAddOption = true
		} else {
			e.Options[min(j, len(e.Options)-1)].Focus = "value"
		}
		return fmt.Sprintf("Option %d (“%s”) of question %d removed: save to keep the change.", j+1, strings.TrimSpace(removed.Value), qi+1)
	case "opt-up", "opt-down":
		to := j - 1
		if action == "opt-down" {
			to = j + 1
		}
		if to < 0 || to >= len(e.Options) {
			return ""
		}
		e.Options[j], e.Options[to] = e.Options[to], e.Options[j]
		e.Options = numberOptions(e.Options)
		// The same button again, to move it further, while there is one.
		moved := &e.Options[to]
		switch {
		case action == "opt-up" && !moved.First, action == "opt-down" && moved.Last:
			moved.Focus = "up"
		default:
			moved.Focus = "down"
		}
	}
	return ""
}

// viewQuestion is a stored question as the form shows it; idAt gives the stored questions'
// ids by position, which its routing's jumps name.
func viewQuestion(q survey.Question, idAt map[int]string) editQuestion {
	b, _ := json.Marshal(q)
	e := editQuestion{ID: q.ID, JSON: string(b), Title: q.Title, Type: q.Type(), Required: q.Required,
		Description: deref(q.Description), Button: buttonOf(&q)}
	e.Rules, e.Next = rulesOf(q, idAt)
	switch p := q.Properties.(type) {
	case survey.SingleSelectProperties:
		e.Options, e.AutoProgress = optionRows(p.Options), p.ShouldAutoProgress
		e.Own, e.OwnLabel, e.OwnMax = ownAnswer(p.Editable)
	case survey.MultiSelectProperties:
		e.Options = optionRows(p.Options)
		e.Own, e.OwnLabel, e.OwnMax = ownAnswer(p.Editable)
		if p.Max != nil {
			e.MaxChoices = strconv.Itoa(*p.Max)
		}
	case survey.RatingProperties:
		e.Scale, e.Display, e.AutoProgress = p.Scale, deref(p.Display), p.ShouldAutoProgress
		if p.Labels != nil {
			e.Lower, e.Upper = deref(p.Labels.Lower), deref(p.Labels.Upper)
		}
	case survey.OpenEndedProperties:
		e.Placeholder, e.MaxLength = deref(p.Placeholder), strconv.Itoa(p.Max)
	case survey.StatementProperties:
		e.ButtonURL = deref(p.ButtonURL)
	case survey.BugReportProperties:
		e.Placeholder, e.Screenshot, e.Recording = deref(p.Placeholder), p.EnableScreenshot, p.EnableRecording
		e.DetailsLabel, e.DetailsHint, e.Redact = p.DetailsLabel, deref(p.DetailsPlaceholder), strings.Join(p.RedactClasses, " ")
	}
	return e
}

func ownAnswer(e *survey.Editable) (bool, string, string) {
	if e == nil {
		return false, "", ""
	}
	return true, e.Label, strconv.Itoa(e.Max)
}

func optionRows(options []survey.Option) []editOption {
	rows := make([]editOption, len(options))
	for i, o := range options {
		rows[i] = editOption{Value: o.Value, Description: deref(o.Description)}
	}
	return numberOptions(rows)
}

// question is the survey's question the form's fields make, over the JSON the form carries; a
// question whose type changed starts from the new type's defaults, and takes the form's fields
// once the form has shown the new type's (Shown).
func (e editQuestion) question() (survey.Question, error) {
	var q survey.Question
	retyped := e.JSON == "" || json.Unmarshal([]byte(e.JSON), &q) != nil || q.Type() != e.Type
	fieldsOf := cmp.Or(e.Shown, q.Type()) // the type whose fields the form showed
	if retyped {
		if !knownType(e.Type) {
			return survey.Question{}, fmt.Errorf("question %d has no type this editor knows", e.N)
		}
		pos := q.Position
		routing := q.RoutingLogic
		if err := json.Unmarshal([]byte(newQuestionJSON(e.ID, e.Type)), &q); err != nil {
			return survey.Question{}, err
		}
		q.Position, q.RoutingLogic = pos, routing
	}
	q.ID, q.Title, q.Required, q.Description = e.ID, e.Title, e.Required, nil
	if d := strings.TrimSpace(e.Description); d != "" {
		q.Description = &d
	}
	if fieldsOf != e.Type {
		return q, nil // the form showed another type's fields: the new type starts from its defaults
	}
	button := cmp.Or(strings.TrimSpace(e.Button), survey.DefaultButtonLabel)
	var err error
	switch p := q.Properties.(type) {
	case survey.SingleSelectProperties:
		p.Options, p.ButtonLabel, p.ShouldAutoProgress = editedOptions(e.Options), button, e.AutoProgress
		if p.Editable, err = e.editable(p.Editable); err != nil {
			return survey.Question{}, err
		}
		q.Properties = p
	case survey.MultiSelectProperties:
		p.Options, p.ButtonLabel = editedOptions(e.Options), button
		if p.Editable, err = e.editable(p.Editable); err != nil {
			return survey.Question{}, err
		}
		p.Max = nil
		if n, err := whole(e.MaxChoices, "the most choices", e.N); err != nil {
			return survey.Question{}, err
		} else if n > 0 {
			p.Max = &n
		}
		q.Properties = p
	case survey.RatingProperties:
		if e.Scale != 0 {
			p.Scale = e.Scale
		}
		p.ButtonLabel, p.Display, p.Labels, p.ShouldAutoProgress = button, optional(e.Display), nil, e.AutoProgress
		if lower, upper := optional(e.Lower), optional(e.Upper); lower != nil || upper != nil {
			p.Labels = &survey.RatingLabels{Lower: lower, Upper: upper}
		}
		q.Properties = p
	case survey.OpenEndedProperties:
		p.ButtonLabel, p.Placeholder = button, optional(e.Placeholder)
		if n, err := whole(e.MaxLength, "the longest answer", e.N); err != nil {
			return survey.Question{}, err
		} else if n > 0 {
			p.Max = n
		}
		q.Properties = p
	case survey.StatementProperties:
		p.ButtonLabel, p.ButtonURL = button, optional(e.ButtonURL)
		q.Properties = p
	case survey.BugReportProperties:
		p.ButtonLabel, p.Placeholder, p.EnableScreenshot, p.EnableRecording = button, optional(e.Placeholder), e.Screenshot, e.Recording
		p.DetailsLabel, p.DetailsPlaceholder = cmp.Or(strings.TrimSpace(e.DetailsLabel), p.DetailsLabel), optional(e.DetailsHint)
		p.RedactClasses = strings.Fields(e.Redact)
		q.Properties = p
	}
	return q, nil
}

// editable is a select's own-answer setting the form gives, keeping the stored one's
// description.
func (e editQuestion) editable(old *survey.Editable) (*survey.Editable, error) {
	if !e.Own {
		return nil, nil
	}
	ed := survey.Editable{Label: "Other", Max: 200}
	if old != nil {
		ed = *old
	}
	ed.Label = cmp.Or(strings.TrimSpace(e.OwnLabel), ed.Label)
	n, err := whole(e.OwnMax, "the longest own answer", e.N)
	if n > 0 {
		ed.Max = n
	}
	return &ed, err
}

// optional is a text field's value, nil when left empty.
func optional(s string) *string {
	if s = strings.TrimSpace(s); s == "" {
		return nil
	}
	return &s
}

// whole reads a field of whole numbers; empty is 0. Its error names question n, so that the
// form shows it beside it.
func whole(s, what string, n int) (int, error) {
	if s = strings.TrimSpace(s); s == "" {
		return 0, nil
	}
	v, err := strconv.Atoi(s)
	if err != nil || v < 0 {
		return 0, fmt.Errorf("%w: questions[%d]: %s must be a whole number", survey.ErrInvalidDefinition, n-1, what)
	}
	return v, nil
}

// editedOptions are the options the rows give; a row left empty is none, and one with a
// description but no value is kept, for the survey's validation to say so.
func editedOptions(rows []editOption) []survey.Option {
	var out []survey.Option
	for _, r := range rows {
		v := strings.TrimSpace(r.Value)
		if v == "" && strings.TrimSpace(r.Description) == "" {
			continue
		}
		out = append(out, survey.Option{Value: v, Description: optional(r.Description)})
	}
	return out
}

// rowValues are the values of the rows' options, each once, as the rules' Value offers them.
func rowValues(rows []editOption) []string {
	var out []string
	for _, r := range rows {
		if v := strings.TrimSpace(r.Value); v != "" && !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	return out
}

// errorAt is the question a validation error names (questions[i]), or -1 for the survey's own.
var errorAt = regexp.MustCompile(`questions\[(\d+)\]`)

// ruleAt finds the routing case a definition's error names, and what it says of it.
var ruleAt = regexp.MustCompile(`^questions\[(\d+)\]\.routingLogic\.cases\[(\d+)\]\.?:? ?(.*)$`)

// ruleOfError returns the question's and the rule's index that a definition's error message
// names, and the message without its path; -1 when it names no rule.
func ruleOfError(msg string) (question, rule int, rest string) {
	m := ruleAt.FindStringSubmatch(msg)
	if m == nil {
		return -1, -1, ""
	}
	question, _ = strconv.Atoi(m[1])
	rule, _ = strconv.Atoi(m[2])
	return question, rule, m[3]
}

func questionOfError(err error) int {
	if m := errorAt.FindStringSubmatch(err.Error()); m != nil {
		i, _ := strconv.Atoi(m[1])
		return i
	}
	return -1
}

// choicesOf are a select's options for list, the one whose value is selected chosen (the
// first, when selected is empty: the default the form shows for a setting not made).
func choicesOf(list []struct{ Value, Label string }, selected string) []choice {
	out := make([]choice, len(list))
	for i, c := range list {
		out[i] = choice{c.Value, c.Label, c.Value == selected || selected == "" && i == 0}
	}
	return out
}
