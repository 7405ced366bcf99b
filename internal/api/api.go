// Package api serves svc's JSON API: the public widget endpoints under /v1/svc/ and the
// protected server-to-server endpoints under /v1/protected/. Users reach it through
// svc.NewHandler, which also starts the webhook sender; package handler describes it.
//
// Every route is registered in routes.go. Every handler has the same rhythm: parse and check
// the input, call the store, then return an error or write the result. Errors of any kind, on
// any path, reach the client as {"error": "...", "code": "..."} with a fitting status.
package api

import (
	"log/slog"
	"net/http"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/svc-feedback/svc/internal/report"
	"github.com/svc-feedback/svc/internal/reqlog"
	"github.com/svc-feedback/svc/store"
	"github.com/svc-feedback/svc/widget"
)

// Default body limits.
const (
	DefaultMaxEventBody    = 64 << 10
	DefaultMaxResponseBody = 10 << 20
	// DefaultMaxPageBytes bounds a page of responses: a page of 100 ordinary responses is tens
	// of kilobytes, while 100 with 10 MiB screenshots would be a gigabyte built in memory.
	DefaultMaxPageBytes = 4 << 20
)

// Config is the configuration of a Handler. Users configure svc with svc.Options, which
// svc.NewHandler checks and turns into a Config; tests of this package build one directly.
// The zero value is usable.
type Config struct {
	// Logger receives request failures; nil means slog.Default().
	Logger *slog.Logger
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// BaseURL is the absolute URL the handler is served at, without a trailing slash; when
	// set, pagination links are absolute.
	BaseURL string
	// AllowedOrigins is the set of browser origins, in the form NormalizeOrigins gives, allowed
	// to call the public endpoints; nil means any origin.
	AllowedOrigins map[string]bool
	// MaxEventBody and MaxResponseBody bound request bodies in bytes; zero means
	// DefaultMaxEventBody and DefaultMaxResponseBody.
	MaxEventBody    int64
	MaxResponseBody int64
	// RateLimit, when set, limits the public endpoints per publishable key and client address.
	RateLimit *RateLimit
	// AccessLog, when set, receives one line per request: method, route pattern, status,
	// duration and bytes. Off when nil.
	AccessLog *slog.Logger
	// OnRequest, when set, is told of every request served: its route pattern ("(no route)"
	// for none), status and duration, for metrics.
	OnRequest func(route string, status int, took time.Duration)
	// MaxPageBytes bounds a page of responses by the size of its answers and metadata: the
	// page ends early past it, and nextCursor continues. Zero means DefaultMaxPageBytes.
	MaxPageBytes int
	// OnDeliveryScheduled, when set, is called after a write that may have scheduled a
	// webhook delivery (a created response, a redelivery), so a sender can start at once.
	OnDeliveryScheduled func()
	// OnSegmentsChanged, when set, is called with a team whose segment counts need filling (its
	// segments changed, or their fill is not complete), so a filler can run it.
	OnSegmentsChanged func(teamID string)
	// PageHosts are the hosts the results pages answer under (see svc.Options.PageHosts); nil
	// means loopback names and addresses only.
	PageHosts []string
	// Audience is svc.Options.Audience.
	Audience func(r *http.Request, respondent, surveyID string) (bool, error)
	// Authorize is svc.Options.Authorize.
	Authorize func(r *http.Request) (teamID string, err error)
	// Spreadsheets is svc.Options.Spreadsheets.
	Spreadsheets report.Spreadsheet
}

