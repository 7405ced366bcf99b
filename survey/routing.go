package survey

import (
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// Routing types, the values of routingLogic.type.
const (
	RoutingAlways = "always"
	RoutingSwitch = "switch"
)

// Target types, the values of a target's type.
const (
	TargetNext = "next"
	TargetJump = "jump"
	TargetEnd  = "end"
)

// Operators of a switch case.
const (
	OpEqual          = "equal"
	OpNotEqual       = "not-equal"
	OpGreater        = "greater"
	OpGreaterOrEqual = "greater-or-equal"
	OpLess           = "less"
	OpLessOrEqual    = "less-or-equal"
	OpContains       = "contains"
	OpNotContains    = "not-contains"
)

// Routing says where a respondent goes after a question. With Type RoutingAlways, Target is
// used; with RoutingSwitch, the first of Cases that matches the answer decides, else Default.
type Routing struct {
	Type    string
	Target  Target
	Cases   []Case
	Default Target
}

// Target is a routing destination. For TargetJump, Position is the position of the question to
// go to, which must come after the question the routing stands on.
type Target struct {
	Type     string
	Position int
}

// Case is a switch case: when the answer compares to Value by Operator, go to Target.
type Case struct {
	Operator string
	Value    Operand
	Target   Target
}

// Operand is a case's comparison value: a string, or a number when IsNumber is set.
type Operand struct {
	Text     string
	Number   float64
	IsNumber bool
}

// MarshalJSON writes {"type":"always","target":...} or {"type":"switch","cases":[...],"default":...}.
func (r Routing) MarshalJSON() ([]byte, error) {
	if r.Type == RoutingSwitch {
		cases := r.Cases
		if cases == nil {
			cases = []Case{}
		}
		return json.Marshal(struct {
			Type    string `json:"type"`
			Cases   []Case `json:"cases"`
			Default Target `json:"default"`
		}{r.Type, cases, r.Default})
	}
	return json.Marshal(struct {
		Type   string `json:"type"`
		Target Target `json:"target"`
	}{r.Type, r.Target})
}

// UnmarshalJSON reads either routing variant.
func (r *Routing) UnmarshalJSON(b []byte) error {
	var raw struct {
		Type    string  `json:"type"`
		Target  *Target `json:"target"`
		Cases   []Case  `json:"cases"`
		Default *Target `json:"default"`
	}
	if err := json.Unmarshal(b, &raw); err != nil {
		return err
	}
	*r = Routing{Type: raw.Type}
	switch raw.Type {
	case RoutingAlways:
		if raw.Target == nil {
			return errors.New(`routingLogic of type "always" needs a target`)
		}
		r.Target = *raw.Target
	case RoutingSwitch:
		if raw.Default == nil {
			return errors.New(`routingLogic of type "switch" needs a default`)
		}
		r.Cases, r.Default = raw.Cases, *raw.Default
		if r.Cases == nil {
			r.Cases = []Case{}
		}
	default:
		return fmt.Errorf("unknown routingLogic type %q", raw.Type)
	}
	return nil
}

// MarshalJSON writes {"type":"next"}, {"type":"end"} or {"type":"jump","target":N}.
func (t Target) MarshalJSON() ([]byte, error) {
	if t.Type == TargetJump {
		return json.Marshal(struct {
			Type   string `json:"type"`
			Target int    `json:"target"`
		}{t.Type, t.Position})
	}
	return json.Marshal(struct {
		Type string `json:"type"`
	}{t.Type})
}

// UnmarshalJSON reads a target; a jump needs its target position.
func (t *Target) UnmarshalJSON(b []byte) error {
	var raw struct {
		Type   string `json:"type"`
		Target *int   `json:"target"`
	}
	if err := json.Unmarshal(b, &raw); err != nil {
		return err
	}
	*t = Target{Type: raw.Type}
	switch raw.Type {
	case TargetNext, TargetEnd:
	case TargetJump:
		if raw.Target == nil {
			return errors.New(`a "jump" target needs a target position`)
		}
		t.Position = *raw.Target
	default:
		return fmt.Errorf("unknown target type %q", raw.Type)
	}
	return nil
}

// MarshalJSON writes the case as a binary-operator condition.
func (c Case) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Type     string  `json:"type"`
		Operator string  `json:"operator"`
		Value    Operand `json:"value"`
		Target   Target  `json:"target"`
	}{"binary-operator", c.Operator, c.Value, c.Target})
}

// UnmarshalJSON reads a binary-operator condition.
func (c *Case) UnmarshalJSON(b []byte) error {
	var raw struct {
		Type     string   `json:"type"`
		Operator string   `json:"operator"`
		Value    *Operand `json:"value"`
		Target   *Target  `json:"target"`
	}
	if err := json.Unmarshal(b, &raw); err != nil {
		return err
	}
	if raw.Type != "binary-operator" {
		return fmt.Errorf(`unknown condition type %q (want "binary-operator")`, raw.Type)
	}
	if raw.Value == nil || raw.Target == nil {
		return errors.New("a condition needs a value and a target")
	}
	*c = Case{Operator: raw.Operator, Value: *raw.Value, Target: *raw.Target}
	return nil
}

// MarshalJSON writes {"type":"value","value":...}.
func (o Operand) MarshalJSON() ([]byte, error) {
	var v any = o.Text
	if o.IsNumber {
		v = o.Number
	}
	return json.Marshal(struct {
		Type  string `json:"type"`
		Value any    `json:"value"`
	}{"value", v})
}

