package console

import (
	"embed"
	"encoding/json"
	"fmt"
	"html/template"
	"log/slog"
	"net/http"
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

//go:embed pages/*.html pages/*.css pages/*.js
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
	// link is a survey page's link keeping its range and filter (see filterBar.link).
	"link": func(fb filterBar, path, timeRange, extra string) string { return fb.link(path, timeRange, extra) },
	// page is what the head of a page needs: its title and the stylesheet's path relative
	// to it (pages sit at the root, one folder down, or, for a response, three).
	"page": func(title, css string) struct{ Title, CSS string } { return struct{ Title, CSS string }{title, css} },
}).ParseFS(resultsFiles, "pages/*.html"))

// resultsCSP allows the page its own stylesheet and nothing else: no script, no inline style.
const resultsCSP = "default-src 'none'; style-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'self'; frame-ancestors 'self'"

// previewCSP is the editor's: its own scripts too (the widget, for the preview, and the editor's
// script, which posts the form to the console itself to change it in place), still no inline
// script or style.
const previewCSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'self'"

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
	// Spreadsheets, when set, writes the download for a spreadsheet as an xlsx file too.
	Spreadsheets report.Spreadsheet
	// Audience says the app decides in code who may see a survey (svc.Options.Audience): the
	// console's "Check who sees it", which cannot ask it, then says its answer depends on it too.
	Audience bool
	// BaseURL is the absolute URL svc's handler (its link pages, /s/, and widget.js) is served
	// at (svc.Options.BaseURL): the console's Share page starts its links and the widget's
	// snippet with it. Empty means the root of the host the console is reached at (share.go).
	BaseURL string
}

// Results serves the results pages of one team.
type Results struct {
	store        store.Store
	teamID       string
	log          *slog.Logger
	now          func() time.Time
	maxPageBytes int
	sheets       report.Spreadsheet
	mux          *http.ServeMux
	hosts        *hostguard.Guard
	observe      reqlog.Observer
	// token is the console's form token (see write.go); empty for the read-only pages.
	token string
	// audience is Config.Audience.
	audience bool
	// baseURL is Config.BaseURL, without a trailing slash.
	baseURL string
}

// NewResults returns the results pages of team teamID over s. Most users call svc.NewResults,
// which checks cfg.PageHosts first; here an invalid one allows loopback only.
func NewResults(s store.Store, teamID string, cfg Config) *Results {
	hosts, err := hostguard.New(cfg.PageHosts)
	if err != nil {
		hosts, _ = hostguard.New(nil)
	}
	rs := &Results{store: s, teamID: teamID, log: cfg.Logger, now: cfg.Now, maxPageBytes: cfg.MaxPageBytes,
		sheets: cfg.Spreadsheets, mux: http.NewServeMux(), hosts: hosts, audience: cfg.Audience}
	rs.baseURL = strings.TrimRight(cfg.BaseURL, "/")
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
	rs.mux.HandleFunc("GET /surveys/{surveyId}/compare", rs.compare)
	rs.mux.HandleFunc("GET /surveys/{surveyId}/responses/{responseId}", rs.response)
	rs.mux.HandleFunc("GET /surveys/{surveyId}/answers/{questionId}", rs.answers)
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
	if !rs.hosts.Admit(w, r) {
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

// The list of surveys, rs.list, is in listtable.go.

func (rs *Results) render(w http.ResponseWriter, r *http.Request, name string, data any) {
	rs.renderStatus(w, r, http.StatusOK, name, data)
}

// renderStatus renders a page with a status other than 200 (a form shown again with what to
// change, 422).
func (rs *Results) renderStatus(w http.ResponseWriter, r *http.Request, status int, name string, data any) {
	var b strings.Builder
	if err := resultsTemplates.ExecuteTemplate(&b, name, data); err != nil {
		rs.fail(w, r, err)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
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
	case e.Status == http.StatusForbidden:
		return "That change was refused: " + e.Message + " Go back to the console's page, reload it, and try again."
	case e.Status == http.StatusServiceUnavailable:
		return "The results are busy right now: try again in a moment."
	case e.Status >= 500:
		return "Something went wrong on our side while making this page. It was logged; try again later."
	}
	return "This page cannot be shown: " + e.Message
}
