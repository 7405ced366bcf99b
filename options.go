package svc

import (
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"reflect"
	"strings"
	"time"

	"github.com/svc-feedback/svc/internal/api"
	"github.com/svc-feedback/svc/internal/delivery"
	"github.com/svc-feedback/svc/internal/hostguard"
	"github.com/svc-feedback/svc/internal/report"
	"github.com/svc-feedback/svc/store"
)

// Options configure NewHandler: everything svc can be told, in one place. The zero value (or a
// nil *Options) means the defaults, given with each field and in docs/operating.md.
type Options struct {
	// Logger receives svc's logs; nil means slog.Default().
	Logger *slog.Logger
	// AccessLog, when set, receives one line per request: method, route pattern (never the
	// path, which holds respondent ids), status, duration and bytes; never a key, a body or a
	// query string. Off when nil. Its handler runs on the request's path: a
	// logbuf.Handler formats and writes the lines off it, as examples/server does.
	AccessLog *slog.Logger
	// Now is the clock; nil means time.Now. Tests inject their own.
	Now func() time.Time
	// BaseURL is the absolute http or https URL the handler is served at, such as
	// "https://app.example.com/feedback". When set, pagination links are absolute; when empty,
	// they are the request's path.
	BaseURL string
	// AllowedOrigins lists the browser origins (such as "https://app.example.com") that may call
	// the public endpoints. Empty, or holding "*", means any origin. Origins are compared in
	// their normal form: scheme and host in lower case, no default port, no trailing slash. A
	// preflight from another origin is refused with a JSON 403.
	AllowedOrigins []string
	// MaxEventBody bounds an event POST's body in bytes (beyond it, 413); zero means 64 KiB.
	MaxEventBody int64
	// MaxResponseBody bounds a response PUT's body in bytes (beyond it, 413); zero means
	// 10 MiB, room for a screenshot or a recording.
	MaxResponseBody int64
	// MaxPageBytes bounds a page of responses by the size of its answers and metadata: past
	// it the page ends early, with fewer than limit responses, and nextCursor continues (a
	// single larger response still comes, alone). Zero means 4 MiB.
	MaxPageBytes int
	// RateLimit, when set, limits the public endpoints per publishable key and client
	// address, and the link pages per survey and client address, answering 429 with
	// Retry-After (whole seconds, at least 1) beyond it. Off when nil.
	RateLimit *RateLimit
	// Webhooks tune the delivery of response.created webhooks.
	Webhooks WebhookOptions
	// Observer, when set, is told of every request served and every webhook attempt, and of the
	// store, for metrics; metrics.New returns one that serves them in the Prometheus format
	// (only an app that imports package metrics links the Prometheus client).
	Observer Observer
	// PageHosts are the hosts the results pages (NewResults) answer under: host names or
	// addresses, each with a port or without (any port), such as "admin.example.com"; "*"
	// means any. Empty means loopback names and addresses only (localhost, names under
	// .localhost, 127.0.0.0/8, ::1). The pages have no login of their own, so a request for any
	// other host gets a 403: a web site the operator visits could otherwise point its own name
	// at the pages' address (DNS rebinding) and read them from the operator's browser. A Host
	// whose port is not a number ("example.com:abc", "[::1]:x", "a:") gets a 400 whatever the
	// list, as it does on the link pages: the pages build links from the Host.
	PageHosts []string
	// Audience, when set, lets the app decide in code who may see a survey that
	// POST /v1/svc/next-survey would pick for a person (docs/api.md#display-rules): it is given the
	// widget's request (with the page's cookies, such as the app's session), the respondent and
	// the survey's id, and is asked only of a survey that passes every other rule. Its error is
	// the request's 500. Nil lets every survey through.
	Audience func(r *http.Request, respondent, surveyID string) (bool, error)
	// Authorize, when set, lets the app's own login in front of the protected API: it is asked
	// of every protected request before svc looks for a secret key, and given the request (with
	// the app's session cookie or token). A team id lets the request act for that team; ""
	// with a nil error leaves it to a secret key, as without Authorize, so keys keep working;
	// an error refuses the request with a 401 whose message is the error's text (written for
	// the caller: say what to do, never why a check failed inside). It is not asked of the
	// widget's endpoints, which a publishable key opens.
	Authorize func(r *http.Request) (teamID string, err error)
	// Spreadsheets, when set, writes exports as spreadsheets (format=xlsx, and the results
	// pages' "Download for Excel"): give it xlsx.New() from package xlsx, which an app links
	// only when it asks for it. Nil: format=xlsx is a 400 that names this option.
	Spreadsheets Spreadsheet
}

