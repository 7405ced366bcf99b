package store_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/svc-feedback/svc/store"
	"github.com/svc-feedback/svc/survey"
)

// TestCounts checks what responses to the demo survey add to its counts, worked out by hand
// from its routing: nps <= 6 jumps to position 3; favourite jumps to 4; comments containing
// "bug" jump to 6; the statement at 5 ends.
func TestCounts(t *testing.T) {
	def := survey.Sample()
	def.Normalize()
	opt := func(q, v string) store.Count { return store.Count{Key: store.OptionKey(q), N: store.OptionNumber(v)} }
	ans := func(pos ...int) []store.Count {
		var out []store.Count
		for _, p := range pos {
			out = append(out, store.Count{Key: store.AnsweredKey, N: p})
		}
		return out
	}
	reach := func(pos ...int) []store.Count {
		var out []store.Count
		for _, p := range pos {
			out = append(out, store.Count{Key: store.ReachedKey, N: p})
		}
		return out
	}
	funnel := []store.Count{{Key: store.FunnelKey, N: 0}}
	finished := append(funnel, store.Count{Key: store.FunnelKey, N: 1})
	join := func(parts ...[]store.Count) []store.Count {
		var out []store.Count
		for _, p := range parts {
			out = append(out, p...)
		}
		return out
	}
	tests := []struct {
		name     string
		answers  survey.Answers
		finished bool
		want     []store.Count
	}{
		{"a detractor's whole route", survey.Answers{
			"nps": survey.Number(3), "missing": survey.Choices{"Speed", "Docs"}, "comments": survey.Text("a bug"),
			"bug": survey.BugReportAnswer{Title: "t", Metadata: "{}"}}, true,
			join(finished, ans(0, 3, 4, 6), reach(0, 3, 4, 6), []store.Count{{Key: "nps", N: 3}, opt("missing", "Speed"), opt("missing", "Docs")})},
		{"a promoter who stopped after the stars: reached the next question", survey.Answers{
			"nps": survey.Number(9), "stars": survey.Number(4)}, false,
			join(funnel, ans(0, 1), reach(0, 1, 2), []store.Count{{Key: "nps", N: 9}, {Key: "stars", N: 4}})},
		{"free text instead of an option; optional questions skipped, then finished", survey.Answers{
			"nps": survey.Number(10), "favourite": survey.Text("Webhooks")}, true,
			join(finished, ans(0, 2), reach(0, 1, 2, 4, 5), []store.Count{{Key: "nps", N: 10}, {Key: store.OptionKey("favourite"), N: store.OtherOption}})},
		{"nothing answered: the first question reached", survey.Answers{}, false, join(funnel, reach(0))},
		{"an answer off the route (a detractor's stars) counts as reached", survey.Answers{
			"nps": survey.Number(2), "stars": survey.Number(3)}, false,
			join(funnel, ans(0, 1), reach(0, 3, 1), []store.Count{{Key: "nps", N: 2}, {Key: "stars", N: 3}})},
	}
	sorted := cmpopts.SortSlices(func(a, b store.Count) bool { return a.Key < b.Key || a.Key == b.Key && a.N < b.N })
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := store.ResponseCounts(&def, tt.answers, tt.finished)
			if diff := cmp.Diff(tt.want, got, sorted); diff != "" {
				t.Errorf("Counts (-want +got):\n%s", diff)
			}
		})
	}
	if store.OptionNumber("Speed") == store.OptionNumber("Docs") || store.OptionNumber("x") < 0 {
		t.Error("option numbers collide or are negative")
	}
	if !store.IsCountKey(store.OptionKey("q")) || store.IsCountKey("nps") {
		t.Error("IsCountKey")
	}
}
