package console

import (
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/svc-feedback/svc/survey"
)

// Routing in the editor: each question's rules read as sentences
// ("if the answer is less than 7, go to question 4"), then where everyone else goes. The form
// names the questions rules go to by id, so a rule follows its question when questions move;
// positions are worked out on save.

// editRule is one routing rule as the form shows it: an operator, a value and where to go
// ("next", "end" or "q:" and a question's id). Its Operator offers only what the question's
// type allows (survey.Operators), and its Value is a choice of the options or of the scale's
// scores, or text for a question answered in words (FreeValue).
type editRule struct {
	N              int // 1-based
	Op, Value, To  string
	Error          string // the save's complaint about this rule
	Notice         string // what the form changed in it by itself, such as a value no longer offered
	Targets        []choice
	OpChoices      []choice
	ValueChoices   []choice
	FreeValue      bool
	Focus          bool // the page comes back with the focus on its Operator
	QuestionN, Idx int
}

type choice struct {
	Value, Label string
	Selected     bool
}

// operators are the routing operators, as the form reads them after "if the answer".
var operators = []struct{ Value, Label string }{
	{survey.OpEqual, "is"}, {survey.OpNotEqual, "is not"}, {survey.OpGreater, "is more than"},
	{survey.OpGreaterOrEqual, "is at least"}, {survey.OpLess, "is less than"}, {survey.OpLessOrEqual, "is at most"},
	{survey.OpContains, "contains"}, {survey.OpNotContains, "does not contain"},
}

// maxRules bounds the rules the form reads of a question.
const maxRules = 50

// rulesOf is a stored question's routing as the form shows it.
func rulesOf(q survey.Question, idAt map[int]string) ([]editRule, string) {
	name := func(t survey.Target) string {
		switch t.Type {
		case survey.TargetEnd:
			return "end"
		case survey.TargetJump:
			if id, ok := idAt[t.Position]; ok {
				return "q:" + id
			}
		}
		return "next"
	}
	r := q.RoutingLogic
	if r.Type != survey.RoutingSwitch {
		return nil, name(r.Target)
	}
	rules := make([]editRule, 0, len(r.Cases))
	for _, c := range r.Cases {
		v := c.Value.Text
		if c.Value.IsNumber {
			v = strconv.FormatFloat(c.Value.Number, 'f', -1, 64)
		}
		rules = append(rules, editRule{Op: c.Operator, Value: v, To: name(c.Target)})
	}
	return rules, name(r.Default)
}

// formRules reads question i's rules, and where the rest go.
func formRules(f url.Values, i int) ([]editRule, string) {
	p := fmt.Sprintf("q%d.", i)
	n, _ := strconv.Atoi(f.Get(p + "rules"))
	rules := make([]editRule, 0, min(max(n, 0), maxRules))
	for j := range min(max(n, 0), maxRules) {
		rp := fmt.Sprintf("%sr%d.", p, j)
		rules = append(rules, editRule{Op: f.Get(rp + "op"), Value: f.Get(rp + "value"), To: f.Get(rp + "to")})
	}
	return rules, f.Get(p + "next")
}

// routing is question at's routing from the form's rules, its targets at the questions' new
// positions (pos, by id). A rule to a question gone, or now before it, goes to the next
// question instead, and the notice returned says so.
func (e editQuestion) routing(at int, pos map[string]int) (survey.Routing, []string) {
	var notices []string
	target := func(to string) survey.Target {
		switch {
		case to == "end":
			return survey.Target{Type: survey.TargetEnd}
		case strings.HasPrefix(to, "q:"):
			if p, ok := pos[strings.TrimPrefix(to, "q:")]; ok && p > at {
				return survey.Target{Type: survey.TargetJump, Position: p}
			}
			notices = append(notices, fmt.Sprintf("“%s” went on to a question now gone or before it: it goes to the next question now.", e.Title))
		}
		return survey.Target{Type: survey.TargetNext}
	}
	if len(e.Rules) == 0 {
		return survey.Routing{Type: survey.RoutingAlways, Target: target(e.Next)}, notices
	}
	r := survey.Routing{Type: survey.RoutingSwitch, Cases: make([]survey.Case, 0, len(e.Rules))}
	for _, rule := range e.Rules {
		v := survey.Operand{Text: strings.TrimSpace(rule.Value)}
		if n, err := strconv.ParseFloat(v.Text, 64); err == nil && e.Type == survey.TypeRating {
			v = survey.Operand{Number: n, IsNumber: true}
		}
		r.Cases = append(r.Cases, survey.Case{Operator: rule.Op, Value: v, Target: target(rule.To)})
	}
	r.Default = target(e.Next)
	return r, notices
}

// operatorLabel is an operator as the form reads it after "if the answer".
func operatorLabel(op string) string {
	for _, o := range operators {
		if o.Value == op {
			return o.Label
		}
	}
	return op
}