// Spreadsheet writes an export for people as a spreadsheet file; package xlsx provides one.
type Spreadsheet = report.Spreadsheet

// Sheet takes a spreadsheet's rows: each cell a string, a json.Number (a number in the sheet)
// or a time.Time (a date and time in the sheet).
type Sheet = report.Sheet

// Observer is told what svc's handler and webhook sender do, for metrics. Package metrics
// implements it in the Prometheus text format; an app may give its own. Its methods are called
// on the hot paths, concurrently: they must be safe for concurrent use and quick.
type Observer interface {
	// Request is told of each request served: its route pattern ("(no route)" for none, such
	// as "GET /v1/svc/{surveyId}", never the path itself), its status and how long it took.
	Request(route string, status int, took time.Duration)
	// Attempt is told of each webhook attempt's outcome (succeeded, failed, retry, or
	// handed_back by a stopping sender) and its number in its round, 1 for the first.
	Attempt(outcome string, attempt int)
	// Store is told, once, of the store the handler serves, to read what it can tell when
	// asked (store.OutboxCounter, store.PoolReporter).
	Store(s store.Store)
}

// RateLimit is a token bucket per publishable key and client address: PerSecond requests a
// second on average, in bursts of up to Burst.
type RateLimit struct {
	// PerSecond is the average rate allowed; it must be positive.
	PerSecond float64
	// Burst is how many requests may come at once; zero means PerSecond rounded up.
	Burst int
	// ClientAddr names the client of a request; nil means the host of the connection's
	// RemoteAddr, an IPv6 address counting as its /64. Behind a trusted reverse proxy, return
	// the address it reports.
	ClientAddr func(r *http.Request) string
	// MaxBuckets bounds the limiter's memory, about 250 bytes a bucket; zero means 100,000
	// (22-26 MB).
	// Past it the bucket used longest ago is forgotten, so limiting never stops.
	MaxBuckets int
}

// WebhookOptions tune the delivery of response.created webhooks. Zero values mean svc's
// defaults (docs/webhooks.md): 5 s per attempt, 3 retries at about 1 s, 2 s and 4 s, Retry-After
// honoured up to 60 s.
type WebhookOptions struct {
	// Disabled stops this handler from sending deliveries; they are still scheduled in the
	// store, for another instance sharing it to send.
	Disabled bool
	// AllowPrivate lets deliveries reach loopback, private, link-local and other
	// special-purpose addresses. Leave it off in production: it would let anyone who can set
	// a survey's webhook URL probe your network. For development and tests.
	AllowPrivate bool
	// Workers bounds how many deliveries are sent at once; zero means 8.
	Workers int
	// PollInterval is how often the outbox is checked for due deliveries when nothing signals
	// new work (such as a delivery written by another instance); zero means 1 s.
	PollInterval time.Duration
	// AttemptTimeout bounds each HTTP attempt, connection included; zero means 5 s.
	AttemptTimeout time.Duration
	// RetryMax is the number of retries after the first attempt, on 408, 429, 5xx and network
	// errors; zero means 3, and -1 means none.
	RetryMax int
	// RetryWaitMin is the wait before the first retry, doubled for each next one with ±25%
	// jitter; zero means 1 s.
	RetryWaitMin time.Duration
	// RetryAfterMax caps both a receiver's Retry-After and the backoff; zero means 60 s.
	RetryAfterMax time.Duration
	// Lease is how long a claimed delivery stays reserved for this sender, which makes one
	// attempt of it, before another sender sharing the store may take it over (after a
	// crash); zero means AttemptTimeout plus 25 s (30 s). It must be longer than
	// AttemptTimeout.
	Lease time.Duration
	// MaxPerDestination bounds the attempts in flight to one host, so that a slow or failing
	// receiver cannot hold every worker; zero means half of Workers (at least 1). Retries
	// never hold a worker: they wait in the outbox.
	MaxPerDestination int
	// Observe, when set, is called with the outcome of every delivery, for metrics and tests.
	Observe func(store.DeliveryResult)
}

