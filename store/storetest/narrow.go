package storetest

import (
	"fmt"
	"math"
	"slices"
	"testing"
	"time"

	"github.com/svc-feedback/svc/store"
	"github.com/svc-feedback/svc/survey"
)

// narrowAnswers are the answers testResponseNarrow writes, one response each: scores, texts and
// lists of every shape a term could mistake for another, ids a JSON path could not hold as
// they are, and answers that no term names.
var narrowAnswers = []survey.Answers{
	{"nps": survey.Number(9), "favourite": survey.Text("Alerts"), "missing": survey.Choices{"Speed", "Docs"}},
	{"nps": survey.Number(10), "favourite": survey.Text("Exports"), "missing": survey.Choices{"Docs"}},
	{"nps": survey.Number(0), "favourite": survey.Text("alerts"), "missing": survey.Choices{}},
	{"nps": survey.Number(3.5), "favourite": survey.Text(`<Alerts> & "quotes"`), "missing": survey.Choices{"Speed"}},
	{"nps": survey.Number(-2), "favourite": survey.Text("Ünïcode ✓")},
	{"nps": survey.Number(1e300), "missing": survey.Choices{`<Alerts> & "quotes"`, "Ünïcode ✓"}},
	{"nps": survey.Number(0.30000000000000004), "a.b": survey.Number(1.0 / 3)},
	{"nps": survey.Text("9"), "favourite": survey.Choices{"Alerts"}},
	{"nps": survey.Choices{"9"}, "favourite": survey.Number(9)},
	{"favourite": survey.BugReportAnswer{Title: "Alerts", Metadata: "Docs"}},
	{`q"x`: survey.Text("Alerts"), "a.b": survey.Number(9), "q-1": survey.Choices{"Docs"}},
	{},
}

// narrowings are the terms testResponseNarrow asks for, alone and together.
var narrowings = func() []store.Narrowing {
	yes, no := true, false
	inf := math.Inf(1)
	return []store.Narrowing{
		{Finished: &yes},
		{Finished: &no},
		{Scores: []store.ScoreBound{{QuestionID: "nps", Min: 9, Max: 10}}},
		{Scores: []store.ScoreBound{{QuestionID: "nps", Min: -inf, Max: 0}}},
		{Scores: []store.ScoreBound{{QuestionID: "nps", Min: 3.5, Max: 3.5}}},
		{Scores: []store.ScoreBound{{QuestionID: "nps", Min: 100, Max: inf}}},
		{Scores: []store.ScoreBound{{QuestionID: "nps", Min: math.NaN(), Max: 5}}},
		{Scores: []store.ScoreBound{{QuestionID: "nps", Min: 10, Max: 9}}},
		{Scores: []store.ScoreBound{{QuestionID: "a.b", Min: 9, Max: 9}}},
		{Scores: []store.ScoreBound{{QuestionID: "nps", Min: 0.30000000000000004, Max: 0.30000000000000004}, {QuestionID: "a.b", Min: 1.0 / 3, Max: 1.0 / 3}}},
		{Choices: []store.ChoiceTerm{{QuestionID: "favourite", Values: []string{"Alerts"}}}},
		{Choices: []store.ChoiceTerm{{QuestionID: "missing", Values: []string{"Docs", "Speed"}}}},
		{Choices: []store.ChoiceTerm{{QuestionID: "missing", Values: []string{`<Alerts> & "quotes"`, "Ünïcode ✓"}}}},
		{Choices: []store.ChoiceTerm{{QuestionID: "favourite", Values: []string{`<Alerts> & "quotes"`, "Ünïcode ✓"}}}},
		{Choices: []store.ChoiceTerm{{QuestionID: `q"x`, Values: []string{"Alerts"}}}},
		{Choices: []store.ChoiceTerm{{QuestionID: "q-1", Values: []string{"Docs"}}}},
		{Choices: []store.ChoiceTerm{{QuestionID: "nps", Values: []string{"9"}}}},
		{Finished: &yes, Scores: []store.ScoreBound{{QuestionID: "nps", Min: 0, Max: 10}},
			Choices: []store.ChoiceTerm{{QuestionID: "favourite", Values: []string{"Alerts", "Exports"}},
				{QuestionID: "missing", Values: []string{"Docs"}}}},
	}
}()

