package report

import (
	"fmt"
	"math"
	"slices"

	"github.com/svc-feedback/svc/store"
	"github.com/svc-feedback/svc/survey"
)

// MoreSummary is what a summary shows of the question types beyond the first six, from the
// counts the store keeps on write (store/morecounts.go): a matrix's counts per row and column,
// a ranking's average rank per option, a date's counts per month, and a consent's or a call to
// action's rate. A contact question's answers are in the exports only.
type MoreSummary struct {
	// Matrix holds a matrix's rows, in order, each with its columns' counts in order.
	Matrix []MatrixRowCount `json:"matrix,omitempty"`
	// Ranking holds a ranking's options, in the question's order, with how many ranked each
	// and its average rank among them (1 is first).
	Ranking []RankCount `json:"ranking,omitempty"`
	// Months holds a date question's answers by month ("2026-03"), the months with answers
	// in order.
	Months []MonthCount `json:"months,omitempty"`
	// Rate is, for a consent, the per cent of those who reached it that agreed; for a call to
	// action, the per cent of those who reached it that clicked. Absent when none reached it.
	Rate *float64 `json:"rate,omitempty"`
	// Clicked and Dismissed count a call to action's answers.
	Clicked   *int64 `json:"clicked,omitempty"`
	Dismissed *int64 `json:"dismissed,omitempty"`
}

// MatrixRowCount is one row of a matrix: its value, and how many chose each column for it.
type MatrixRowCount struct {
	Value   string        `json:"value"`
	Columns []OptionCount `json:"columns"`
}

// RankCount is one option of a ranking: how many ranked it, and its average rank then.
type RankCount struct {
	Value       string   `json:"value"`
	Count       int64    `json:"count"`
	AverageRank *float64 `json:"averageRank"`
}

// MonthCount is how many date answers fall in one month, written "YYYY-MM".
type MonthCount struct {
	Month string `json:"month"`
	Count int64  `json:"count"`
}

// moreSummaryKey reports whether q's summary reads the counts under its OptionKey.
func moreSummaryKey(q *survey.Question) bool {
	switch q.Type() {
	case survey.TypeMatrix, survey.TypeRanking, survey.TypeDate, survey.TypeCTA:
		return true
	}
	return false
}

// moreSummary fills qs, a question of the types above, from counts, its OptionKey's.
func moreSummary(qs *QuestionSummary, q *survey.Question, counts map[int]int64) {
	switch p := q.Properties.(type) {
	case survey.MatrixProperties:
		qs.Matrix = make([]MatrixRowCount, len(p.Rows))
		for i, r := range p.Rows {
			cols := make([]OptionCount, len(p.Columns))
			for j, c := range p.Columns {
				cols[j] = OptionCount{c.Value, counts[store.MatrixNumber(r.Value, c.Value)]}
			}
			qs.Matrix[i] = MatrixRowCount{r.Value, cols}
		}
	case survey.RankingProperties:
		qs.Ranking = rankCounts(p.Options, counts)
	case survey.DateProperties:
		qs.Months = monthCounts(counts)
	case survey.ConsentProperties:
		qs.Rate = percentOf(qs.Answered, qs.Reached)
	case survey.CTAProperties:
		clicked, dismissed := counts[store.OptionNumber(survey.CTAClicked)], counts[store.OptionNumber(survey.CTADismissed)]
		qs.Clicked, qs.Dismissed = &clicked, &dismissed
		qs.Rate = percentOf(clicked, qs.Reached)
	}
}

func rankCounts(options []survey.Choice, counts map[int]int64) []RankCount {
	out := make([]RankCount, len(options))
	for i, o := range options {
		var n, sum int64
		for rank := 1; rank <= len(options); rank++ {
			c := counts[store.RankNumber(o.Value, rank)]
			n += c
			sum += c * int64(rank)
		}
		out[i] = RankCount{Value: o.Value, Count: n}
		if n > 0 {
			avg := math.Round(100*float64(sum)/float64(n)) / 100
			out[i].AverageRank = &avg
		}
	}
	return out
}

func monthCounts(counts map[int]int64) []MonthCount {
	months := make([]int, 0, len(counts))
	for n, c := range counts {
		if c > 0 && n >= 0 {
			months = append(months, n)
		}
	}
	slices.Sort(months)
	out := make([]MonthCount, len(months))
	for i, n := range months {
		y, m := store.DateMonth(n)
		out[i] = MonthCount{fmt.Sprintf("%04d-%02d", y, m), counts[n]}
	}
	return out
}

// percentOf is n of total in per cent, to one decimal; nil when total is 0.
func percentOf(n, total int64) *float64 {
	if total <= 0 {
		return nil
	}
	v := math.Round(1000*float64(n)/float64(total)) / 10
	return &v
}
