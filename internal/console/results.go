package console

import (
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"log/slog"
	"math"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/svc-feedback/svc/internal/problem"
	"github.com/svc-feedback/svc/internal/report"
	"github.com/svc-feedback/svc/internal/reqlog"
	"github.com/svc-feedback/svc/internal/wire"

	"github.com/svc-feedback/svc/internal/hostguard"
	"github.com/svc-feedback/svc/store"
	"github.com/svc-feedback/svc/survey"
)

// Package console serves the pages product people read svc's results in: a team's surveys and
// each one's summary as charts, server-rendered HTML with inline SVG, no script, under a strict
// Content-Security-Policy, answering only the hosts they are served under. An app mounts them
// behind its own admin login (see svc.NewResults). They call package report for what they
// show, as the JSON API does, and share no code with the API's handlers.

//go:embed pages/*.html pages/*.css
var resultsFiles embed.FS

var resultsTemplates = template.Must(template.New("").Funcs(template.FuncMap{
	"bar":    barWidth,
	"pct":    func(v float64) string { return fmt.Sprintf("%.1f", v) },
	"gauge":  func(v float64) string { return fmt.Sprintf("%.1f", (v+100)/2) },
	"date":   func(t wire.Time) string { return time.Time(t).UTC().Format("2 Jan 2006 15:04") },
	"period": periodText,
	"nps":    npsOf,
	"bars":   bars,
	"answers": func(def survey.Definition, data json.RawMessage) []answerRow {
		return answerRows(def, data, answerTextMax)
	},
	"deref": func(v *float64) float64 { return *v },
	// page is what the head of a page needs: its title and the stylesheet's path relative
	// to it (pages sit at the root, one folder down, or, for a response, three).
	"page": func(title, css string) struct{ Title, CSS string } { return struct{ Title, CSS string }{title, css} },
}).ParseFS(resultsFiles, "pages/*.html"))

// resultsCSP allows the page its own stylesheet and nothing else: no script, no inline style.
const resultsCSP = "default-src 'none'; style-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'self'; frame-ancestors 'self'"

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

// Config configures the pages. The zero value is usable.
type Config struct {
	// Logger receives the pages' failures; nil means slog.Default().
	Logger *slog.Logger
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// MaxPageBytes bounds a page of responses by the size of their answers (see
	// store.ResponseQuery.MaxBytes); zero means 4 MiB.
	MaxPageBytes int
	// PageHosts are the hosts the pages answer under; nil means loopback names and addresses
	// only (see svc.Options.PageHosts).
	PageHosts []string
	// AccessLog and OnRequest, when set, are told of every request, as the API's are.
	AccessLog *slog.Logger
	OnRequest func(route string, status int, took time.Duration)
}

// Results serves the results pages of one team.
type Results struct {
	store        store.Store
	teamID       string
	log          *slog.Logger
	now          func() time.Time
	maxPageBytes int
	mux          *http.ServeMux
	hosts        *hostguard.Guard
	observe      reqlog.Observer
}

// NewResults returns the results pages of team teamID over s. Most users call svc.NewResults,
// which checks cfg.PageHosts first; here an invalid one allows loopback only.
func NewResults(s store.Store, teamID string, cfg Config) *Results {
	hosts, err := hostguard.New(cfg.PageHosts)
	if err != nil {
		hosts, _ = hostguard.New(nil)
	}
	rs := &Results{store: s, teamID: teamID, log: cfg.Logger, now: cfg.Now, maxPageBytes: cfg.MaxPageBytes,
		mux: http.NewServeMux(), hosts: hosts}
	if rs.log == nil {
		rs.log = slog.Default()
	}
	if rs.now == nil {
		rs.now = time.Now
	}
	if rs.maxPageBytes <= 0 {
		rs.maxPageBytes = 4 << 20
	}
	rs.observe = reqlog.Observer{Now: rs.now, AccessLog: cfg.AccessLog, OnRequest: cfg.OnRequest}
	rs.mux.HandleFunc("GET /{$}", rs.list)
	rs.mux.HandleFunc("GET /surveys/{surveyId}", rs.survey)
	rs.mux.HandleFunc("GET /surveys/{surveyId}/export", rs.export)
	rs.mux.HandleFunc("GET /surveys/{surveyId}/responses/{responseId}", rs.response)
	rs.mux.HandleFunc("GET /results.css", rs.css)
	// Anything else is the pages' own 404, never the mux's plain text or its redirects.
	rs.mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) { rs.fail(w, r, problem.NotFound("no such page")) })
	return rs
}

