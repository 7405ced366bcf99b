package console

import (
	"fmt"
	"math"
	"time"

	"github.com/svc-feedback/svc/internal/report"
	"github.com/svc-feedback/svc/internal/wire"
)

// What the templates draw with: bars, the NPS, periods in words.

// barWidth is a bar's width in per cent of the widest, at least a sliver for a count above 0.
func barWidth(n, of int64) string {
	if of <= 0 || n <= 0 {
		return "0"
	}
	return fmt.Sprintf("%.1f", math.Max(1, 100*float64(n)/float64(of)))
}

// barRow is one bar of a chart: its label, count and width.
type barRow struct {
	Label string
	Count int64
	Width string
}

// bars are the bars of a question's chart: its scores, or its options and free text.
func bars(q report.QuestionSummary) []barRow {
	var rows []barRow
	if q.Counts != nil {
		for i, n := range q.Counts.N {
			rows = append(rows, barRow{Label: fmt.Sprint(q.Counts.Low + i), Count: n})
		}
	}
	for _, o := range q.Options {
		rows = append(rows, barRow{Label: o.Value, Count: o.Count})
	}
	if q.Other != nil {
		rows = append(rows, barRow{Label: "Other (free text)", Count: *q.Other})
	}
	var most int64
	for _, r := range rows {
		most = max(most, r.Count)
	}
	for i := range rows {
		rows[i].Width = barWidth(rows[i].Count, most)
	}
	return rows
}

// periodText says when a period is, for people: whole days as days ("20–25 Nov 2026", the end
// being the start of the day after the last), any other as times in UTC.
func periodText(start, end wire.Time) string {
	s, e := time.Time(start).UTC(), time.Time(end).UTC()
	midnight := func(t time.Time) bool { return t.Equal(t.Truncate(24 * time.Hour)) }
	if !midnight(s) || !midnight(e) || !e.After(s) {
		return s.Format("2 Jan 2006 15:04") + " to " + e.Format("2 Jan 2006 15:04") + " (UTC)"
	}
	last := e.AddDate(0, 0, -1)
	switch {
	case last.Equal(s):
		return s.Format("2 Jan 2006")
	case s.Year() != last.Year():
		return s.Format("2 Jan 2006") + " – " + last.Format("2 Jan 2006")
	case s.Month() != last.Month():
		return s.Format("2 Jan") + " – " + last.Format("2 Jan 2006")
	}
	return s.Format("2") + "–" + last.Format("2 Jan 2006")
}

// npsView is what the page shows of an NPS question: the score as a whole number from -100 to
// 100 with its zone, and how many promoters, passives and detractors there were, with their
// shares in per cent.
type npsView struct {
	Score                                       int
	Zone                                        string
	Promoters, Passives, Detractors             int64
	PromoterShare, PassiveShare, DetractorShare string
}

func npsOf(q report.QuestionSummary) npsView {
	var v npsView
	if q.NPS == nil || q.Promoters == nil {
		return v
	}
	v.Score = int(math.Round(*q.NPS))
	switch {
	case v.Score < 0:
		v.Zone = "needs work"
	case v.Score < 50:
		v.Zone = "good"
	default:
		v.Zone = "excellent"
	}
	v.Promoters, v.Passives, v.Detractors = *q.Promoters, *q.Passives, *q.Detractors
	total := float64(max(v.Promoters+v.Passives+v.Detractors, 1))
	share := func(n int64) string { return fmt.Sprintf("%.0f", 100*float64(n)/total) }
	v.PromoterShare, v.PassiveShare, v.DetractorShare = share(v.Promoters), share(v.Passives), share(v.Detractors)
	return v
}
