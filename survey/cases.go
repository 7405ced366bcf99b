package survey

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// A routing case is checked against the question it stands on, so that a case saved can hold
// for some answer: a rule "the score is at most six", or "the choice is email" where the option
// is "Email", would be saved and never fire, and people would go where its writer did not mean.

// operatorsOf are the operators a case of each question type can hold for.
var operatorsOf = map[string][]string{
	TypeRating:       {OpEqual, OpNotEqual, OpGreater, OpGreaterOrEqual, OpLess, OpLessOrEqual},
	TypeSingleSelect: {OpEqual, OpNotEqual},
	TypeMultiSelect:  {OpContains, OpNotContains},
	TypeOpenEnded:    {OpContains, OpNotContains, OpEqual, OpNotEqual},
	// A bug report's routing compares its title, as text.
	TypeBugReport: {OpContains, OpNotContains, OpEqual, OpNotEqual},
	// A statement takes no answer, so no case of its routing can hold.
	TypeStatement: nil,
	// A ranking's case asks whether an option was ranked at all.
	TypeRanking: {OpContains, OpNotContains},
	// Dates written YYYY-MM-DD compare as text in date order.
	TypeDate: {OpEqual, OpNotEqual, OpGreater, OpGreaterOrEqual, OpLess, OpLessOrEqual},
	TypeCTA:  {OpEqual, OpNotEqual},
	// A matrix's and a contact question's answers are several texts, and a consent's is always
	// true, so none of them is compared by a case: their routing is "always".
	TypeMatrix: nil, TypeContact: nil, TypeConsent: nil,
}

// Operators returns the operators a routing case of a question of questionType can hold for,
// in a stable order; none for a type whose answer no case compares (statement, matrix, consent,
// contact) or a type svc does not know.
func Operators(questionType string) []string { return slices.Clone(operatorsOf[questionType]) }

// validateCase checks one case of q's routing, at: an operator q's type can hold for, and a
// value its answers can take.
func validateCase(at string, q *Question, c Case) error {
	ops, ok := operatorsOf[q.Type()]
	if !ok {
		return nil // the properties' own error is reported first
	}
	if len(ops) == 0 && q.Type() != TypeStatement {
		return invalid("%s: the answer to %s question is not compared by routing, so no case can hold: its routing is %q, or a switch without cases", at, withArticle(q.Type()), RoutingAlways)
	}
	if len(ops) == 0 {
		return invalid("%s: %s takes no answer, so no case can hold: its routing is %q, or a switch without cases", at, withArticle(q.Type()), RoutingAlways)
	}
	if !slices.Contains(ops, c.Operator) {
		return invalid("%s.operator %q cannot hold for %s question: use %s", at, truncate(c.Operator), withArticle(q.Type()), orList(ops))
	}
	switch p := q.Properties.(type) {
	case RatingProperties:
		return validateScoreCase(at, p, c.Value)
	case SingleSelectProperties:
		return validateChoiceCase(at, p.Options, c.Value)
	case MultiSelectProperties:
		return validateChoiceCase(at, p.Options, c.Value)
	case RankingProperties:
		options := make([]Option, len(p.Options))
		for i, o := range p.Options {
			options[i] = Option{Value: o.Value}
		}
		return validateChoiceCase(at, options, c.Value)
	case DateProperties:
		if _, ok := ParseDate(c.Value.Text); c.Value.IsNumber || !ok {
			return invalid("%s.value %s can never match: a date question's answer is a date written YYYY-MM-DD", at, c.Value.quoted())
		}
		return nil
	case CTAProperties:
		if c.Value.IsNumber || c.Value.Text != CTAClicked && c.Value.Text != CTADismissed {
			return invalid("%s.value %s can never match: a call to action's answer is %q or %q", at, c.Value.quoted(), CTAClicked, CTADismissed)
		}
		return nil
	}
	if c.Value.IsNumber {
		return invalid("%s.value must be text for %s question, not the number %s", at, withArticle(q.Type()), c.Value.text())
	}
	return nil
}

// validateScoreCase checks a rating case's value: a whole number within the scale, given as a
// number or as a string of decimal digits (which compares with a score as a number).
func validateScoreCase(at string, p RatingProperties, v Operand) error {
	low := 1
	if p.Display != nil && *p.Display == DisplayNPS {
		low = 0
	}
	n, ok := v.Number, v.IsNumber
	if !ok {
		i, err := strconv.Atoi(v.Text)
		n, ok = float64(i), err == nil && decimalDigits(v.Text)
	}
	if !ok || n != math.Trunc(n) || n < float64(low) || n > float64(p.Scale) {
		return invalid("%s.value %s can never match: a score of this rating is a whole number from %d to %d", at, v.quoted(), low, p.Scale)
	}
	return nil
}

// validateChoiceCase checks a select case's value: one of the options' values, as written.
func validateChoiceCase(at string, options []Option, v Operand) error {
	if v.IsNumber {
		return invalid("%s.value must be one of the question's option values, as text, not the number %s", at, v.text())
	}
	if hasOption(options, v.Text) {
		return nil
	}
	values := make([]string, len(options))
	for i, o := range options {
		values[i] = strconv.Quote(o.Value)
	}
	msg := fmt.Sprintf("%s.value %s is not one of the question's options (%s)", at, v.quoted(), truncate(strings.Join(values, ", ")))
	for _, o := range options {
		if strings.EqualFold(o.Value, v.Text) {
			return invalid("%s: values match exactly, so write %q", msg, o.Value)
		}
	}
	return invalid("%s", msg)
}

// decimalDigits reports whether s is an optional minus and decimal digits: "9", not "+9",
// " 9", "9.0" or "1e1".
func decimalDigits(s string) bool {
	s = strings.TrimPrefix(s, "-")
	return s != "" && strings.Trim(s, "0123456789") == ""
}

func (o Operand) quoted() string {
	if o.IsNumber {
		return o.text()
	}
	return strconv.Quote(truncate(o.Text))
}

// orList writes names as "a, b or c".
func orList(names []string) string {
	if len(names) == 1 {
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// withArticle is a type's name after "a" or "an".
func withArticle(name string) string {
	if strings.ContainsAny(name[:1], "aeiou") {
		return "an " + name
	}
	return "a " + name
}
