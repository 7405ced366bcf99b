// Package linkpage writes the pages of link surveys (docs/languages-and-links.md): the page that
// shows a survey with the widget inline, for a link in an e-mail or a chat, and the pages that
// say why a link shows no survey. The checks and the answers are the API's; this package only
// writes HTML, its stylesheet and its script, under a strict Content-Security-Policy.
package linkpage

import (
	"bytes"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"encoding/json"
	"html/template"
	"log/slog"
	"net/http"
	"time"
)

//go:embed page.html link.css link.js
var files embed.FS

var page = template.Must(template.ParseFS(files, "page.html"))

// CSP is the pages' Content-Security-Policy: their own script and stylesheet, and the API
// beside them; no inline code, no frames, no form posts.
const CSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
	"base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

// Page is one page: a survey to answer (Survey set) or a message (Heading and Message).
type Page struct {
	Status int
	// Lang and RightToLeft are the page's language and direction.
	Lang        string
	RightToLeft bool
	// Title is the page's title: the survey's, or the message's heading.
	Title   string
	Message string
	Survey  *Survey
	// RetryAfter, when set, is the page's Retry-After header: whole seconds, for a 429.
	RetryAfter string
}

// Survey is what the page's script hands the widget.
type Survey struct {
	ID string
	// Key stands in for a publishable key: the link's grant.
	Key string
	// Respondent and ResponseID are the signed link's person and response; empty on an
	// anonymous page, whose browser makes its own.
	Respondent, ResponseID string
	Language               string
	// Answers are the answers given already, by this link or a prefill in it: the widget
	// starts at the first question they leave.
	Answers json.RawMessage
	// Thanks and Dismissed are what the page says once the survey closes, in its language.
	Thanks, Dismissed string
}

// Write writes p with the headers every page has: never cached (a link is personal), never
// indexed, never framed, never sending its address (its signature) on.
func Write(w http.ResponseWriter, log *slog.Logger, p Page) {
	var buf bytes.Buffer
	if err := page.Execute(&buf, p); err != nil {
		log.Error("link page", "err", err)
		http.Error(w, "the page could not be written", http.StatusInternalServerError)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Content-Security-Policy", CSP)
	h.Set("Cache-Control", "no-store")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("X-Robots-Tag", "noindex")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("X-Frame-Options", "DENY")
	if p.RetryAfter != "" {
		h.Set("Retry-After", p.RetryAfter)
	}
	w.WriteHeader(p.Status)
	_, _ = w.Write(buf.Bytes())
}

// ServeFile serves the pages' stylesheet (link.css) or script (link.js); false for another name.
func ServeFile(w http.ResponseWriter, r *http.Request, name string) bool {
	types := map[string]string{"link.css": "text/css; charset=utf-8", "link.js": "text/javascript; charset=utf-8"}
	typ, ok := types[name]
	if !ok {
		return false
	}
	b, err := files.ReadFile(name)
	if err != nil {
		return false
	}
	sum := sha256.Sum256(b)
	h := w.Header()
	h.Set("Content-Type", typ)
	h.Set("Cache-Control", "public, max-age=300")
	h.Set("ETag", `"`+hex.EncodeToString(sum[:12])+`"`)
	h.Set("X-Content-Type-Options", "nosniff")
	http.ServeContent(w, r, name, time.Time{}, bytes.NewReader(b))
	return true
}
