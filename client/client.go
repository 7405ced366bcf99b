// Package client is a typed Go client for the svc API.
//
// New returns a Client for the protected API, authenticated with a team's secret key: for
// backends only. NewPublic returns a PublicClient for the widget endpoints, authenticated with a
// publishable key, which is safe to ship in client-side code; it never holds a secret key.
//
// Every method takes a context. Errors from the API are *Error values (see IsNotFound and
// friends). GETs and the idempotent response PUT are retried on 429, 5xx and network errors,
// honouring Retry-After; event POSTs never are. Lists come one page at a time (List* methods)
// or as iterators over every item that fetch pages lazily.
//
// The package depends only on the standard library, go-retryablehttp and the survey model, and
// builds with CGO_ENABLED=0.
package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/hashicorp/go-retryablehttp"
	"github.com/svc-feedback/svc/internal/cuid2"
)

// DefaultUserAgent is sent unless WithUserAgent says otherwise.
const DefaultUserAgent = "svc-go-client/1"

// maxErrorBody bounds how much of an error reply is read.
const maxErrorBody = 64 << 10

// Option configures a client.
type Option func(*config) error

type config struct {
	basePath     string
	httpClient   *http.Client
	userAgent    string
	retryMax     int
	retryWaitMin time.Duration
	retryWaitMax time.Duration
	header       http.Header
}

// WithHTTPClient sends requests with c (for timeouts, proxies, TLS, test transports).
func WithHTTPClient(c *http.Client) Option {
	return func(cfg *config) error {
		if c == nil {
			return errors.New("client: nil *http.Client")
		}
		cfg.httpClient = c
		return nil
	}
}

// WithBasePath sets the path prefix the handler is mounted under (such as "/feedback"), for
// base URLs given without it.
func WithBasePath(p string) Option {
	return func(cfg *config) error {
		if p != "" && !strings.HasPrefix(p, "/") {
			return fmt.Errorf("client: base path %q must start with /", p)
		}
		cfg.basePath = strings.TrimRight(p, "/")
		return nil
	}
}

// WithHeader sends a header with every request: the app's own session or token, say, for a
// handler whose svc.Options.Authorize reads it (see NewAuthorized). It may be given more than
// once.
func WithHeader(name, value string) Option {
	return func(cfg *config) error {
		if name == "" || strings.ContainsAny(name, " :\r\n") || strings.ContainsAny(value, "\r\n") {
			return fmt.Errorf("client: %q is not a header name, or its value holds a line break", name)
		}
		if cfg.header == nil {
			cfg.header = make(http.Header)
		}
		cfg.header.Add(name, value)
		return nil
	}
}

// WithUserAgent sets the User-Agent header.
func WithUserAgent(ua string) Option {
	return func(cfg *config) error {
		cfg.userAgent = ua
		return nil
	}
}

// WithRetryPolicy sets how many times a retryable request is retried (0 disables retries) and
// the bounds of the exponential backoff between tries. Retry-After is honoured up to waitMax.
func WithRetryPolicy(maxRetries int, waitMin, waitMax time.Duration) Option {
	return func(cfg *config) error {
		if maxRetries < 0 || waitMin < 0 || waitMax < waitMin {
			return fmt.Errorf("client: invalid retry policy (%d, %v, %v)", maxRetries, waitMin, waitMax)
		}
		cfg.retryMax, cfg.retryWaitMin, cfg.retryWaitMax = maxRetries, waitMin, waitMax
		return nil
	}
}

// Client calls the protected API with a team's secret key. Use it from servers only.
type Client struct {
	t *transport
}

// New returns a Client for the API at baseURL (including any prefix the handler is mounted
// under, such as "https://api.example.com/feedback") using secretKey (svc_sk_...).
func New(baseURL, secretKey string, opts ...Option) (*Client, error) {
	if !strings.HasPrefix(secretKey, "svc_sk_") {
		return nil, errors.New("client: New needs a secret key (svc_sk_...); use NewPublic for a publishable key")
	}
	t, err := newTransport(baseURL, opts, func(h http.Header) { h.Set("Authorization", "Bearer "+secretKey) })
	if err != nil {
		return nil, err
	}
	return &Client{t: t}, nil
}

// NewAuthorized returns a Client for the protected API that sends no key of svc's: the
// handler's svc.Options.Authorize lets each request in as the app's own login does. Give it
// what Authorize reads: a header (WithHeader), or, in process (WithHandler), a value in each
// call's context, which the handler's request carries and no one can send over a network.
func NewAuthorized(baseURL string, opts ...Option) (*Client, error) {
	t, err := newTransport(baseURL, opts, func(http.Header) {})
	if err != nil {
		return nil, err
	}
	return &Client{t: t}, nil
}

