package survey_test

import (
	"errors"
	"testing"

	"github.com/svc-feedback/svc/survey"
)

func TestNextFollowsDemoRouting(t *testing.T) {
	d := survey.Sample()
	tests := []struct {
		name    string
		current string
		answers survey.Answers
		want    string // "" for the end
	}{
		{"detractor jumps to position 3", "nps", survey.Answers{"nps": survey.Number(6)}, "missing"},
		{"promoter goes next", "nps", survey.Answers{"nps": survey.Number(9)}, "stars"},
		{"unanswered takes the default", "nps", survey.Answers{}, "stars"},
		{"always next", "stars", nil, "favourite"},
		{"always jump", "favourite", nil, "comments"},
		{"text contains jumps", "comments", survey.Answers{"comments": survey.Text("found a bug here")}, "bug"},
		{"text without match goes next", "comments", survey.Answers{"comments": survey.Text("all good")}, "thanks"},
		{"end", "thanks", nil, ""},
		{"last question ends", "bug", nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q, ok, err := d.Next(tt.current, tt.answers)
			if err != nil {
				t.Fatal(err)
			}
			got := ""
			if ok {
				got = q.ID
			}
			if got != tt.want {
				t.Errorf("Next(%q) = %q, want %q", tt.current, got, tt.want)
			}
		})
	}
	if _, _, err := d.Next("nope", nil); !errors.Is(err, survey.ErrUnknownQuestion) {
		t.Errorf("Next(unknown) error = %v, want ErrUnknownQuestion", err)
	}
	if first, ok := d.First(); !ok || first.ID != "nps" {
		t.Errorf("First() = %v, %v; want nps", first, ok)
	}
}

// TestSwitchOperators runs every operator on numbers, strings and lists.
func TestSwitchOperators(t *testing.T) {
	num := func(f float64) survey.Operand { return survey.Operand{Number: f, IsNumber: true} }
	txt := func(s string) survey.Operand { return survey.Operand{Text: s} }
	tests := []struct {
		op      string
		operand survey.Operand
		answer  survey.Answer
		want    bool
	}{
		{survey.OpEqual, num(5), survey.Number(5), true},
		{survey.OpEqual, num(5), survey.Number(4), false},
		{survey.OpNotEqual, num(5), survey.Number(4), true},
		{survey.OpGreater, num(5), survey.Number(6), true},
		{survey.OpGreater, num(5), survey.Number(5), false},
		{survey.OpGreaterOrEqual, num(5), survey.Number(5), true},
		{survey.OpLess, num(5), survey.Number(4), true},
		{survey.OpLess, num(5), survey.Number(5), false},
		{survey.OpLessOrEqual, num(5), survey.Number(5), true},
		{survey.OpEqual, txt("5"), survey.Number(5), true},
		{survey.OpGreater, num(10), survey.Number(9), false},
		{survey.OpEqual, num(3), survey.Text("3"), true},
		{survey.OpEqual, txt("Yes"), survey.Text("Yes"), true},
		{survey.OpEqual, txt("Yes"), survey.Text("yes"), false},
		{survey.OpNotEqual, txt("Yes"), survey.Text("No"), true},
		{survey.OpGreater, txt("b"), survey.Text("c"), true},
		{survey.OpLess, txt("b"), survey.Text("a"), true},
		{survey.OpContains, txt("bug"), survey.Text("a bug!"), true},
		{survey.OpContains, txt("bug"), survey.Text("fine"), false},
		{survey.OpNotContains, txt("bug"), survey.Text("fine"), true},
		{survey.OpContains, txt("Speed"), survey.Choices{"Price", "Speed"}, true},
		{survey.OpNotContains, txt("Speed"), survey.Choices{"Price"}, true},
		{survey.OpEqual, txt("Speed"), survey.Choices{"Speed"}, true},
		{survey.OpEqual, txt("Speed"), survey.Choices{"Speed", "Price"}, false},
		{survey.OpNotEqual, txt("Speed"), survey.Choices{"Speed", "Price"}, true},
		{survey.OpGreater, txt("Speed"), survey.Choices{"Speed"}, false},
		{survey.OpContains, txt("crash"), survey.BugReportAnswer{Title: "crash on save"}, true},
	}
	for _, tt := range tests {
		d := survey.Definition{Title: "t", Questions: []survey.Question{
			{ID: "q", Position: 0, Properties: survey.OpenEndedProperties{Max: 10}, RoutingLogic: survey.Routing{
				Type:    survey.RoutingSwitch,
				Cases:   []survey.Case{{Operator: tt.op, Value: tt.operand, Target: survey.Target{Type: survey.TargetEnd}}},
				Default: survey.Target{Type: survey.TargetNext},
			}},
			{ID: "r", Position: 1, Properties: survey.StatementProperties{}, RoutingLogic: survey.Routing{Type: survey.RoutingAlways, Target: survey.Target{Type: survey.TargetNext}}},
		}}
		_, ok, err := d.Next("q", survey.Answers{"q": tt.answer})
		if err != nil {
			t.Fatal(err)
		}
		if matched := !ok; matched != tt.want {
			t.Errorf("%v %s %v matched = %v, want %v", tt.answer, tt.op, tt.operand, matched, tt.want)
		}
	}
}
