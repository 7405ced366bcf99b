package postgres

import (
	"encoding/json"
	"errors"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/svc-feedback/svc/store"
	"github.com/svc-feedback/svc/store/internal/sqlrow"
)

// answersPath returns the SQL/JSON path that tests the score and choice terms of n
// (store.ResponseQuery.Narrow) against a response's answers, with the variables it names as a
// JSON object; "" when no term can be tested.
//
// All terms go in one path, so that PostgreSQL reads each row's answers (text, cast to jsonb)
// once however many terms there are, and the values go in the variables, so that the query's
// text is the same for every filter of the same shape and pgx keeps its statement prepared.
//
// Each term lets through every response store.Narrowing.Passes would. The path runs in lax
// mode, which lets through more: a list holding a number within a score's bounds, a value that
// is an object's key. A bound that is infinite, or that JSON cannot hold once widened, is left
// out, which also lets through more; the caller tests every response it gets.
func answersPath(n *store.Narrowing) (path string, vars []byte) {
	if n == nil {
		return "", nil
	}
	var terms []string
	values := map[string]any{}
	bound := func(name string, v float64) bool {
		if math.IsInf(v, 0) || math.IsNaN(v) {
			return false
		}
		values[name] = v
		return true
	}
	for i, b := range n.Scores {
		key, ok := pathKey(b.QuestionID)
		if !ok || math.IsNaN(b.Min) || math.IsNaN(b.Max) {
			continue
		}
		var both []string
		if lo := "lo" + strconv.Itoa(i); bound(lo, sqlrow.Widen(b.Min, -1)) {
			both = append(both, key+" >= $"+lo)
		}
		if hi := "hi" + strconv.Itoa(i); bound(hi, sqlrow.Widen(b.Max, 1)) {
			both = append(both, key+" <= $"+hi)
		}
		if len(both) > 0 {
			terms = append(terms, strings.Join(both, " && "))
		}
	}
	for i, c := range n.Choices {
		key, ok := pathKey(c.QuestionID)
		if !ok || len(c.Values) == 0 || len(values)+len(c.Values) > sqlrow.MaxNarrowValues {
			continue
		}
		anyOf := make([]string, len(c.Values))
		for j, v := range c.Values {
			name := "c" + strconv.Itoa(i) + "_" + strconv.Itoa(j)
			values[name] = v
			anyOf[j] = key + " == $" + name
		}
		terms = append(terms, "("+strings.Join(anyOf, " || ")+")")
	}
	if len(terms) == 0 {
		return "", nil
	}
	vars, err := json.Marshal(values)
	if err != nil { // not reached: the values are strings and finite numbers
		return "", nil
	}
	return "$ ? (" + strings.Join(terms, " && ") + ")", vars
}

// pathKey returns the path of the answer to a question from the filter's current item, its id
// quoted as a JSON string (which a path's string reads alike), and false for an id a path
// cannot hold: not UTF-8, or holding U+0000, which PostgreSQL refuses in a path.
func pathKey(id string) (string, bool) {
	if id == "" || !utf8.ValidString(id) || strings.ContainsRune(id, 0) {
		return "", false
	}
	quoted, err := json.Marshal(id)
	if err != nil {
		return "", false
	}
	return "@." + string(quoted), true
}

// readNarrowed reads a page of q with read, and reads it again without the Narrow's score and
// choice terms when PostgreSQL fails it on a stored answer it could not read as jsonb: the
// answers are kept as the JSON text they came in, and one that jsonb refuses (a U+0000 escaped
// in a text) fails the whole query that casts it. The second read is narrowed by finished
// alone, and the caller tests the answers itself.
func readNarrowed[T any](q store.ResponseQuery, read func(store.ResponseQuery) ([]T, *store.Cursor, error)) ([]T, *store.Cursor, error) {
	page, next, err := read(q)
	var pe *pgconn.PgError
	if n := q.Narrow; n == nil || len(n.Scores) == 0 && len(n.Choices) == 0 ||
		!errors.As(err, &pe) || !strings.HasPrefix(pe.Code, "22") { // data_exception and its kin
		return page, next, err
	}
	plain := store.Narrowing{Finished: q.Narrow.Finished}
	q.Narrow = &plain
	return read(q)
}