// transport is the request path both clients share.
type transport struct {
	base      *url.URL
	userAgent string
	retrying  *retryablehttp.Client
	once      *retryablehttp.Client
	auth      func(h http.Header)
	header    http.Header // sent with every request (WithHeader)
}

func newTransport(baseURL string, opts []Option, auth func(http.Header)) (*transport, error) {
	u, err := url.Parse(baseURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("client: base URL %q must be an absolute http or https URL", baseURL)
	}
	// The handler may be mounted under a prefix: keep the base path, without a trailing slash.
	u.Path = strings.TrimRight(u.Path, "/")
	u.RawQuery, u.Fragment = "", ""
	cfg := config{httpClient: &http.Client{Timeout: 30 * time.Second}, userAgent: DefaultUserAgent,
		retryMax: 3, retryWaitMin: 500 * time.Millisecond, retryWaitMax: 30 * time.Second}
	for _, o := range opts {
		if err := o(&cfg); err != nil {
			return nil, err
		}
	}
	u.Path += cfg.basePath
	// A redirect of a request that changes something is never followed: Go's client repeats
	// a 307 or 308 with the method, the body and the key, so a server (or a proxy in front of
	// it) that cleaned a path could turn an erasure into the deletion of a survey. svc never
	// redirects one; the redirect comes back as an *Error.
	hc := *cfg.httpClient
	follow := hc.CheckRedirect
	hc.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		if m := via[0].Method; m != http.MethodGet && m != http.MethodHead {
			return http.ErrUseLastResponse
		}
		if follow != nil {
			return follow(req, via)
		}
		if len(via) >= 10 {
			return errors.New("stopped after 10 redirects")
		}
		return nil
	}
	mk := func(retries int) *retryablehttp.Client {
		c := retryablehttp.NewClient()
		c.HTTPClient = &hc
		c.Logger = nil
		c.RetryMax = retries
		c.RetryWaitMin, c.RetryWaitMax = cfg.retryWaitMin, cfg.retryWaitMax
		c.CheckRetry = retryablehttp.DefaultRetryPolicy
		c.Backoff = retryablehttp.DefaultBackoff // honours Retry-After on 429 and 503
		c.ErrorHandler = retryablehttp.PassthroughErrorHandler
		return c
	}
	return &transport{base: u, userAgent: cfg.userAgent, retrying: mk(cfg.retryMax), once: mk(0), auth: auth, header: cfg.header}, nil
}

// do sends a request to path (already escaped) with query q and JSON body in (nil for none),
// and decodes a 2xx reply into out. Non-2xx replies become *Error.
func (t *transport) do(ctx context.Context, method, path string, q url.Values, in, out any, retry bool) error {
	resp, err := t.send(ctx, call{method: method, path: path, q: q, in: in, retry: retry})
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	return decodeReply(resp, method, path, out)
}

// call is one request: its method, escaped path (see pathf), query, JSON body (nil for none),
// extra headers, and whether it may be retried.
type call struct {
	method, path string
	q            url.Values
	in           any
	header       http.Header
	retry        bool
}

// send sends c and returns its 2xx reply, whose body the caller closes; a non-2xx reply is an
// *Error.
func (t *transport) send(ctx context.Context, c call) (*http.Response, error) {
	u := *t.base
	// path is escaped (pathf): RawPath keeps an escaped "/" inside a value, Path is its decoding.
	unescaped, err := url.PathUnescape(c.path)
	if err != nil {
		return nil, fmt.Errorf("client: bad path %q: %w", c.path, err)
	}
	u.Path += unescaped
	u.RawPath = t.base.EscapedPath() + c.path
	if len(c.q) > 0 {
		u.RawQuery = c.q.Encode()
	}
	var body []byte
	if c.in != nil {
		if body, err = json.Marshal(c.in); err != nil {
			return nil, fmt.Errorf("client: encode %s %s: %w", c.method, c.path, err)
		}
	}
	req, err := retryablehttp.NewRequestWithContext(ctx, c.method, u.String(), body)
	if err != nil {
		return nil, fmt.Errorf("client: build %s %s: %w", c.method, c.path, err)
	}
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", t.userAgent)
	if c.in != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	for k, v := range t.header {
		req.Header[k] = append([]string(nil), v...)
	}
	for k, v := range c.header {
		req.Header[k] = v
	}
	t.auth(req.Header)
	hc := t.once
	if c.retry {
		hc = t.retrying
	}
	resp, err := hc.Do(req)
	if err != nil {
		return nil, fmt.Errorf("client: %s %s: %w", c.method, c.path, err)
	}
	if err := checkResponse(resp); err != nil {
		resp.Body.Close()
		return nil, err
	}
	return resp, nil
}

