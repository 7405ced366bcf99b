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
	N                    int // 1-based
	ID, JSON, Title      string
	Description, Button  string
	Placeholder          string // an open-ended question's
	Type                 string
	Required             bool
	Options              string // a select question's option values, one a line
	Scale                int    // a rating's
	Error                string // the save's complaint about this question
	First, Last, Answers bool   // Answers: it has answers stored
	// Rules are its routing rules, Next where the rest go (see routingform.go).
	Rules       []editRule
	Next        string
	NextChoices []choice
}

// questionTypes are the types the form offers, with their names for people.
var questionTypes = []struct{ Value, Label string }{
	{survey.TypeRating, "Rating"}, {survey.TypeSingleSelect, "Single choice"}, {survey.TypeMultiSelect, "Multiple choice"},
	{survey.TypeOpenEnded, "Open text"}, {survey.TypeStatement, "Statement"}, {survey.TypeBugReport, "Bug report"},
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
			Required: f.Get(p+"required") == "on", Options: f.Get(p + "options"), Scale: scale,
			Description: f.Get(p + "description"), Button: f.Get(p + "button"), Placeholder: f.Get(p + "placeholder"),
			Rules: rules, Next: next})
	}
	return out
}

// viewQuestion is a stored question as the form shows it; idAt gives the stored questions'
// ids by position, which its routing's jumps name.
func viewQuestion(q survey.Question, idAt map[int]string) editQuestion {
	b, _ := json.Marshal(q)
	e := editQuestion{ID: q.ID, JSON: string(b), Title: q.Title, Type: q.Type(), Required: q.Required}
	e.Rules, e.Next = rulesOf(q, idAt)
	if q.Description != nil {
		e.Description = *q.Description
	}
	switch p := q.Properties.(type) {
	case survey.SingleSelectProperties:
		e.Options, e.Button = optionLines(p.Options), p.ButtonLabel
	case survey.MultiSelectProperties:
		e.Options, e.Button = optionLines(p.Options), p.ButtonLabel
	case survey.RatingProperties:
		e.Scale, e.Button = p.Scale, p.ButtonLabel
	case survey.OpenEndedProperties:
		e.Button = p.ButtonLabel
		if p.Placeholder != nil {
			e.Placeholder = *p.Placeholder
		}
	case survey.StatementProperties:
		e.Button = p.ButtonLabel
	case survey.BugReportProperties:
		e.Button = p.ButtonLabel
	}
	return e
}

func optionLines(options []survey.Option) string {
	return strings.Join(optionValues(options), "\n")
}

// question is the survey's question the form's fields make, over the JSON the form carries; a
// question whose type changed starts from the new type's defaults.
func (e editQuestion) question() (survey.Question, error) {
	var q survey.Question
	retyped := e.JSON == "" || json.Unmarshal([]byte(e.JSON), &q) != nil || q.Type() != e.Type
	if retyped {
		if !slices.ContainsFunc(questionTypes, func(t struct{ Value, Label string }) bool { return t.Value == e.Type }) {
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
	if retyped {
		return q, nil // the form showed the old type's fields: the new type starts from its defaults
	}
	button := cmp.Or(strings.TrimSpace(e.Button), survey.DefaultButtonLabel)
	switch p := q.Properties.(type) {
	case survey.SingleSelectProperties:
		p.Options, p.ButtonLabel = editedOptions(p.Options, e.Options), button
		q.Properties = p
	case survey.MultiSelectProperties:
		p.Options, p.ButtonLabel = editedOptions(p.Options, e.Options), button
		q.Properties = p
	case survey.RatingProperties:
		if e.Scale != 0 {
			p.Scale = e.Scale
		}
		p.ButtonLabel = button
		q.Properties = p
	case survey.OpenEndedProperties:
		p.ButtonLabel, p.Placeholder = button, nil
		if ph := strings.TrimSpace(e.Placeholder); ph != "" {
			p.Placeholder = &ph
		}
		q.Properties = p
	case survey.StatementProperties:
		p.ButtonLabel = button
		q.Properties = p
	case survey.BugReportProperties:
		p.ButtonLabel = button
		q.Properties = p
	}
	return q, nil
}

// editedOptions are the options the lines name, each keeping the description it had.
func editedOptions(old []survey.Option, lines string) []survey.Option {
	var out []survey.Option
	for line := range strings.Lines(lines) {
		v := strings.TrimSpace(line)
		if v == "" {
			continue
		}
		o := survey.Option{Value: v}
		if i := slices.IndexFunc(old, func(x survey.Option) bool { return x.Value == v }); i >= 0 {
			o.Description = old[i].Description
		}
		out = append(out, o)
	}
	return out
}

// errorAt is the question a validation error names (questions[i]), or -1 for the survey's own.
var errorAt = regexp.MustCompile(`questions\[(\d+)\]`)

func questionOfError(err error) int {
	if m := errorAt.FindStringSubmatch(err.Error()); m != nil {
		i, _ := strconv.Atoi(m[1])
		return i
	}
	return -1
}