// ServeHTTP serves the pages, only under the hosts allowed.
func (rs *Results) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if rs.observe.On() {
		rs.observe.Serve(w, r, rs.serve)
		return
	}
	rs.serve(w, r)
}

func (rs *Results) serve(w http.ResponseWriter, r *http.Request) {
	if !rs.hosts.Allowed(r) {
		hostguard.Refuse(w)
		return
	}
	hd := w.Header()
	hd.Set("Content-Security-Policy", resultsCSP)
	hd.Set("X-Content-Type-Options", "nosniff")
	hd.Set("Referrer-Policy", "same-origin")
	hd.Set("Cache-Control", "no-store")
	if !wire.CanonicalPath(r.URL.Path) {
		// The mux would redirect to the cleaned path; a page that is not where it says is not
		// found.
		rs.fail(w, r, problem.NotFound("no such page"))
		return
	}
	rs.mux.ServeHTTP(w, r)
}

func (rs *Results) css(w http.ResponseWriter, r *http.Request) {
	b, _ := resultsFiles.ReadFile("pages/results.css")
	w.Header().Set("Content-Type", "text/css; charset=utf-8")
	w.Write(b)
}

func (rs *Results) list(w http.ResponseWriter, r *http.Request) {
	var surveys []store.Survey
	var cursor *store.Cursor
	for {
		page, next, err := rs.store.Surveys(r.Context(), rs.teamID, cursor, 100)
		if err != nil {
			rs.fail(w, r, err)
			return
		}
		surveys = append(surveys, page...)
		if next == nil || len(surveys) >= 1000 {
			break
		}
		cursor = next
	}
	// Each survey's lifetime counters: one indexed read each, of at most 1,000 surveys.
	items := make([]surveyItem, 0, len(surveys))
	for _, sv := range surveys {
		st, err := rs.store.Stats(r.Context(), sv.ID)
		if err != nil {
			rs.fail(w, r, err)
			return
		}
		items = append(items, surveyItem{sv, st})
	}
	rs.render(w, r, "list.html", struct{ Surveys []surveyItem }{items})
}

// surveyItem is a survey as the list of surveys shows it.
type surveyItem struct {
	store.Survey
	Stats store.Stats
}

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
	p := surveyPage{Survey: sv, TimeRange: tr, Ranges: append(append([]struct{ Value, Label string }(nil), timeRanges...), quarters(rs.now())...),
		From: cur.Start.UTC().Format(time.DateOnly), To: cur.End.Add(-time.Millisecond).UTC().Format(time.DateOnly)}
	if p.Current, err = report.Summary(r.Context(), rs.store, sv, cur, rs.maxPageBytes); err != nil {
		rs.fail(w, r, err)
		return
	}
	if prev != nil {
		pp, err := report.Summary(r.Context(), rs.store, sv, *prev, rs.maxPageBytes)
		if err != nil {
			rs.fail(w, r, err)
			return
		}
		p.Previous = &pp
	}
	p.Extra = extraRange(tr, p.Ranges, cur)
	p.MaxReach = max(p.Current.Funnel.Views, p.Current.Funnel.Started, 1)
	if err := rs.latest(r, q, sv, cur, &p); err != nil {
		rs.fail(w, r, err)
		return
	}
	rs.render(w, r, "survey.html", p)
}

