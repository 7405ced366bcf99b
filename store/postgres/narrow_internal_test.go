package postgres

import (
	"encoding/json"
	"math/rand/v2"
	"slices"
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
			var found bool
			if err := s.pool.QueryRow(t.Context(), `SELECT jsonb_path_exists($1::jsonb, $2::jsonpath, $3::jsonb, true)`,
				string(doc), path, string(vars)).Scan(&found); err != nil {
				t.Errorf("id %q: path %s: %v", id, path, err)
			} else if !found {
				t.Errorf("id %q: path %s with %s finds nothing in %s", id, path, vars, doc)
			}
		}
	}
}
