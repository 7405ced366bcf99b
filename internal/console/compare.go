package console

import (
	"fmt"
	"math"
	"net/http"
	"net/url"
	"strings"

	"github.com/svc-feedback/svc/internal/problem"
	"github.com/svc-feedback/svc/internal/report"
	"github.com/svc-feedback/svc/internal/wire"
	"github.com/svc-feedback/svc/store"
	"github.com/svc-feedback/svc/survey"
)

// Compare: two segments of a survey's responses over one range, side by side. Each segment is
// a filter of the results page's, its parameters after "a." or "b." (a.metadata.plan=pro), and
// each side's figures are the results page's summary through report.Filtered, so that they are
// the page's own figures for that filter, from wherever the store keeps them.

// comparePage is what the Compare page shows.
type comparePage struct {
	Survey    store.Survey
	TimeRange string
	// Ranges are the ranges offered, the one shown among them; Period the range in words.
	Ranges []struct{ Value, Label string }
	Period string
	// Sides are segment A and segment B: their forms, their filters in words, and a problem
	// with a filter that kept the figures from being worked out.
	Sides [2]compareSide
	// Groups are the table's figures, none when a filter has a problem.
	Groups []compareGroup
	// Back is the results page's link, with the range and segment A's filter.
	Back string
}

type compareSide struct {
	Legend  string
	Bar     filterBar
	Words   string
	Problem string
}

// compareGroup is a part of the table under its title: the segments' responses, or a
// question's figures (Question), each row's header then naming the question too.
type compareGroup struct {
	ID, Title string
	Question  bool
	Rows      []compareRow
}

// compareRow is a figure of each segment and the difference, B less A, in its units.
type compareRow struct {
	Label, A, B, Diff string
}

func (rs *Results) compare(w http.ResponseWriter, r *http.Request) {
	pr, err := rs.pageRange(r)
	if err != nil {
		rs.fail(w, r, err)
		return
	}
	choices, err := report.ReadSegmentChoices(r.Context(), rs.store, pr.sv.ID, rs.maxPageBytes)
	if err != nil {
		rs.fail(w, r, err)
		return
	}
	p := comparePage{Survey: pr.sv, TimeRange: pr.tr, Period: periodTextOf(pr.cur)}
	p.Ranges = append(append(p.Ranges, timeRanges...), quarters(rs.now())...)
	if extra := extraRange(pr.tr, p.Ranges, pr.cur); extra != "" {
		p.Ranges = append(p.Ranges, struct{ Value, Label string }{pr.tr, extra})
	}
	var sums [2]report.SummaryPeriod
	status := http.StatusOK
	for i, name := range []string{"A", "B"} {
		fq := filterQuery(sideQuery(pr.q, strings.ToLower(name)+"."))
		side := &p.Sides[i]
		side.Legend, side.Bar, side.Words = "Segment "+name, filterBarOf(pr.sv.Definition, fq), describeFilter(pr.sv.Definition, fq)
		side.Bar.Prefix = strings.ToLower(name) + "."
		withSegments(&side.Bar, choices, fq)
		if i == 0 {
			p.Back = side.Bar.link("../"+pr.sv.ID, pr.tr, "") // from …/surveys/{id}/compare
		}
		f, err := report.ParseFilter(fq, pr.sv.Definition)
		if err == nil {
			sums[i], err = report.Summary(r.Context(), report.Filtered(rs.store, pr.sv, f, rs.maxPageBytes), pr.sv, pr.cur, rs.maxPageBytes)
		}
		if err == nil {
			continue
		}
		if e, known := problem.From(err); known && e.Status == http.StatusBadRequest {
			side.Problem, status = "This segment’s filter cannot be used: "+e.Message+".", http.StatusBadRequest
			continue
		}
		rs.fail(w, r, err)
		return
	}
	if status == http.StatusOK {
		p.Groups = compareGroups(sums[0], sums[1])
	}
	rs.renderStatus(w, r, status, "compare.html", p)
}

// compareLink is the link from a survey's page (…/surveys/{id}) to its Compare, over the range
// tr, with the page's filter fq as segment A.
func compareLink(id, tr string, fq url.Values) string {
	q := url.Values{"timeRange": {tr}}
	for k, vs := range fq {
		q["a."+k] = vs
	}
	return id + "/compare?" + q.Encode()
}

// sideQuery is the part of q after prefix: a segment's filter.
func sideQuery(q url.Values, prefix string) url.Values {
	out := url.Values{}
	for k, vs := range q {
		if name, ok := strings.CutPrefix(k, prefix); ok {
			out[name] = vs
		}
	}
	return out
}

// periodTextOf is a period in words.
func periodTextOf(p report.Period) string {
	return periodText(wire.Time(p.Start), wire.Time(p.End))
}

