package store_test

import (
	"fmt"
	"testing"

	"github.com/svc-feedback/svc/store"
	"github.com/svc-feedback/svc/survey"
)

// BenchmarkCounts is the counting a write does: the loadbench PUT's five answers to the demo
// survey.
func BenchmarkCounts(b *testing.B) {
	def := survey.Sample()
	def.Normalize()
	a := survey.Answers{"nps": survey.Number(9), "stars": survey.Number(4), "favourite": survey.Text("Alerts"),
		"missing": survey.Choices{"Speed", "Docs"}, "comments": survey.Text("The new dashboard is great")}
	b.ReportAllocs()
	for b.Loop() {
		if len(store.ResponseCounts(&def, a, false)) == 0 {
			b.Fatal("no counts")
		}
	}
}

// BenchmarkCountsLongSurvey is a finished write to a survey of survey.MaxQuestions
// open-ended questions, with one answer: its cost grows with the route (every question is
// reached), not with its square.
func BenchmarkCountsLongSurvey(b *testing.B) {
	def := survey.Definition{Title: "Long"}
	for i := range survey.MaxQuestions {
		def.Questions = append(def.Questions, survey.Question{ID: fmt.Sprint("q", i), Title: "Q", Position: i,
			Properties:   survey.OpenEndedProperties{ButtonLabel: "Next", Max: 10},
			RoutingLogic: survey.Routing{Type: survey.RoutingAlways, Target: survey.Target{Type: survey.TargetNext}}})
	}
	if err := def.Validate(); err != nil {
		b.Fatal(err)
	}
	a := survey.Answers{"q0": survey.Text("x")}
	b.ReportAllocs()
	for b.Loop() {
		if n := len(store.ResponseCounts(&def, a, true)); n != survey.MaxQuestions+3 {
			b.Fatalf("%d counts", n)
		}
	}
}