// decodeReply decodes a 2xx reply's JSON into out (nil to discard it).
func decodeReply(resp *http.Response, method, path string, out any) error {
	if out == nil {
		_, _ = io.Copy(io.Discard, resp.Body)
		return nil
	}
	if err := json.NewDecoder(resp.Body).Decode(out); err != nil {
		return fmt.Errorf("client: decode %s %s: %w", method, path, err)
	}
	return nil
}

// Error is a non-2xx reply of the API.
type Error struct {
	// StatusCode is the HTTP status.
	StatusCode int
	// Code is the API's machine word, such as "not_found" or "invalid_request".
	Code string
	// Message is the API's human sentence.
	Message string
	// RetryAfter is the server's Retry-After, when it sent one.
	RetryAfter time.Duration
}

// Error returns the status, code and message in one line.
func (e *Error) Error() string {
	return fmt.Sprintf("svc: %d %s: %s", e.StatusCode, e.Code, e.Message)
}

// checkResponse turns a non-2xx reply into *Error.
func checkResponse(resp *http.Response) error {
	if resp.StatusCode >= 200 && resp.StatusCode < 300 {
		return nil
	}
	e := &Error{StatusCode: resp.StatusCode}
	b, _ := io.ReadAll(io.LimitReader(resp.Body, maxErrorBody))
	var body struct {
		Error string `json:"error"`
		Code  string `json:"code"`
	}
	if json.Unmarshal(b, &body) == nil && body.Error != "" {
		e.Message, e.Code = body.Error, body.Code
	} else {
		e.Message = strings.TrimSpace(string(b))
		if e.Message == "" {
			e.Message = http.StatusText(resp.StatusCode)
		}
	}
	if secs, err := strconv.Atoi(resp.Header.Get("Retry-After")); err == nil && secs >= 0 {
		e.RetryAfter = time.Duration(secs) * time.Second
	}
	return e
}

// Sentinel errors that an *Error of their status matches with errors.Is, such as
// errors.Is(err, client.ErrNotFound); the Is functions are shorthands of the same.
var (
	ErrInvalid            = errors.New("svc: invalid request (400)")
	ErrUnauthorized       = errors.New("svc: missing, unknown or revoked key (401)")
	ErrNotFound           = errors.New("svc: not found (404)")
	ErrConflict           = errors.New("svc: conflict (409)")
	ErrPreconditionFailed = errors.New("svc: precondition failed (412)")
	ErrRateLimited        = errors.New("svc: rate limited (429)")
	ErrUnavailable        = errors.New("svc: unavailable (503)")
)

var statusSentinels = map[int]error{
	http.StatusBadRequest:         ErrInvalid,
	http.StatusUnauthorized:       ErrUnauthorized,
	http.StatusNotFound:           ErrNotFound,
	http.StatusConflict:           ErrConflict,
	http.StatusPreconditionFailed: ErrPreconditionFailed,
	http.StatusTooManyRequests:    ErrRateLimited,
	http.StatusServiceUnavailable: ErrUnavailable,
}

// Is reports whether target is the sentinel error of e's status, for errors.Is.
func (e *Error) Is(target error) bool {
	s, ok := statusSentinels[e.StatusCode]
	return ok && s == target
}

// IsNotFound reports whether err is a 404: the record does not exist or belongs to another team.
func IsNotFound(err error) bool { return errors.Is(err, ErrNotFound) }

// IsUnauthorized reports whether err is a 401: a missing, unknown or revoked key.
func IsUnauthorized(err error) bool { return errors.Is(err, ErrUnauthorized) }

// IsRateLimited reports whether err is a 429; Error.RetryAfter says when to try again.
func IsRateLimited(err error) bool { return errors.Is(err, ErrRateLimited) }

// IsConflict reports whether err is a 409, such as a response id used by another respondent.
func IsConflict(err error) bool { return errors.Is(err, ErrConflict) }

// IsPreconditionFailed reports whether err is a 412: the survey changed since the ETag given as
// If-Match was read.
func IsPreconditionFailed(err error) bool { return errors.Is(err, ErrPreconditionFailed) }

// IsInvalid reports whether err is a 400: the request broke a rule the message names.
func IsInvalid(err error) bool { return errors.Is(err, ErrInvalid) }

// NewResponseID returns a fresh cuid2, for a new response's id.
func NewResponseID() string { return cuid2.NewGenerator().New() }

// pathf formats a path of the API with args escaped, each as one path segment.
func pathf(format string, args ...string) string {
	esc := make([]any, len(args))
	for i, a := range args {
		esc[i] = url.PathEscape(a)
		if a == "." || a == ".." {
			// PathEscape keeps dots, and a value of its own would be a step within the path:
			// sent escaped, the server refuses it rather than serving another endpoint.
			esc[i] = strings.Repeat("%2E", len(a))
		}
	}
	return fmt.Sprintf(format, esc...)
}
