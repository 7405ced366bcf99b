package console

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/svc-feedback/svc/internal/problem"
	"github.com/svc-feedback/svc/internal/report"
	"github.com/svc-feedback/svc/internal/wire"
	"github.com/svc-feedback/svc/store"
)

// A survey's page: its summary over a time range and the period before, its latest
// responses ten at a time, and the download of the range's responses.

// surveyPage is what the survey page shows.
type surveyPage struct {
	Survey    store.Survey
	TimeRange string
	Ranges    []struct{ Value, Label string }
	// From and To fill the custom range's form: the first and last day shown.
	From, To string
	// Extra is the label of the range shown when no chip of Ranges is it (a custom range, an
	// older quarter), shown as one more chip, the current one.
	Extra    string
	Current  report.SummaryPeriod
	Previous *report.SummaryPeriod
	MaxReach int64
	Latest   []store.Response
	// Older is the cursor of the next older page of the latest responses, if any; Paged says
	// the page is not the newest.
	Older string
	Paged bool
	// Trend is the range bucket by bucket; Filter the filter bar.
	Trend  trendView
	Filter filterBar
	// Sheets offers the download as an xlsx file.
	Sheets bool
	// Editable says the page is the console's, which edits surveys.
	Editable bool
	// Compare is the link to Compare, the page's filter its segment A.
	Compare string
	// Reading says how the filter is read (declare.go); Token and Back are the declare form's
	// (the console's form token, and this page's query to come back to); Declared says a
	// segment was declared just now.
	Reading  *reading
	Token    string
	Back     string
	Declared bool
}

// latestPage is how many responses the results page lists at a time.
const latestPage = 10

// pageRange is the survey and the range a survey page's query asks for (the API's timeRange,
// or the custom range form's days), with the query as the API reads it.
type pageRange struct {
	q    url.Values
	sv   store.Survey
	tr   string
	cur  report.Period
	prev *report.Period
}

func (rs *Results) pageRange(r *http.Request) (pageRange, error) {
	q, err := customRange(r.URL.Query())
	if err != nil {
		return pageRange{}, err
	}
	tr, err := wire.Query(q, "timeRange")
	if err != nil {
		return pageRange{}, err
	}
	sv, err := rs.surveyOf(r)
	if err != nil {
		return pageRange{}, err
	}
	cur, prev, err := report.Range(tr, rs.now(), sv.CreatedAt)
	if tr == "" {
		tr = "all-time"
	}
	return pageRange{q, sv, tr, cur, prev}, err
}

func (rs *Results) survey(w http.ResponseWriter, r *http.Request) {
	pr, err := rs.pageRange(r)
	if err != nil {
		rs.fail(w, r, err)
		return
	}
	q, sv, tr, cur, prev := pr.q, pr.sv, pr.tr, pr.cur, pr.prev
	f, fq, err := pageFilter(q, sv)
	if err != nil {
		rs.fail(w, r, err)
		return
	}
	choices, err := report.ReadSegmentChoices(r.Context(), rs.store, sv.ID, rs.maxPageBytes)
	if err != nil {
		rs.fail(w, r, err)
		return
	}
	st := report.Filtered(rs.store, sv, f, rs.maxPageBytes)
	p := surveyPage{Survey: sv, TimeRange: tr, Ranges: append(append([]struct{ Value, Label string }(nil), timeRanges...), quarters(rs.now())...),
		From: cur.Start.UTC().Format(time.DateOnly), To: cur.End.Add(-time.Millisecond).UTC().Format(time.DateOnly),
		Filter: filterBarOf(sv.Definition, fq), Editable: rs.token != "", Sheets: rs.sheets != nil}
	if p.Current, err = report.Summary(r.Context(), st, sv, cur, rs.maxPageBytes); err != nil {
		rs.fail(w, r, err)
		return
	}
	if p.Trend, err = rs.trend(r, st, sv, cur); err != nil {
		rs.fail(w, r, err)
		return
	}
	if prev != nil {
		pp, err := report.Summary(r.Context(), st, sv, *prev, rs.maxPageBytes)
		if err != nil {
			rs.fail(w, r, err)
			return
		}
		p.Previous = &pp
	}
	if p.Reading, err = rs.readingOf(r.Context(), sv, f, cur); err != nil {
		rs.fail(w, r, err)
		return
	}
	p.Token, p.Back, p.Declared = rs.token, r.URL.RawQuery, q.Get("declared") == "1"
	withSegments(&p.Filter, choices, fq)
	p.Compare = compareLink(sv.ID, tr, fq)
	p.Extra = extraRange(tr, p.Ranges, cur)
	p.MaxReach = max(p.Current.Funnel.Views, p.Current.Funnel.Started, 1)
	if err := rs.latest(r, q, sv, f, cur, &p); err != nil {
		rs.fail(w, r, err)
		return
	}
	rs.render(w, r, "survey.html", p)
}

// trend is the range's trend of every rating question, by the interval that suits its length,
// up to now: no bucket after it (see trendPeriod).
func (rs *Results) trend(r *http.Request, st store.Store, sv store.Survey, cur report.Period) (trendView, error) {
	qs, err := report.TrendQuestions(sv, nil)
	if err != nil {
		return trendView{}, err
	}
	p, begun := trendPeriod(cur, rs.now())
	if !begun {
		return trendView{Interval: trendInterval(cur), NotYet: true}, nil
	}
	t, err := report.Trends(r.Context(), st, sv, p, trendInterval(cur), qs)
	return trendOf(t, qs), err
}