// Handler is the svc HTTP API. It is safe for concurrent use.
type Handler struct {
	store store.Store
	opts  Config
	log   *slog.Logger
	now   func() time.Time
	mux   *http.ServeMux
	// patterns are the routes' patterns, as routes registers them.
	patterns []string

	surveysMu sync.RWMutex
	// surveys holds each active survey's encoded public view, one entry per survey that
	// exists (ids are checked against the store first), so it cannot grow without bound.
	surveys map[string]*encodedSurvey

	limiter *limiter // nil when rate limiting is off

	pageBuffers sync.Pool // of *[]byte, see pageBuffer
	readers     sync.Pool // of *jsonReader, see decodeBody

	// manageMu serializes this handler's changes to surveys: with a Store that is not a
	// store.SurveyModifier, it keeps each If-Match checked against the survey as it is changed,
	// within this process.
	manageMu sync.Mutex

	// widget holds the browser widget's built files by name.
	widget map[string]widget.File

	// teams holds each team's active surveys with their display rules, for next-survey, for
	// rulesTTL (see nextsurvey.go).
	teamsMu sync.Mutex
	teams   map[string]*teamRules
	// teamsGen counts dropRules' calls, so that a load that began before a change is not kept.
	teamsGen uint64
	// loading holds, by team, the load under way of rules the team has none of in teams: it is
	// closed when the load is done.
	loading map[string]chan struct{}
}

// New returns a Handler serving s.
func New(s store.Store, opts Config) *Handler {
	h := &Handler{store: s, opts: opts, log: opts.Logger, now: opts.Now, mux: http.NewServeMux(), surveys: make(map[string]*encodedSurvey),
		teams: make(map[string]*teamRules), loading: make(map[string]chan struct{})}
	if h.log == nil {
		h.log = slog.Default()
	}
	if h.now == nil {
		h.now = time.Now
	}
	if h.opts.MaxEventBody <= 0 {
		h.opts.MaxEventBody = DefaultMaxEventBody
	}
	if h.opts.MaxResponseBody <= 0 {
		h.opts.MaxResponseBody = DefaultMaxResponseBody
	}
	if h.opts.MaxPageBytes <= 0 {
		h.opts.MaxPageBytes = DefaultMaxPageBytes
	}
	h.opts.BaseURL = strings.TrimRight(h.opts.BaseURL, "/")
	if opts.RateLimit != nil && opts.RateLimit.PerSecond > 0 {
		h.limiter = newLimiter(*opts.RateLimit, h.now)
	}
	files, err := widget.Files()
	if err != nil {
		panic("handler: the embedded widget cannot be read: " + err.Error()) // a build defect
	}
	h.widget = files
	h.routes()
	return h
}

// ServeHTTP answers CORS for the public endpoints, then routes the request. Requests that match
// no route get the mux's 404 or 405 (with Allow) as a JSON error.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if obs := (reqlog.Observer{Now: h.now, AccessLog: h.opts.AccessLog, OnRequest: h.opts.OnRequest}); obs.On() {
		obs.Serve(w, r, h.serve)
		return
	}
	h.serve(w, r)
}

// serve is ServeHTTP without the access log.
func (h *Handler) serve(w http.ResponseWriter, r *http.Request) {
	defer func() {
		if v := recover(); v != nil {
			if v == http.ErrAbortHandler {
				panic(v)
			}
			// A bug, not the client's fault: log it with its stack and answer a JSON 500
			// rather than dropping the connection.
			h.log.ErrorContext(r.Context(), "panic serving request", "method", r.Method, "path", r.URL.Path,
				"panic", v, "stack", string(debug.Stack()))
			h.writeError(w, r, &Error{Status: http.StatusInternalServerError, Code: CodeInternal, Message: "internal error"})
		}
	}()
	if len(r.TransferEncoding) > 0 {
		// net/http serves a request that has both Transfer-Encoding and Content-Length by the
		// former and drops the latter, so the two cannot be told apart here; RFC 9112 section
		// 6.1 requires closing the connection after such a request, so nothing it may have
		// smuggled is served as a request of its own. Closing after every chunked request
		// costs the rare client that sends one a new connection.
		w.Header().Set("Connection", "close")
	}
	if strings.HasPrefix(r.URL.Path, "/v1/svc/") {
		if h.cors(w, r) {
			return
		}
	}
	// The mux routes the request once, with jsonFallback in front of the writer. Every
	// endpoint takes the writer back out (see endpointWriter), so only the mux's own replies
	// reach jsonFallback: its 404s, 405s and redirects to clean a path.
	h.mux.ServeHTTP(&jsonFallback{ResponseWriter: w, h: h, r: r}, r)
}