// surveyOf is the request's {surveyId}, a survey of the team that is not deleted.
func (rs *Results) surveyOf(r *http.Request) (store.Survey, error) {
	id := r.PathValue("surveyId")
	if !store.ValidSurveyID(id) {
		return store.Survey{}, problem.BadRequest(fmt.Sprintf("surveyId %q is not a survey's id", wire.Truncate(id)))
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

// latest reads the page of the range's latest responses that q's cursor asks for (the newest
// without one), and the cursor of the next older page.
func (rs *Results) latest(r *http.Request, q url.Values, sv store.Survey, cur report.Period, p *surveyPage) error {
	cursor, err := wire.ParseCursor(q)
	if err != nil {
		return err
	}
	page, next, err := rs.store.Responses(r.Context(), store.ResponseQuery{SurveyID: sv.ID, Limit: latestPage,
		After: cur.Start, Before: cur.End.Add(-1), Cursor: cursor, MaxBytes: rs.maxPageBytes})
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
	format, err := report.ParseFormat(pr.q)
	if err != nil {
		rs.fail(w, r, err)
		return
	}
	q := store.ResponseQuery{After: pr.cur.Start, Before: pr.cur.End.Add(-1)}
	if err := report.ServeExport(w, r, rs.log, rs.store, pr.sv, format, q, rs.maxPageBytes); err != nil {
		rs.fail(w, r, err)
	}
}

func (rs *Results) render(w http.ResponseWriter, r *http.Request, name string, data any) {
	var b strings.Builder
	if err := resultsTemplates.ExecuteTemplate(&b, name, data); err != nil {
		rs.fail(w, r, err)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Write([]byte(b.String()))
}

// fail answers an error as a page of the results' own look, with its status, what went wrong
// in words for people, and the way back.
func (rs *Results) fail(w http.ResponseWriter, r *http.Request, err error) {
	apiErr, known := problem.From(err)
	if !known {
		rs.log.ErrorContext(r.Context(), "results page failed", "path", r.URL.Path, "err", err)
	}
	// The stylesheet and the list are at the root of the pages, which may be mounted under
	// any prefix: reached relative to this page's depth.
	up := strings.Repeat("../", max(strings.Count(r.URL.Path, "/")-1, 0))
	page := struct{ Title, Message, CSS, Home string }{"Not available", pageMessage(apiErr), up + "results.css", up}
	if page.Home == "" {
		page.Home = "./"
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(apiErr.Status)
	_ = resultsTemplates.ExecuteTemplate(w, "error.html", page)
}

// pageMessage is what the results pages say of an error: the API's words, written for
// developers, in words for the people who read the pages.
func pageMessage(e *problem.Error) string {
	switch {
	case e.Status == http.StatusNotFound:
		return "There is no such survey or page here. It may have been deleted, or the link is wrong."
	case strings.Contains(e.Message, "ends before it starts"):
		return "The last day of that range comes before its first day: pick a first day on or before the last."
	case strings.Contains(e.Message, "first and its last day"):
		return "A range of days needs both its first and its last day."
	case strings.Contains(e.Message, "timeRange"), strings.Contains(e.Message, "custom range"):
		return "That range of days cannot be shown: pick its days again, as year, month and day."
	case strings.Contains(e.Message, "cursor"):
		return "That page of responses is no longer there: start again from the newest."
	case e.Status == http.StatusServiceUnavailable:
		return "The results are busy right now: try again in a moment."
	case e.Status >= 500:
		return "Something went wrong on our side while making this page. It was logged; try again later."
	}
	return "This page cannot be shown: " + e.Message
}

// barWidth is a bar's width in per cent of the widest, at least a sliver for a count above 0.
func barWidth(n, of int64) string {
	if of <= 0 || n <= 0 {
		return "0"
	}
	return fmt.Sprintf("%.1f", math.Max(1, 100*float64(n)/float64(of)))
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