// ruleValues are the values a rule of question q may compare with: its options' values, or its
// scale's scores (0 to 10 for a Net Promoter Score); free is true for a question answered in
// words, whose rules compare with any text.
func ruleValues(q editQuestion) (values []string, free bool) {
	switch q.Type {
	case survey.TypeSingleSelect, survey.TypeMultiSelect:
		return rowValues(q.Options), false
	case survey.TypeRating:
		low := 1
		if q.Display == survey.DisplayNPS {
			low = 0
		}
		for n := low; n <= q.Scale; n++ {
			values = append(values, strconv.Itoa(n))
		}
		return values, false
	case survey.TypeOpenEnded, survey.TypeBugReport:
		return nil, true
	}
	return nil, false
}

// newRule is a rule added to question q: its type's first operator, a value still to choose
// (or type), on to the next question.
func newRule(q editQuestion) editRule {
	op := ""
	if ops := survey.Operators(q.Type); len(ops) > 0 {
		op = ops[0]
	}
	return editRule{Op: op, To: "next", Focus: true}
}

// ruleAction applies Add routing rule ("rule:Q") and Remove rule ("unrule:Q.R"), and marks
// where the focus goes back to: the new rule, the rule now in the place of the one removed, or
// the Add button. A statement takes no rule.
func ruleAction(qs []editQuestion, action, arg string) {
	q, rule, _ := strings.Cut(arg, ".")
	qi, err := strconv.Atoi(q)
	if err != nil || qi < 0 || qi >= len(qs) {
		return
	}
	e := &qs[qi]
	switch action {
	case "rule":
		if len(e.Rules) < maxRules && len(survey.Operators(e.Type)) > 0 {
			e.Rules = append(e.Rules, newRule(*e))
		}
	case "unrule":
		ri, err := strconv.Atoi(rule)
		if err != nil || ri < 0 || ri >= len(e.Rules) {
			return
		}
		e.Rules = slices.Delete(e.Rules, ri, ri+1)
		if len(e.Rules) == 0 {
			e.FocusAddRule = true
		} else {
			e.Rules[min(ri, len(e.Rules)-1)].Focus = true
		}
	}
}

// routingChoices fills in the choices the form offers for question i's rules: the operators its
// type allows, the values it may compare with, and the questions after it (with a target no
// longer after it kept, and said so). A rule whose operator or value its question no longer
// allows (its type, options or scale changed) has them dropped from the selection, and a
// notice beside it says so; a statement's rules are dropped, as it takes no answer.
func routingChoices(qs []editQuestion, i int) {
	q := &qs[i]
	targets := func(selected string) []choice {
		out := []choice{{"next", "The next question", selected == "next" || selected == ""}, {"end", "The end of the survey", selected == "end"}}
		found := selected == "next" || selected == "end" || selected == ""
		for n := i + 1; n < len(qs); n++ {
			v := "q:" + qs[n].ID
			out = append(out, choice{v, fmt.Sprintf("Question %d: %s", n+1, qs[n].Title), v == selected})
			found = found || v == selected
		}
		if !found {
			out = append(out, choice{selected, "A question now before this one (saving sends people to the next question)", true})
		}
		return out
	}
	q.NextChoices = targets(q.Next)
	ops := survey.Operators(q.Type)
	if len(ops) == 0 && len(q.Rules) > 0 && knownType(q.Type) {
		q.Notice = fmt.Sprintf("A statement takes no answer, so its %d routing rules were removed: save to keep the change.", len(q.Rules))
		if len(q.Rules) == 1 {
			q.Notice = "A statement takes no answer, so its routing rule was removed: save to keep the change."
		}
		q.Rules = nil
	}
	values, free := ruleValues(*q)
	for j := range q.Rules {
		r := &q.Rules[j]
		r.N, r.QuestionN, r.Idx, r.Targets = j+1, i+1, i, targets(r.To)
		var notices []string
		if r.Op != "" && !slices.Contains(ops, r.Op) {
			notices = append(notices, fmt.Sprintf("“%s” does not apply to this type of question: choose an operator.", operatorLabel(r.Op)))
			r.Op = ""
		}
		r.OpChoices = r.OpChoices[:0]
		if r.Op == "" {
			r.OpChoices = append(r.OpChoices, choice{"", "Choose…", true})
		}
		for _, op := range ops {
			r.OpChoices = append(r.OpChoices, choice{op, operatorLabel(op), op == r.Op})
		}
		r.FreeValue, r.ValueChoices = free, nil
		if !free {
			v := strings.TrimSpace(r.Value)
			if v != "" && !slices.Contains(values, v) {
				notices = append(notices, fmt.Sprintf("“%s” is not among this question's %s now: choose a value.", v, valueKind(q.Type)))
				v = ""
			}
			r.Value = v
			if v == "" {
				r.ValueChoices = append(r.ValueChoices, choice{"", "Choose…", true})
			}
			for _, c := range values {
				r.ValueChoices = append(r.ValueChoices, choice{c, c, c == v})
			}
		}
		if len(notices) > 0 {
			r.Notice = strings.Join(notices, " ")
		}
	}
}

// valueKind names what a rule's values are for a type of question.
func valueKind(typ string) string {
	if typ == survey.TypeRating {
		return "scores"
	}
	return "options"
}
