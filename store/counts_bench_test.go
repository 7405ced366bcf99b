package store_test

import (
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
		if len(store.Counts(&def, a, false)) == 0 {
			b.Fatal("no counts")
		}
	}
}
