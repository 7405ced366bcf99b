package sqlite

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/svc-feedback/svc/store"
	"github.com/svc-feedback/svc/store/storetest"
	"github.com/svc-feedback/svc/survey"
)

// TestNarrowLeavesOutInTheQuery: SQLite tests a query's Narrow itself, so that a page holds only
// responses that pass it (the conformance suite checks that none that pass is left out; a
// Store may ignore the hint, this one must not, or filters read every response again).
func TestNarrowLeavesOutInTheQuery(t *testing.T) {
	ctx := t.Context()
	s, err := Open(ctx, filepath.Join(t.TempDir(), "svc.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	answers := []survey.Answers{
		{"nps": survey.Number(9), "missing": survey.Choices{"Docs"}},
		{"nps": survey.Number(4), "missing": survey.Choices{"Docs", "Speed"}},
		{"nps": survey.Number(10), "missing": survey.Choices{"Speed"}},
		{"nps": survey.Text("10"), "missing": survey.Text("Docs")},
		{"missing": survey.Choices{"Docs"}},
	}
	surveyID := storetest.WriteNarrowable(t, s, answers)
	done := true
	for _, c := range []struct {
		n    store.Narrowing
		want []string
	}{
		{store.Narrowing{Scores: []store.ScoreBound{{QuestionID: "nps", Min: 9, Max: 10}}}, []string{"c", "a"}},
		{store.Narrowing{Choices: []store.ChoiceTerm{{QuestionID: "missing", Values: []string{"Docs"}}}}, []string{"e", "d", "b", "a"}},
		{store.Narrowing{Finished: &done, Choices: []store.ChoiceTerm{{QuestionID: "missing", Values: []string{"Docs"}}}}, []string{"e", "a"}},
	} {
		if got := storetest.NarrowedIDs(t, s, surveyID, c.n); !slices.Equal(got, c.want) {
			t.Errorf("narrowing %+v: %v, want %v", c.n, got, c.want)
		}
	}
}
