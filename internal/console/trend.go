package console

import (
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/svc-feedback/svc/internal/report"
	"github.com/svc-feedback/svc/store"
	"github.com/svc-feedback/svc/survey"
)

// A survey page's trend (its range bucket by bucket, as a table and bars) and its filter bar
// (GET parameters of the API's filters, which the summary, the trend, the latest responses and
// the downloads all take).

// trendView is the trend as the page shows it.
type trendView struct {
	Interval  string // "day", "week" or "month"
	Questions []string
	Rows      []trendRow
}

// trendRow is one bucket: its label, responses (and their bar's width) and each rating
// question's score (the NPS for an NPS question, else the average), "–" when none answered.
type trendRow struct {
	Label     string
	Responses int64
	Width     string
	Scores    []string
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

// trendOf makes the page's view of a trend.
func trendOf(t report.Trend, qs []*survey.Question) trendView {
	v := trendView{Interval: t.Interval}
	for _, q := range qs {
		v.Questions = append(v.Questions, q.Title)
	}
	var most int64 = 1
	for _, b := range t.Buckets {
		most = max(most, b.Responses)
	}
	layout := map[string]string{report.IntervalDay: "2 Jan 2006", report.IntervalWeek: "week of 2 Jan 2006", report.IntervalMonth: "January 2006"}[t.Interval]
	for _, b := range t.Buckets {
		row := trendRow{Label: time.Time(b.Start).UTC().Format(layout), Responses: b.Responses, Width: barWidth(b.Responses, most)}
		for _, q := range b.Questions {
			switch {
			case q.NPS != nil:
				row.Scores = append(row.Scores, fmt.Sprintf("NPS %.0f", *q.NPS))
			case q.Average != nil:
				row.Scores = append(row.Scores, fmt.Sprintf("%.1f", *q.Average))
			default:
				row.Scores = append(row.Scores, "–")
			}
		}
		v.Rows = append(v.Rows, row)
	}
	return v
}

// filterBar is the filter form: a choice per select question, a score range per rating, and
// finished; with the values the page was asked for.
type filterBar struct {
	Choices  []filterChoice
	Ratings  []filterRating
	Finished string
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
		if k != "finished" && k != "language" && !strings.HasPrefix(k, "answer.") && !strings.HasPrefix(k, "metadata.") {
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