// surveyOf is the request's {surveyId}, a survey of the team that is not deleted.
func (rs *Results) surveyOf(r *http.Request) (store.Survey, error) {
	id, err := surveyIDOf(r)
	if err != nil {
		return store.Survey{}, err
	}
	sv, err := rs.store.Survey(r.Context(), rs.teamID, id)
	if err == nil && sv.Status == store.StatusDeleted {
		err = store.ErrNotFound
	}
	if errors.Is(err, store.ErrNotFound) {
		return store.Survey{}, problem.NotFound("survey not found")
	}
	return sv, err
}

// surveyIDOf is the request's {surveyId}, when it is one.
func surveyIDOf(r *http.Request) (string, error) {
	id := r.PathValue("surveyId")
	if !store.ValidSurveyID(id) {
		return "", problem.BadRequest(fmt.Sprintf("surveyId %q is not a survey's id", wire.Truncate(id)))
	}
	return id, nil
}

// latest reads the page of the range's latest responses that q's cursor asks for (the newest
// without one), and the cursor of the next older page.
func (rs *Results) latest(r *http.Request, q url.Values, sv store.Survey, f report.Filter, cur report.Period, p *surveyPage) error {
	cursor, err := wire.ParseCursor(q)
	if err != nil {
		return err
	}
	page, next, err := report.FilteredResponses(r.Context(), rs.store, store.ResponseQuery{SurveyID: sv.ID, Limit: latestPage,
		After: cur.Start, Before: cur.End.Add(-1), Cursor: cursor, MaxBytes: rs.maxPageBytes}, f)
	if err != nil {
		return err
	}
	p.Latest, p.Paged = page, cursor != nil
	if next != nil {
		p.Older = *wire.EncodeCursor(next)
	}
	return nil
}

// export downloads the responses of the range a survey page shows, as the management API's
// export does (format=csv, the default, or ndjson).
func (rs *Results) export(w http.ResponseWriter, r *http.Request) {
	pr, err := rs.pageRange(r)
	if err != nil {
		rs.fail(w, r, err)
		return
	}
	o, err := report.ParseExport(pr.q, rs.sheets)
	if err != nil {
		rs.fail(w, r, err)
		return
	}
	o.Link = func(id string) string { return responsePageURL(r, id) }
	if o.Filter, _, err = pageFilter(pr.q, pr.sv); err != nil {
		rs.fail(w, r, err)
		return
	}
	q := store.ResponseQuery{After: pr.cur.Start, Before: pr.cur.End.Add(-1)}
	if err := report.ServeExport(w, r, rs.log, rs.store, pr.sv, o, q, rs.maxPageBytes); err != nil {
		rs.fail(w, r, err)
	}
}

// responsePageURL is the address of a response's page, which shows its screenshot, as the
// browser that asked for the export reaches the pages: from the export's own address, whatever
// prefix the app mounts the pages under.
func responsePageURL(r *http.Request, id string) string {
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	path, _, _ := strings.Cut(r.RequestURI, "?")
	return scheme + "://" + r.Host + strings.TrimSuffix(path, "/export") + "/responses/" + url.PathEscape(id)
}

// timeRanges are the ranges the results page offers, with their labels.
var timeRanges = []struct{ Value, Label string }{
	{"all-time", "All time"}, {"last-7-days", "Last 7 days"}, {"last-30-days", "Last 30 days"},
}

// customRange turns the custom range form's from and to (days, as a date input sends them) into
// the timeRange the API takes.
func customRange(q url.Values) (url.Values, error) {
	from, err := wire.Query(q, "from")
	if err != nil {
		return nil, err
	}
	to, err := wire.Query(q, "to")
	if err != nil {
		return nil, err
	}
	if q.Has("timeRange") || (from == "" && to == "") {
		return q, nil
	}
	if from == "" || to == "" {
		return nil, problem.BadRequest("a custom range needs its first and its last day")
	}
	q.Set("timeRange", "custom_"+from+"_"+to)
	return q, nil
}

// extraRange is the chip of a range that none of ranges is: "Custom: 20–25 Nov 2026" for a
// custom range, "Q1 2025" for a quarter the chips do not list; "" when a chip is the range.
func extraRange(tr string, ranges []struct{ Value, Label string }, cur report.Period) string {
	for _, r := range ranges {
		if r.Value == tr {
			return ""
		}
	}
	var q, year int
	if _, err := fmt.Sscanf(tr, "q%d-%d", &q, &year); err == nil {
		return fmt.Sprintf("Q%d %d", q, year)
	}
	return "Custom: " + periodText(wire.Time(cur.Start), wire.Time(cur.End))
}

// quarters are this quarter and the one before, as the picker offers them.
func quarters(now time.Time) []struct{ Value, Label string } {
	now = now.UTC()
	q, year := (int(now.Month())-1)/3+1, now.Year()
	var out []struct{ Value, Label string }
	for range 2 {
		v := fmt.Sprintf("q%d-%d", q, year)
		out = append(out, struct{ Value, Label string }{v, fmt.Sprintf("Q%d %d", q, year)})
		if q--; q == 0 {
			q, year = 4, year-1
		}
	}
	return out
}