// endpointWriter returns the writer ServeHTTP wrapped for the mux, for the endpoint the mux
// routed the request to, so that the endpoint's own replies (errors included) are not taken
// for the mux's.
func endpointWriter(w http.ResponseWriter) http.ResponseWriter {
	if f, ok := w.(*jsonFallback); ok {
		return f.ResponseWriter
	}
	return w
}

// cors sets the CORS headers of a public endpoint and answers a preflight, reporting whether
// it did. A preflight from an origin that is not allowed gets a JSON 403 saying so, rather than
// falling through to the mux's 405.
func (h *Handler) cors(w http.ResponseWriter, r *http.Request) bool {
	origin := headerValue(r.Header, headerOrigin)
	hd := w.Header()
	preflight := r.Method == http.MethodOptions && headerValue(r.Header, headerRequestMethod) != ""
	if h.opts.AllowedOrigins == nil {
		setHeader(hd, headerAllowOrigin, "*")
	} else {
		hd.Add("Vary", "Origin")
		if !h.opts.AllowedOrigins[normalizeOrigin(origin)] {
			if preflight {
				h.writeError(w, r, &Error{Status: http.StatusForbidden, Code: CodeOriginNotAllowed,
					Message: "the origin " + strconv.Quote(origin) + " is not allowed to call this API; its operator can add it to svc.Options.AllowedOrigins"})
				return true
			}
			return false
		}
		setHeader(hd, headerAllowOrigin, origin)
	}
	setHeader(hd, headerExposeHeaders, "ETag, Retry-After")
	if !preflight {
		return false
	}
	hd.Set("Access-Control-Allow-Methods", "GET, POST, PUT, OPTIONS")
	hd.Set("Access-Control-Allow-Headers", "x-svc-pk, content-type, if-none-match")
	hd.Set("Access-Control-Max-Age", "600")
	w.WriteHeader(http.StatusNoContent)
	return true
}

// jsonFallback turns the mux's own plain-text replies into JSON errors: 404 and 405 keep
// their status and headers such as Allow; the redirects it makes to clean a path (such as
// "/response/." or "//v1/...") become 404s naming the canonical path, since an API client
// should send that path rather than be bounced to it.
type jsonFallback struct {
	http.ResponseWriter
	h       *Handler
	r       *http.Request
	wrote   bool
	discard bool
}

func (f *jsonFallback) WriteHeader(status int) {
	if f.wrote {
		return
	}
	f.wrote = true
	if status < 300 {
		f.ResponseWriter.WriteHeader(status)
		return
	}
	f.discard = true
	f.Header().Del("Content-Type")
	f.Header().Del("X-Content-Type-Options")
	msg := "no such endpoint: " + f.r.URL.Path
	code := "not_found"
	if loc := f.Header().Get("Location"); status < 400 {
		f.Header().Del("Location")
		status = http.StatusNotFound
		if loc != "" {
			msg += " (the canonical path is " + loc + ")"
		}
	}
	if status == http.StatusMethodNotAllowed {
		msg = f.r.Method + " is not allowed here; allowed: " + f.Header().Get("Allow")
		code = "method_not_allowed"
	}
	f.h.writeError(f.ResponseWriter, f.r, &Error{Status: status, Code: code, Message: msg})
}

func (f *jsonFallback) Write(b []byte) (int, error) {
	if !f.wrote {
		f.WriteHeader(http.StatusOK)
	}
	if f.discard {
		return len(b), nil
	}
	return f.ResponseWriter.Write(b)
}
