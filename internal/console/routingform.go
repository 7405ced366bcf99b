package console

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"

	"github.com/svc-feedback/svc/survey"
)

// Routing in the editor (extensions.md section 8): each question's rules read as sentences
// ("if the answer is less than 7, go to question 4"), then where everyone else goes. The form
// names the questions rules go to by id, so a rule follows its question when questions move;
// positions are worked out on save.

// editRule is one routing rule as the form shows it: an operator, a value and where to go
// ("next", "end" or "q:" and a question's id).
type editRule struct {
	N              int // 1-based
	Op, Value, To  string
	Error          string // the save's complaint about this rule
	Targets        []choice
	OpChoices      []choice
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

// routingChoices fills in the choices the form offers for question i's rules: the operators,
// and the questions after it (with a target no longer after it kept, and said so).
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
	for j := range q.Rules {
		r := &q.Rules[j]
		r.N, r.QuestionN, r.Idx, r.Targets = j+1, i+1, i, targets(r.To)
		r.OpChoices = choicesOf(operators, r.Op)
	}
}