// testResponseNarrow: a query's Narrow never costs a response that passes it
// (store.Narrowing.Passes), newest or oldest first, a page at a time, with or without a byte
// budget; a Store may let through more, which its caller tests again. It holds as well when a
// response's answers hold a text that a database's own JSON may refuse (PostgreSQL's jsonb
// refuses a U+0000), among answers it reads.
func testResponseNarrow(t *testing.T, s store.Store) {
	mustTeam(t, s, "a")
	t.Run("answers", func(t *testing.T) { checkNarrowings(t, s, narrowAnswers, narrowings) })
	nul := append(slices.Clone(narrowAnswers), survey.Answers{"nps": survey.Number(9), "favourite": survey.Text("Alerts\x00")})
	t.Run("a U+0000 among them", func(t *testing.T) { checkNarrowings(t, s, nul, narrowings) })
	// A filter holds at most 50 values, but a Store takes any Narrowing.
	many := make([]string, 40_000)
	for i := range many {
		many[i] = fmt.Sprint("value ", i)
	}
	many[len(many)-1] = "Docs"
	t.Run("40,000 values", func(t *testing.T) {
		checkNarrowings(t, s, narrowAnswers, []store.Narrowing{
			{Choices: []store.ChoiceTerm{{QuestionID: "missing", Values: many}}},
			{Scores: []store.ScoreBound{{QuestionID: "nps", Min: 9, Max: 10}}, Choices: []store.ChoiceTerm{
				{QuestionID: "favourite", Values: many}, {QuestionID: "missing", Values: []string{"Speed"}}}},
		})
	})
}

// checkNarrowings writes a survey of team "a" with two responses of each of answers (one
// finished), and checks each of ns against it.
func checkNarrowings(t *testing.T, s store.Store, answers []survey.Answers, ns []store.Narrowing) {
	ctx := t.Context()
	sv := mustSurvey(t, s, newSurvey("a", t0))
	for i, a := range answers {
		for j, finished := range []bool{false, true} {
			put(t, s, store.ResponseWrite{SurveyID: sv.ID, ID: ids.New(), Respondent: "r", Data: a, Finished: finished,
				At: t0.Add(time.Duration(2*i+j) * time.Minute)})
		}
	}
	all, next, err := s.Responses(ctx, store.ResponseQuery{SurveyID: sv.ID, Limit: 100})
	if err != nil || next != nil || len(all) != 2*len(answers) {
		t.Fatalf("Responses = %d, next %v, %v; want %d", len(all), next, err, 2*len(answers))
	}
	for _, n := range ns {
		var want []string // newest first
		for _, r := range all {
			if n.Passes(r) {
				want = append(want, r.ID)
			}
		}
		if len(want) == len(all) {
			t.Errorf("narrowing %s: every response passes, which tests nothing", describe(n))
		}
		for _, oldest := range []bool{false, true} {
			for _, budget := range []int{0, 60} {
				q := store.ResponseQuery{SurveyID: sv.ID, Limit: 3, Oldest: oldest, MaxBytes: budget, Narrow: &n}
				got := narrowWalk(t, s, q, len(all))
				if oldest {
					slices.Reverse(got)
				}
				if missing := missingFrom(want, got); len(missing) > 0 {
					t.Errorf("narrowing %s (oldest first %v, budget %d) left out %d responses that pass it", describe(n), oldest, budget, len(missing))
				}
				if !isSubsequence(got, idsOf(all)) {
					t.Errorf("narrowing %s (oldest first %v, budget %d): responses out of order or repeated", describe(n), oldest, budget)
				}
			}
		}
	}
}

// describe writes n for a test's message, cut short: a narrowing may hold 40,000 values.
func describe(n store.Narrowing) string {
	d := fmt.Sprintf("%+v", n)
	if len(d) > 300 {
		return d[:300] + "..."
	}
	return d
}

// narrowWalk reads every page of q and returns the ids in the order they came.
func narrowWalk(t *testing.T, s store.Store, q store.ResponseQuery, most int) []string {
	t.Helper()
	var got []string
	for {
		page, next, err := s.Responses(t.Context(), q)
		if err != nil {
			t.Fatalf("Responses(%s): %v", describe(*q.Narrow), err)
		}
		for _, r := range page {
			got = append(got, r.ID)
		}
		if next == nil || len(got) > most {
			return got
		}
		q.Cursor = next
	}
}

func idsOf(rs []store.Response) []string {
	out := make([]string, len(rs))
	for i, r := range rs {
		out[i] = r.ID
	}
	return out
}