// UnmarshalJSON reads {"type":"value","value": string or number}.
func (o *Operand) UnmarshalJSON(b []byte) error {
	var raw struct {
		Type  string          `json:"type"`
		Value json.RawMessage `json:"value"`
	}
	if err := json.Unmarshal(b, &raw); err != nil {
		return err
	}
	if raw.Type != "value" {
		return fmt.Errorf(`unknown operand type %q (want "value")`, raw.Type)
	}
	*o = Operand{}
	if err := json.Unmarshal(raw.Value, &o.Text); err == nil {
		return nil
	}
	if err := json.Unmarshal(raw.Value, &o.Number); err != nil {
		return errors.New("a condition value must be a string or a number")
	}
	o.IsNumber = true
	return nil
}

// ErrUnknownQuestion is returned by Next for a question id the survey does not have.
var ErrUnknownQuestion = errors.New("unknown question")

// First returns the first question of the survey, or false when it has none. The definition
// must be normalized (questions in position order).
func (d *Definition) First() (*Question, bool) {
	if len(d.Questions) == 0 {
		return nil, false
	}
	return &d.Questions[0], true
}

// Next returns the question a respondent sees after the question with id current, given the
// answers so far, or false when the survey ends there. The definition must be normalized.
//
// A switch takes the first case whose condition holds for current's answer, else its default.
// A question without an answer matches no case. Numbers compare as numbers (a string operand
// that reads as a number compares with a number answer); strings compare exactly, and order
// lexically; contains tests for a substring. A list of choices is equal to a value when it
// holds only that value and contains it when any of its choices is that value; ordering
// operators never match a list. A bug report compares by its title.
func (d *Definition) Next(current string, answers Answers) (*Question, bool, error) {
	idx := -1
	for i := range d.Questions {
		if d.Questions[i].ID == current {
			idx = i
			break
		}
	}
	if idx < 0 {
		return nil, false, fmt.Errorf("%w %q", ErrUnknownQuestion, current)
	}
	if next := d.nextIndex(idx, answers); next >= 0 {
		return &d.Questions[next], true, nil
	}
	return nil, false, nil
}

// Route returns the indexes in d.Questions of the questions a respondent sees, in order, given
// the answers: from the first question, as Next goes, to the end. The definition must be
// normalized. Its cost grows with the route, not with the survey's size squared.
func (d *Definition) Route(answers Answers) []int {
	var route []int
	for i := 0; i >= 0 && i < len(d.Questions); i = d.nextIndex(i, answers) {
		route = append(route, i)
	}
	return route
}

// nextIndex is Next by index: the index of the question after the one at idx, or -1 at the end.
func (d *Definition) nextIndex(idx int, answers Answers) int {
	q := &d.Questions[idx]
	target := q.RoutingLogic.Target
	if q.RoutingLogic.Type == RoutingSwitch {
		target = q.RoutingLogic.Default
		if a, ok := answers[q.ID]; ok {
			for _, c := range q.RoutingLogic.Cases {
				if c.matches(a) {
					target = c.Target
					break
				}
			}
		}
	}
	switch target.Type {
	case TargetJump:
		// Positions are in order: the jump's target is found by binary search.
		rest := d.Questions[idx+1:]
		i := sort.Search(len(rest), func(i int) bool { return rest[i].Position >= target.Position })
		if i < len(rest) && rest[i].Position == target.Position {
			return idx + 1 + i
		}
		return -1
	case TargetEnd:
		return -1
	default: // next
		if idx+1 < len(d.Questions) {
			return idx + 1
		}
		return -1
	}
}

func (c Case) matches(a Answer) bool {
	switch a := a.(type) {
	case Number:
		n, ok := c.Value.number()
		if !ok {
			return c.Operator == OpNotEqual || c.Operator == OpNotContains
		}
		return compare(c.Operator, cmpFloat(float64(a), n), false)
	case Text:
		if c.Value.IsNumber {
			if f, err := strconv.ParseFloat(strings.TrimSpace(string(a)), 64); err == nil {
				return compare(c.Operator, cmpFloat(f, c.Value.Number), false)
			}
		}
		v := c.Value.text()
		return compare(c.Operator, strings.Compare(string(a), v), strings.Contains(string(a), v))
	case BugReportAnswer:
		v := c.Value.text()
		return compare(c.Operator, strings.Compare(a.Title, v), strings.Contains(a.Title, v))
	case Choices:
		v := c.Value.text()
		has := false
		for _, s := range a {
			if s == v {
				has = true
			}
		}
		equal := len(a) == 1 && a[0] == v
		switch c.Operator {
		case OpEqual:
			return equal
		case OpNotEqual:
			return !equal
		case OpContains:
			return has
		case OpNotContains:
			return !has
		}
	}
	return false
}

// compare applies op to the result of a three-way comparison, or to contains for the
// substring operators.
func compare(op string, cmp int, contains bool) bool {
	switch op {
	case OpEqual:
		return cmp == 0
	case OpNotEqual:
		return cmp != 0
	case OpGreater:
		return cmp > 0
	case OpGreaterOrEqual:
		return cmp >= 0
	case OpLess:
		return cmp < 0
	case OpLessOrEqual:
		return cmp <= 0
	case OpContains:
		return contains
	case OpNotContains:
		return !contains
	}
	return false
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func (o Operand) number() (float64, bool) {
	if o.IsNumber {
		return o.Number, true
	}
	f, err := strconv.ParseFloat(strings.TrimSpace(o.Text), 64)
	return f, err == nil
}

func (o Operand) text() string {
	if o.IsNumber {
		return strconv.FormatFloat(o.Number, 'f', -1, 64)
	}
	return o.Text
}
