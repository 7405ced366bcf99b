package console

import (
	"fmt"
	"html/template"
	"net/url"
	"strings"
	"time"

	"github.com/svc-feedback/svc/internal/report"
	"github.com/svc-feedback/svc/store"
	"github.com/svc-feedback/svc/survey"
)

// A survey page's trend (its range bucket by bucket, as charts with their figures as tables)
// and its filter bar (GET parameters of the API's filters, which the summary, the trend, the
// latest responses and the downloads all take).

// trendView is the trend as the page shows it: a chart of the responses, and one of each rating
// question's score, each with the same figures as a table. NotYet says the range has not begun,
// so that there is nothing to chart.
type trendView struct {
	Interval string
	Charts   []trendChart
	NotYet   bool
}

// trendChart is one chart: its heading (and the id the SVG is named by), the SVG, and its
// figures as a table.
type trendChart struct {
	ID, Title string
	SVG       template.HTML
	Head      []string // the table's column headers, the bucket's first
	Rows      []figureRow
}

// figureRow is a bucket's row of a chart's table: its label and figures, "–" for none.
type figureRow struct {
	Label string
	Cells []string
}

// trendInterval picks a range's buckets: days up to two months, weeks up to two years, months
// beyond.
func trendInterval(p report.Period) string {
	switch d := p.End.Sub(p.Start); {
	case d <= 62*24*time.Hour:
		return report.IntervalDay
	case d <= 2*366*24*time.Hour:
		return report.IntervalWeek
	}
	return report.IntervalMonth
}

// trendPeriod is the part of the range p the trend charts: up to now, never a bucket after it;
// false when p has not begun.
func trendPeriod(p report.Period, now time.Time) (report.Period, bool) {
	if p.End.After(now) {
		p.End = now
	}
	return p, p.End.After(p.Start)
}

// trendOf makes the page's view of a trend of the rating questions qs.
func trendOf(t report.Trend, qs []*survey.Question) trendView {
	v := trendView{Interval: t.Interval}
	if len(t.Buckets) == 0 {
		return v
	}
	layout := map[string]string{report.IntervalDay: "2 Jan 2006", report.IntervalWeek: "week of 2 Jan 2006", report.IntervalMonth: "January 2006"}[t.Interval]
	x := xAxis{Interval: t.Interval}
	var responses, finished []int64
	var counts []*float64
	var total, done int64
	for _, b := range t.Buckets {
		start := time.Time(b.Start).UTC()
		x.Starts, x.Labels = append(x.Starts, start), append(x.Labels, start.Format(layout))
		responses, finished = append(responses, b.Responses), append(finished, b.Finished)
		n := float64(b.Responses)
		counts = append(counts, &n)
		total, done = total+b.Responses, done+b.Finished
	}
	head := strings.ToUpper(t.Interval[:1]) + t.Interval[1:]
	per := " per " + t.Interval
	chart := trendChart{ID: "chart-responses", Title: "Responses" + per, Head: []string{head, "Responses", "Finished"}}
	desc := describe("Responses by "+t.Interval, fmt.Sprintf("%d in all, %d finished", total, done), x, counts,
		func(v float64) string { return fmt.Sprintf("%.0f", v) })
	chart.SVG = columnChart(chart.ID, chart.Title, desc, x, responses, finished)
	for i := range t.Buckets {
		chart.Rows = append(chart.Rows, figureRow{Label: x.Labels[i], Cells: []string{fmt.Sprint(responses[i]), fmt.Sprint(finished[i])}})
	}
	v.Charts = append(v.Charts, chart)
	for j, q := range qs {
		m := measureOf(q)
		c := trendChart{ID: fmt.Sprintf("chart-q%d", j+1), Title: m.Name + per + ": “" + q.Title + "”", Head: []string{head, "Answered", m.Name}}
		if m.Average {
			c.Head = append(c.Head, "Average")
		}
		var values []*float64
		for i, b := range t.Buckets {
			var qt report.QuestionTrend
			if j < len(b.Questions) {
				qt = b.Questions[j]
			}
			val := m.value(qt)
			values = append(values, val)
			row := figureRow{Label: x.Labels[i], Cells: []string{fmt.Sprint(qt.Answered), orDash(val, m.Format)}}
			if m.Average {
				row.Cells = append(row.Cells, orDash(qt.Average, averageText))
			}
			c.Rows = append(c.Rows, row)
		}
		c.SVG = lineChart(c.ID, c.Title, describe(m.Name+" by "+t.Interval, "", x, values, m.Format), x, m.Axis, values, m.Format)
		v.Charts = append(v.Charts, c)
	}
	return v
}

// measure is the score a rating question's chart follows: the NPS of an NPS question, the CSAT
// of a 5-point one (its table gives the average too), else the average.
type measure struct {
	Name    string
	Axis    yAxis
	Format  func(float64) string
	value   func(report.QuestionTrend) *float64
	Average bool // the table gives the average beside it
}

