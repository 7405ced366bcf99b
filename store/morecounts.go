package store

import (
	"maps"
	"slices"
	"strconv"

	"github.com/svc-feedback/svc/survey"
)

// The counts of the question types beyond the first six are kept under the question's
// OptionKey, like a select question's choices, numbered so that a summary reads them back
// without the answers:
//   - a matrix's answers by MatrixNumber of each row and the column chosen for it;
//   - a ranking's by RankNumber of each option ranked and its rank;
//   - a date's by DateNumber of its month;
//   - a call to action's by OptionNumber of "clicked" or "dismissed".
//
// A consent is counted by AnsweredKey alone, since its answer is always true.

// MatrixNumber is the number a matrix's answer of column for row is counted under.
func MatrixNumber(row, column string) int { return OptionNumber(row + "\x1f" + column) }

// RankNumber is the number a ranking's option ranked at rank (1 the first) is counted under.
func RankNumber(value string, rank int) int { return OptionNumber(value + "\x1f" + strconv.Itoa(rank)) }

// DateNumber is the number a date answer is counted under: its month, as months since year 0.
func DateNumber(year, month int) int { return year*12 + month - 1 }

// DateMonth is the year and month a DateNumber counts.
func DateMonth(n int) (year, month int) { return n / 12, n%12 + 1 }

// moreCounts lists what the answer a to q, a question of the types above, adds to the counts.
func moreCounts(q *survey.Question, a survey.Answer) []Count {
	key := OptionKey(q.ID)
	var out []Count
	switch q.Type() {
	case survey.TypeMatrix:
		f, _ := survey.AsFields(a)
		for _, row := range slices.Sorted(maps.Keys(f)) { // in order, as every list of counts is
			out = append(out, Count{key, MatrixNumber(row, f[row])})
		}
	case survey.TypeRanking:
		list, _ := a.(survey.Choices)
		for i, v := range list {
			out = append(out, Count{key, RankNumber(v, i+1)})
		}
	case survey.TypeDate:
		if s, ok := a.(survey.Text); ok {
			if t, ok := survey.ParseDate(string(s)); ok {
				out = append(out, Count{key, DateNumber(t.Year(), int(t.Month()))})
			}
		}
	case survey.TypeCTA:
		if s, ok := a.(survey.Text); ok {
			out = append(out, Count{key, OptionNumber(string(s))})
		}
	}
	return out
}
