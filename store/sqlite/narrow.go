package sqlite

import (
	"math"
	"strings"

	"github.com/svc-feedback/svc/store"
	"github.com/svc-feedback/svc/store/internal/sqlrow"
)

// narrow adds the terms of n (store.ResponseQuery.Narrow) to a query of responses, so that
// SQLite leaves out those failing them before their columns cross into Go: a filter that
// picks a tenth of a period's responses read the other nine-tenths in full to drop them.
//
// Each term lets through every response store.Narrowing.Passes would: json_extract gives a
// JSON number as a number, and json_each walks a list's strings, or gives a lone string as
// its one row. A data value that is not valid JSON would make either raise an error, so
// json_valid guards them (the store writes only valid JSON, and Passes picks nothing from
// invalid). A term is left to the caller when its question id could not be written in a
// JSON path, or its bounds are not numbers.
func narrow(sqlq string, args []any, n *store.Narrowing) (string, []any) {
	if n == nil {
		return sqlq, args
	}
	if n.Finished != nil {
		sqlq += ` AND finished = +?`
		args = append(args, *n.Finished)
	}
	var terms []string
	for _, b := range n.Scores {
		if !pathSafe(b.QuestionID) || math.IsNaN(b.Min) || math.IsNaN(b.Max) {
			continue
		}
		terms = append(terms, `json_extract(data, ?) BETWEEN +? AND +?`)
		args = append(args, answerPath(b.QuestionID), sqlrow.Widen(b.Min, -1), sqlrow.Widen(b.Max, 1))
	}
	values := 0
	for _, c := range n.Choices {
		if !pathSafe(c.QuestionID) || len(c.Values) == 0 || values+len(c.Values) > sqlrow.MaxNarrowValues {
			continue
		}
		values += len(c.Values)
		terms = append(terms, `EXISTS (SELECT 1 FROM json_each(data, ?) WHERE value IN (`+
			strings.TrimSuffix(strings.Repeat("+?, ", len(c.Values)), ", ")+`))`)
		args = append(args, answerPath(c.QuestionID))
		for _, v := range c.Values {
			args = append(args, v)
		}
	}
	if len(terms) > 0 {
		sqlq += ` AND json_valid(data) AND ` + strings.Join(terms, ` AND `)
	}
	return sqlq, args
}

// answerPath is the JSON path of the answer to a question.
func answerPath(id string) string { return `$."` + id + `"` }

// pathSafe reports whether a question id can be written in a JSON path as it is: SQLite reads a
// quoted label up to the next double quote, with no escapes.
func pathSafe(id string) bool {
	if id == "" || len(id) > 200 {
		return false
	}
	for _, r := range id {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-' || r == '.') {
			return false
		}
	}
	return true
}
