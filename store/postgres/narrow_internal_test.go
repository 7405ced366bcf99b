package postgres

import (
	"encoding/json"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/svc-feedback/svc/store"
)

// TestAnswersPathReadsEveryID: a question's id may be any text without a control character
// (survey.Definition.Validate), and a choice's value any text, so each is quoted into the path
// or passed in its variables. For ids and values made of what a path's syntax or JSON's
// escapes could misread, PostgreSQL must parse the path and find the answer: a path that fails
// to parse would fail the filter's every read, and one that misreads an id would leave out the
// responses that pass.
func TestAnswersPathReadsEveryID(t *testing.T) {
	s, _ := openWithSurvey(t, store.NewSurveyID(), nil)
	tricky := []string{`"`, `\`, `\"`, `'`, `$`, `@`, `.`, `*`, `[0]`, `?`, `(`, `)`, `&&`, `||`, `==`,
		`/`, `<`, `>`, `&`, " ", "\u2028", "\u2029", "\ufeff", "é", "ü", "漢", "😀", "\U0010FFFD", `\u0041`, `$.a`, `lax`, `strict`}
	ids := slices.Clone(tricky)
	r := rand.New(rand.NewPCG(1, 2)) // the same ids on every run
	for range 200 {
		var b strings.Builder
		for range 1 + r.IntN(6) {
			b.WriteString(tricky[r.IntN(len(tricky))])
		}
		ids = append(ids, b.String())
	}
	for _, id := range ids {
		doc, err := json.Marshal(map[string]any{id: []string{id, "other"}, "score": 0, id + "#": 7.5})
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range []store.Narrowing{
			{Choices: []store.ChoiceTerm{{QuestionID: id, Values: []string{"no", id}}}},
			{Scores: []store.ScoreBound{{QuestionID: id + "#", Min: 7.5, Max: 7.5}}},
		} {
			path, vars := answersPath(&n)
			if path == "" {
				t.Errorf("id %q: no path", id)
				continue
			}
			if found, err := pathFinds(t, s, string(doc), path, vars); err != nil {
				t.Errorf("id %q: path %s: %v", id, path, err)
			} else if !found {
				t.Errorf("id %q: path %s with %s finds nothing in %s", id, path, vars, doc)
			}
		}
	}
}

// TestAnswersPathOfManyValues: a Narrowing of more values than a path holds still reads (a
// Store takes any Narrowing, though a filter holds at most 50 values): the choice that does
// not fit is left to the caller, and the rest still narrow.
func TestAnswersPathOfManyValues(t *testing.T) {
	s, _ := openWithSurvey(t, store.NewSurveyID(), nil)
	many := make([]string, 20_000)
	for i := range many {
		many[i] = "v" + strconv.Itoa(i)
	}
	n := store.Narrowing{
		Scores:  []store.ScoreBound{{QuestionID: "nps", Min: 9, Max: 10}},
		Choices: []store.ChoiceTerm{{QuestionID: "missing", Values: many}, {QuestionID: "favourite", Values: []string{"Alerts"}}},
	}
	path, vars := answersPath(&n)
	for doc, want := range map[string]bool{
		`{"nps": 9, "missing": ["nothing"], "favourite": "Alerts"}`: true, // the many values are not tested
		`{"nps": 9, "favourite": "Exports"}`:                        false,
		`{"nps": 3, "favourite": "Alerts"}`:                         false,
	} {
		found, err := pathFinds(t, s, doc, path, vars)
		if err != nil {
			t.Fatalf("%s: %v", doc, err)
		}
		if found != want {
			t.Errorf("%s: found %v, want %v (path %.200s)", doc, found, want, path)
		}
	}
}

// pathFinds reports whether PostgreSQL's path, with its variables, finds anything in doc, as
// the page query tests each response's answers.
func pathFinds(t *testing.T, s *Store, doc, path string, vars []byte) (bool, error) {
	var found bool
	err := s.pool.QueryRow(t.Context(), `SELECT jsonb_path_exists($1::jsonb, $2::jsonpath, $3::jsonb, true)`,
		doc, path, string(vars)).Scan(&found)
	return found, err
}