// compareGroups are the figures of a and b side by side: responses and finished, then each
// rating question's score and each choice question's options' shares.
func compareGroups(a, b report.SummaryPeriod) []compareGroup {
	all := compareGroup{ID: "cmp-responses", Title: "Overall", Rows: []compareRow{
		countRow("Responses", a.Funnel.Started, b.Funnel.Started),
		countRow("Finished", a.Funnel.Finished, b.Funnel.Finished),
		pointsRow("Finished, share of responses", share(a.Funnel.Finished, a.Funnel.Started), share(b.Funnel.Finished, b.Funnel.Started), 1, "%", "percentage points"),
	}}
	groups := []compareGroup{all}
	for i := range a.Questions {
		qa, qb := a.Questions[i], b.Questions[i]
		g := compareGroup{ID: fmt.Sprintf("cmp-q%d", i+1), Title: qa.Title, Question: true, Rows: []compareRow{countRow("Answered", qa.Answered, qb.Answered)}}
		switch qa.Type {
		case survey.TypeRating:
			g.Rows = append(g.Rows, ratingRows(qa, qb)...)
		case survey.TypeSingleSelect, survey.TypeMultiSelect:
			for j := range qa.Options {
				g.Rows = append(g.Rows, pointsRow(qa.Options[j].Value, share(qa.Options[j].Count, qa.Answered), share(qb.Options[j].Count, qb.Answered), 1, "%", "percentage points"))
			}
			if qa.Other != nil && qb.Other != nil {
				g.Rows = append(g.Rows, pointsRow("Other (free text)", share(*qa.Other, qa.Answered), share(*qb.Other, qb.Answered), 1, "%", "percentage points"))
			}
		default:
			continue
		}
		groups = append(groups, g)
	}
	return groups
}

// ratingRows are a rating question's scores: its NPS (an NPS question's), else its CSAT (a
// 5-point scale's) and its average.
func ratingRows(a, b report.QuestionSummary) []compareRow {
	if a.NPS != nil || b.NPS != nil || a.Promoters != nil || b.Promoters != nil {
		return []compareRow{pointsRow("NPS (−100 to 100)", a.NPS, b.NPS, 0, "", "points")}
	}
	var rows []compareRow
	if a.Scale == 5 {
		rows = append(rows, pointsRow("CSAT (share of 4 and 5)", a.CSAT, b.CSAT, 1, "%", "percentage points"))
	}
	return append(rows, pointsRow(fmt.Sprintf("Average score (1 to %d)", a.Scale), a.Average, b.Average, 1, "", ""))
}

// countRow is a count of each segment, and by how many B's is more.
func countRow(label string, a, b int64) compareRow {
	return compareRow{Label: label, A: fmt.Sprint(a), B: fmt.Sprint(b), Diff: signed(float64(b-a), 0, "")}
}

// pointsRow is a figure of each segment written with digits decimals and suffix (nil: none,
// "–"), and the difference of the figures as written, in unit.
func pointsRow(label string, a, b *float64, digits int, suffix, unit string) compareRow {
	row := compareRow{Label: label, A: "–", B: "–", Diff: "–"}
	round := func(v float64) float64 { p := math.Pow(10, float64(digits)); return math.Round(v*p) / p }
	if a != nil {
		row.A = figure(round(*a), digits) + suffix
	}
	if b != nil {
		row.B = figure(round(*b), digits) + suffix
	}
	if a != nil && b != nil {
		row.Diff = signed(round(*b)-round(*a), digits, unit)
	}
	return row
}

// figure writes v with digits decimals, a negative one with a minus sign (as signed does), and
// never as "-0".
func figure(v float64, digits int) string {
	s := fmt.Sprintf("%.*f", digits, v)
	if abs, ok := strings.CutPrefix(s, "-"); ok {
		if strings.Trim(abs, "0.") == "" {
			return abs
		}
		return "−" + abs
	}
	return s
}

// signed writes d with its sign (a minus sign, not a hyphen, which screen readers read as a
// dash) and digits decimals, then unit: "+3 points", "−12.5 percentage points", "0".
func signed(d float64, digits int, unit string) string {
	s := fmt.Sprintf("%.*f", digits, math.Abs(d))
	switch {
	case s == fmt.Sprintf("%.*f", digits, 0.0):
	case d > 0:
		s = "+" + s
	default:
		s = "−" + s
	}
	if unit != "" {
		s += " " + unit
	}
	return s
}

// share is n in per cent of of; nil when of is 0.
func share(n, of int64) *float64 {
	if of <= 0 {
		return nil
	}
	v := 100 * float64(n) / float64(of)
	return &v
}
