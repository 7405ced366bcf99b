package main

import (
	"bytes"
	"context"
	"embed"
	"fmt"
	"html/template"
	"net/http"
	"net/url"
	"time"

	"github.com/svc-feedback/svc/store"
)

// The demo page plays an app that embeds the widget: its script calls Svc.init for a visitor of
// its own, so that a survey published with display rules (in the console, or through the
// management API) appears on it as it would in the app, and a button opens the demo survey.

//go:embed demo/page.html demo/page.js demo/page.css
var demoFiles embed.FS

var demoTemplate = template.Must(template.ParseFS(demoFiles, "demo/page.html"))

// The paths of the demo page's script and style, served beside the page.
const (
	demoScriptPath = "/demo/page.js"
	demoStylePath  = "/demo/page.css"
)

// demoCSP is the demo page's Content-Security-Policy: the strict policy the widget is made to
// work under, so that the page shows it does; nothing inline, everything from this server.
const demoCSP = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
	"base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

// demoPageInfo is one of the demo's pages: the value of its ?page= and its title.
type demoPageInfo struct{ Name, Title string }

// Href is the page's address, which is also what a display rule's URL matches it as.
func (p demoPageInfo) Href() string {
	if p.Name == "" {
		return "/"
	}
	return "/?page=" + url.QueryEscape(p.Name)
}

// demoPages are the pages the demo plays, for URL rules to tell apart: real addresses, loaded
// as pages, so that they work without script too.
var demoPages = []demoPageInfo{{"", "Home"}, {"pricing", "Pricing"}, {"account", "Account"}}

// isDemoPath reports whether the demo page answers path: the page, its script and its style.
func isDemoPath(path string) bool {
	return path == "/" || path == demoScriptPath || path == demoStylePath
}

// demoPageData is what the page's template is given.
type demoPageData struct {
	SurveyID, Key string
	Page          demoPageInfo
	Pages         []demoPageInfo
	// Console tells whether the server serves the demo team's console at /console/.
	Console  bool
	NotFound bool
}

// demoPage returns the demo page, served at / (with ?page= for its other pages) when the server
// runs on its demo data, with its script and style; console tells whether the demo team's
// console is served at /console/, for the page to link to it.
//
// The demo survey opens from the page's button (Svc.show), not by itself: the demo data gives
// it no display rules, and a survey without them is never picked by next-survey, so Svc.init
// leaves it alone. Rules a person gives it later in the console hold as any survey's.
func demoPage(ctx context.Context, s store.Store, console bool) (http.Handler, error) {
	sv, err := demoSurvey(ctx, s)
	if err != nil {
		return nil, err
	}
	key, err := demoPageKey(ctx, s, sv, time.Now().UTC())
	if err != nil {
		return nil, err
	}
	script, err := demoFiles.ReadFile("demo/page.js")
	if err != nil {
		return nil, fmt.Errorf("the demo page's script: %w", err)
	}
	style, err := demoFiles.ReadFile("demo/page.css")
	if err != nil {
		return nil, fmt.Errorf("the demo page's style: %w", err)
	}
	base := demoPageData{SurveyID: sv.ID, Key: key, Pages: demoPages, Console: console}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Content-Type-Options", "nosniff")
		switch r.URL.Path {
		case demoScriptPath:
			serveDemoAsset(w, "text/javascript; charset=utf-8", script)
		case demoStylePath:
			serveDemoAsset(w, "text/css; charset=utf-8", style)
		default:
			serveDemoPage(w, r, base)
		}
	}), nil
}

// serveDemoAsset writes the page's script or style. They change only with the program, but a
// browser revalidates them, so a page after an upgrade never runs an older script.
func serveDemoAsset(w http.ResponseWriter, contentType string, body []byte) {
	w.Header().Set("Content-Type", contentType)
	w.Header().Set("Cache-Control", "no-cache")
	_, _ = w.Write(body)
}

// serveDemoPage writes the page ?page= names; a name the demo has no page for, or a query that
// does not parse, gets a 404 page that links to those it has.
func serveDemoPage(w http.ResponseWriter, r *http.Request, data demoPageData) {
	status := http.StatusOK
	data.Page, data.NotFound = demoPageInfo{Title: "No such page"}, true
	if q, err := url.ParseQuery(r.URL.RawQuery); err == nil {
		for _, p := range demoPages {
			if p.Name == q.Get("page") {
				data.Page, data.NotFound = p, false
			}
		}
	}
	if data.NotFound {
		status = http.StatusNotFound
	}
	var b bytes.Buffer
	if err := demoTemplate.Execute(&b, data); err != nil {
		// The template is the program's own and its data plain strings: this is a defect.
		http.Error(w, "the demo page could not be written", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Content-Security-Policy", demoCSP)
	w.WriteHeader(status)
	_, _ = w.Write(b.Bytes())
}