// missingFrom returns the items of want that got lacks.
func missingFrom(want, got []string) []string {
	var out []string
	for _, w := range want {
		if !slices.Contains(got, w) {
			out = append(out, w)
		}
	}
	return out
}

// isSubsequence reports whether sub's items come in all in the same order, each once.
func isSubsequence(sub, all []string) bool {
	i := 0
	for _, x := range all {
		if i < len(sub) && sub[i] == x {
			i++
		}
	}
	return i == len(sub)
}

// CreateSampleSurvey creates the team "acme" in s, and in it an active survey "s1" of
// survey.Sample, created at t0, for a backend's own tests. It returns the survey.
func CreateSampleSurvey(t testing.TB, s store.Store, t0 time.Time) store.Survey {
	t.Helper()
	ctx := t.Context()
	if err := s.CreateTeam(ctx, store.Team{ID: "acme", Name: "Acme", CreatedAt: t0}); err != nil {
		t.Fatal(err)
	}
	sv := store.Survey{ID: "s1", TeamID: "acme", Status: store.StatusActive, Definition: survey.Sample(), CreatedAt: t0, UpdatedAt: t0}
	if err := s.CreateSurvey(ctx, sv); err != nil {
		t.Fatal(err)
	}
	return sv
}

// NarrowsInTheQuery checks that s tests a query's Narrow itself (finished, a score's bounds, a
// choice's values), so that a page holds only the responses that pass it, for a backend's own
// tests: the conformance suite checks that none that passes is left out, and cannot ask more,
// since a Store may ignore the hint; a backend that means to honour it must not, or filters read
// every response again.
func NarrowsInTheQuery(t *testing.T, s store.Store) {
	ctx := t.Context()
	t0 := time.Date(2026, 11, 26, 9, 0, 0, 0, time.UTC)
	sv := CreateSampleSurvey(t, s, t0)
	for i, a := range []survey.Answers{
		{"nps": survey.Number(9), "missing": survey.Choices{"Docs"}},
		{"nps": survey.Number(4), "missing": survey.Choices{"Docs", "Speed"}},
		{"nps": survey.Number(10), "missing": survey.Choices{"Speed"}},
		{"nps": survey.Text("10"), "missing": survey.Text("Docs")},
		{"missing": survey.Choices{"Docs"}},
	} {
		// Ids "a" to "e", a minute apart, every other one finished ("a" included).
		if _, _, err := s.PutResponse(ctx, store.ResponseWrite{SurveyID: sv.ID, ID: string(rune('a' + i)), Respondent: "r",
			Data: a, Finished: i%2 == 0, At: t0.Add(time.Duration(i) * time.Minute)}); err != nil {
			t.Fatal(err)
		}
	}
	done, open := true, false
	for _, c := range []struct {
		n    store.Narrowing
		want []string // newest first
	}{
		{store.Narrowing{Finished: &done}, []string{"e", "c", "a"}},
		{store.Narrowing{Finished: &open}, []string{"d", "b"}},
		{store.Narrowing{Scores: []store.ScoreBound{{QuestionID: "nps", Min: 9, Max: 10}}}, []string{"c", "a"}},
		{store.Narrowing{Scores: []store.ScoreBound{{QuestionID: "nps", Min: math.Inf(-1), Max: 9}}}, []string{"b", "a"}},
		{store.Narrowing{Choices: []store.ChoiceTerm{{QuestionID: "missing", Values: []string{"Docs"}}}}, []string{"e", "d", "b", "a"}},
		{store.Narrowing{Finished: &done, Choices: []store.ChoiceTerm{{QuestionID: "missing", Values: []string{"Docs"}}}}, []string{"e", "a"}},
		{store.Narrowing{Scores: []store.ScoreBound{{QuestionID: "nps", Min: 5, Max: 10}},
			Choices: []store.ChoiceTerm{{QuestionID: "missing", Values: []string{"Speed", "Price"}}}}, []string{"c"}},
	} {
		page, _, err := s.Responses(ctx, store.ResponseQuery{SurveyID: sv.ID, Limit: 100, Narrow: &c.n})
		if err != nil {
			t.Fatal(err)
		}
		if got := idsOf(page); !slices.Equal(got, c.want) {
			t.Errorf("narrowing %+v: %v, want %v", c.n, got, c.want)
		}
	}
}