func measureOf(q *survey.Question) measure {
	props, _ := q.Properties.(survey.RatingProperties)
	switch {
	case props.Display != nil && *props.Display == survey.DisplayNPS:
		return measure{Name: "NPS", Axis: yAxis{Title: "NPS (−100 to 100)", Min: -100, Max: 100, Ticks: []float64{-100, -50, 0, 50, 100}, Zero: true},
			Format: func(v float64) string { return fmt.Sprintf("%.0f", v) }, value: func(t report.QuestionTrend) *float64 { return t.NPS }}
	case props.Scale == 5:
		return measure{Name: "CSAT", Axis: yAxis{Title: "CSAT (% of 4 and 5)", Min: 0, Max: 100, Ticks: []float64{0, 25, 50, 75, 100}},
			Format: func(v float64) string { return fmt.Sprintf("%.1f%%", v) }, value: func(t report.QuestionTrend) *float64 { return t.CSAT }, Average: true}
	}
	return measure{Name: "Average score", Axis: scoreAxis(fmt.Sprintf("Average score (1 to %d)", props.Scale), 1, max(props.Scale, 2)),
		Format: averageText, value: func(t report.QuestionTrend) *float64 { return t.Average }}
}

func averageText(v float64) string { return fmt.Sprintf("%.1f", v) }

// orDash is a figure in words, "–" when there is none.
func orDash(v *float64, format func(float64) string) string {
	if v == nil {
		return "–"
	}
	return format(*v)
}

// filterBar is the filter form: a choice per select question, a score range per rating, the
// segments (segments.go) and finished; with the values the page was asked for.
type filterBar struct {
	Choices  []filterChoice
	Ratings  []filterRating
	Segments []filterSegment
	Finished string
	// Prefix goes before every control's name: "a." and "b." for Compare's two segments.
	Prefix string
	// Note says where the segments' values come from, when not from every response.
	Note string
	// Query is the filter as query parameters, each after an "&", for the page's links
	// (downloads, pages); Active says a filter is applied.
	Query  string
	Active bool
}

// link is a survey page's link with the page's range and filter: path, then "?timeRange=…",
// then extra (query parameters, each after an "&"), then the filter.
func (fb filterBar) link(path, timeRange, extra string) string {
	return path + "?timeRange=" + url.QueryEscape(timeRange) + extra + fb.Query
}

type filterChoice struct {
	Name, Label, Value string
	Options            []string
}

type filterRating struct {
	Label, MinName, MaxName, Min, Max string
	Low, High                         int
}

// filterQuery keeps the query's filter parameters that hold a value: the form sends its
// empty controls too, which mean "any".
func filterQuery(q url.Values) url.Values {
	out := url.Values{}
	for k, vs := range q {
		if k != "finished" && k != "language" && k != "page" && !strings.HasPrefix(k, "answer.") && !strings.HasPrefix(k, "metadata.") {
			continue
		}
		for _, v := range vs {
			if v != "" {
				out.Add(k, v)
			}
		}
	}
	return out
}

// filterBarOf makes the form for a survey's questions and the filter asked for.
func filterBarOf(def survey.Definition, fq url.Values) filterBar {
	fb := filterBar{Finished: fq.Get("finished"), Active: len(fq) > 0}
	if len(fq) > 0 {
		fb.Query = "&" + fq.Encode()
	}
	if def.Languages != nil {
		// The language a person answered in: a translated survey's results, one language at a time.
		fb.Choices = append(fb.Choices, filterChoice{Name: "language", Label: "Language", Value: fq.Get("language"), Options: def.Languages.Tags()})
	}
	for i := range def.Questions {
		q := &def.Questions[i]
		name := "answer." + q.ID
		switch props := q.Properties.(type) {
		case survey.SingleSelectProperties:
			fb.Choices = append(fb.Choices, filterChoice{Name: name, Label: "Answer to “" + q.Title + "”", Value: fq.Get(name), Options: optionValues(props.Options)})
		case survey.MultiSelectProperties:
			fb.Choices = append(fb.Choices, filterChoice{Name: name, Label: "Answer to “" + q.Title + "”", Value: fq.Get(name), Options: optionValues(props.Options)})
		case survey.RatingProperties:
			low := 1
			if props.Display != nil && *props.Display == survey.DisplayNPS {
				low = 0
			}
			fb.Ratings = append(fb.Ratings, filterRating{Label: q.Title, MinName: name + ".min", MaxName: name + ".max",
				Min: fq.Get(name + ".min"), Max: fq.Get(name + ".max"), Low: low, High: props.Scale})
		}
	}
	return fb
}

func optionValues(options []survey.Option) []string {
	out := make([]string, 0, len(options))
	for _, o := range options {
		out = append(out, o.Value)
	}
	return out
}

// pageFilter reads the filter a survey page is asked for.
func pageFilter(q url.Values, sv store.Survey) (report.Filter, url.Values, error) {
	fq := filterQuery(q)
	f, err := report.ParseFilter(fq, sv.Definition)
	return f, fq, err
}