// build checks the options and turns them into the configuration of the HTTP layer and of the
// webhook sender, reporting every mistake at once, with the constructor's own (nil for none).
func (o *Options) build(more ...error) (api.Config, delivery.Options, error) {
	errs := append([]error(nil), more...)
	bad := func(format string, args ...any) { errs = append(errs, fmt.Errorf("svc: "+format, args...)) }
	if o.BaseURL != "" {
		if u, err := url.Parse(o.BaseURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" ||
			u.RawQuery != "" || u.Fragment != "" {
			bad("BaseURL %q must be an absolute http or https URL without query or fragment", o.BaseURL)
		}
	}
	origins, err := api.NormalizeOrigins(o.AllowedOrigins)
	if err != nil {
		bad("AllowedOrigins: %v", err)
	}
	if _, err := hostguard.New(o.PageHosts); err != nil {
		bad("PageHosts: %v", err)
	}
	if o.MaxEventBody < 0 || o.MaxResponseBody < 0 || o.MaxPageBytes < 0 {
		bad("MaxEventBody, MaxResponseBody and MaxPageBytes must not be negative")
	}
	if o.Observer != nil {
		if v := reflect.ValueOf(o.Observer); v.Kind() == reflect.Pointer && v.IsNil() {
			bad("Observer holds a nil %T, which would be called on every request: give one (such as metrics.New()) or leave Observer nil", o.Observer)
		}
	}
	if rl := o.RateLimit; rl != nil && (!(rl.PerSecond > 0) || rl.Burst < 0 || rl.MaxBuckets < 0) {
		bad("RateLimit needs a positive PerSecond, and a Burst and MaxBuckets of zero or more")
	}
	w := o.Webhooks
	if w.Workers < 0 || w.PollInterval < 0 || w.AttemptTimeout < 0 || w.RetryMax < -1 || w.RetryWaitMin < 0 ||
		w.RetryAfterMax < 0 || w.Lease < 0 || w.MaxPerDestination < 0 {
		bad("Webhooks: counts and durations must not be negative (RetryMax may be -1 for no retries)")
	}
	if w.Lease > 0 && w.Lease <= max(w.AttemptTimeout, 5*time.Second) {
		bad("Webhooks.Lease (%v) must be longer than an attempt (%v)", w.Lease, max(w.AttemptTimeout, 5*time.Second))
	}
	if err := errors.Join(errs...); err != nil {
		return api.Config{}, delivery.Options{}, err
	}
	log := o.Logger
	if log == nil {
		log = slog.Default()
	}
	hc := api.Config{
		Logger: log, AccessLog: o.AccessLog, Now: o.Now, BaseURL: strings.TrimRight(o.BaseURL, "/"), AllowedOrigins: origins,
		MaxEventBody: o.MaxEventBody, MaxResponseBody: o.MaxResponseBody, MaxPageBytes: o.MaxPageBytes, PageHosts: o.PageHosts,
		Audience: o.Audience, Authorize: o.Authorize, Spreadsheets: o.Spreadsheets,
	}
	if o.Observer != nil {
		hc.OnRequest = o.Observer.Request
	}
	if rl := o.RateLimit; rl != nil {
		hc.RateLimit = &api.RateLimit{PerSecond: rl.PerSecond, Burst: rl.Burst, ClientAddr: rl.ClientAddr, MaxBuckets: rl.MaxBuckets}
	}
	dc := delivery.Options{
		Logger: log, Now: o.Now, AllowPrivate: w.AllowPrivate, Workers: w.Workers, PollInterval: w.PollInterval,
		AttemptTimeout: w.AttemptTimeout, RetryMax: w.RetryMax, RetryWaitMin: w.RetryWaitMin,
		RetryAfterMax: w.RetryAfterMax, Lease: w.Lease, MaxPerDestination: w.MaxPerDestination, Observe: w.Observe,
	}
	if o.Observer != nil {
		dc.OnAttempt = o.Observer.Attempt
	}
	return hc, dc, nil
}
