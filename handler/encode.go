package handler

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/svc-feedback/svc/store"
)

// writeJSON encodes v into a buffer before writing any header, so a failed encoding still
// becomes a proper 500.
func (h *Handler) writeJSON(w http.ResponseWriter, status int, v any) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		h.log.Error("encode reply", "err", err)
		buf.Reset()
		buf.WriteString(`{"error":"internal error","code":"internal"}` + "\n")
		status = http.StatusInternalServerError
	}
	writeBody(w, status, buf.Bytes())
}

func writeBody(w http.ResponseWriter, status int, body []byte) {
	hd := w.Header()
	setHeader(hd, headerContentType, "application/json")
	setHeader(hd, headerContentLength, strconv.Itoa(len(body)))
	w.WriteHeader(status)
	_, _ = w.Write(body)
}

// The headers read or set on every request, in canonical form (see setHeader and
// headerValue).
const (
	headerContentType   = "Content-Type"
	headerContentLength = "Content-Length"
	headerETag          = "Etag"
	headerCacheControl  = "Cache-Control"
	headerAllowOrigin   = "Access-Control-Allow-Origin"
	headerExposeHeaders = "Access-Control-Expose-Headers"

	headerPublishableKey = "X-Svc-Pk"
	headerAuthorization  = "Authorization"
	headerOrigin         = "Origin"
	headerIfNoneMatch    = "If-None-Match"
	headerRequestMethod  = "Access-Control-Request-Method"
)

// setHeader sets a response header whose name is already canonical. http.Header.Set would
// check and canonicalize the name on every call: with the six headers of a widget request,
// about 2% of its CPU. TestHeaderNamesAreCanonical holds the names to that form; a name that
// was not would be missed by Header.Get.
func setHeader(hd http.Header, canonicalName, value string) {
	hd[canonicalName] = []string{value}
}

// headerValue is Header.Get for a name already in canonical form. The server stores request
// headers under canonical names, and Get canonicalizes the name it is given on every call,
// which for a lower-case name such as x-svc-pk means a new string each time: about 1.6% of a
// widget GET's CPU.
func headerValue(hd http.Header, canonicalName string) string {
	if v := hd[canonicalName]; len(v) > 0 {
		return v[0]
	}
	return ""
}

// Time is a timestamp as the API writes it: RFC 3339 in UTC with milliseconds.
type Time time.Time

// timeLayout is RFC 3339 in UTC with milliseconds.
const timeLayout = "2006-01-02T15:04:05.000Z"

// MarshalText writes the time as 2026-11-21T10:04:05.123Z, which encoding/json quotes. (A
// MarshalJSON method's output would be validated and compacted again on every value.)
func (t Time) MarshalText() ([]byte, error) {
	return appendTime(make([]byte, 0, len(timeLayout)), time.Time(t)), nil
}

// appendTime appends t in timeLayout. It is what time.AppendFormat does for this one layout,
// at a fraction of the cost, which matters in pages of a hundred responses.
func appendTime(b []byte, t time.Time) []byte {
	t = t.UTC()
	year, month, day := t.Date()
	hour, minute, sec := t.Clock()
	if year < 0 || year > 9999 {
		return t.AppendFormat(b, timeLayout)
	}
	d2 := func(b []byte, v int) []byte { return append(b, byte('0'+v/10), byte('0'+v%10)) }
	b = d2(d2(b, year/100), year%100)
	b = d2(append(b, '-'), int(month))
	b = d2(append(b, '-'), day)
	b = d2(append(b, 'T'), hour)
	b = d2(append(b, ':'), minute)
	b = d2(append(b, ':'), sec)
	msec := t.Nanosecond() / 1e6
	return append(b, '.', byte('0'+msec/100), byte('0'+msec/10%10), byte('0'+msec%10), 'Z')
}

func timePtr(t *time.Time) *Time {
	if t == nil {
		return nil
	}
	v := Time(*t)
	return &v
}

// maxPrealloc is the most decodeBody sets aside for a body before reading it.
const maxPrealloc = 64 << 10

// decodeBody reads a JSON request body of at most limit bytes into dst: 415 for a content type
// other than JSON, 413 beyond the limit (refused before reading when the length is declared),
// 400 for invalid UTF-8, malformed JSON, wrong types or data after the value.
func decodeBody(w http.ResponseWriter, r *http.Request, limit int64, dst any) error {
	if ct := headerValue(r.Header, headerContentType); ct != "" {
		mt, _, err := mime.ParseMediaType(ct)
		if err != nil || (mt != "application/json" && !strings.HasSuffix(mt, "+json")) {
			return &Error{Status: http.StatusUnsupportedMediaType, Code: CodeUnsupportedMedia,
				Message: "send the body as application/json"}
		}
	}
	if r.ContentLength > limit {
		return &http.MaxBytesError{Limit: limit}
	}
	// Reading into a buffer of the declared length (plus room to see the end) spares
	// io.ReadAll's growing copies. Only so much is trusted before the bytes arrive: a client
	// declaring the limit and sending nothing must not cost the server the limit in memory.
	var buf bytes.Buffer
	if r.ContentLength > 0 {
		buf.Grow(int(min(r.ContentLength, maxPrealloc)) + bytes.MinRead)
	}
	_, err := buf.ReadFrom(http.MaxBytesReader(w, r.Body, limit))
	body := buf.Bytes()
	if err != nil {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			return err
		}
		return badRequest("could not read the request body")
	}
	if len(bytes.TrimSpace(body)) == 0 {
		return badRequest("a JSON request body is required")
	}
	if !utf8.Valid(body) {
		return badRequest("the request body is not valid UTF-8")
	}
	if err := json.Unmarshal(body, dst); err != nil {
		if trailingData(body) {
			return badRequest("the request body has data after its JSON value")
		}
		return badRequest(describeJSONError(err))
	}
	return nil
}

// trailingData reports whether body is one JSON value followed by more than white space.
func trailingData(body []byte) bool {
	dec := json.NewDecoder(bytes.NewReader(body))
	var v json.RawMessage
	if dec.Decode(&v) != nil {
		return false
	}
	_, err := dec.Token()
	return err != io.EOF
}

func describeJSONError(err error) string {
	var syntax *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syntax):
		return fmt.Sprintf("malformed JSON at byte %d: %v", syntax.Offset, syntax)
	case errors.As(err, &typ):
		// encoding/json reports a number too large for its Go type as "number 1e999".
		if n, ok := strings.CutPrefix(typ.Value, "number "); ok && typ.Field != "" {
			return fmt.Sprintf("field %q holds a number out of range: %s", typ.Field, n)
		}
		if typ.Field != "" {
			return fmt.Sprintf("field %q must be %s, not a JSON %s", typ.Field, jsonTypeName(typ.Type.String()), typ.Value)
		}
		return fmt.Sprintf("the body must be a JSON object, not a JSON %s", typ.Value)
	case errors.Is(err, io.ErrUnexpectedEOF):
		return "malformed JSON: the body ends too early"
	}
	return err.Error()
}

func jsonTypeName(goType string) string {
	switch {
	case strings.Contains(goType, "map"), strings.HasPrefix(goType, "struct"):
		return "an object"
	case strings.Contains(goType, "string"):
		return "a string"
	case strings.Contains(goType, "int"), strings.Contains(goType, "float"):
		return "a number"
	case strings.Contains(goType, "[]"):
		return "an array"
	}
	return "of another type"
}

// queryValues parses the request's query string. r.URL.Query drops the pairs it cannot decode,
// which would turn "cursor=%zz" into no cursor at all and serve the first page as if it were the
// one asked for; a malformed query is the caller's error, so it is a 400.
func queryValues(r *http.Request) (url.Values, error) {
	q, err := url.ParseQuery(r.URL.RawQuery)
	if err != nil {
		return nil, badRequest("the query string is malformed: " + err.Error())
	}
	return q, nil
}

// query reads a single-valued query parameter; repeating it is a 400.
func query(q url.Values, name string) (string, error) {
	vs := q[name]
	switch len(vs) {
	case 0:
		return "", nil
	case 1:
		return vs[0], nil
	}
	return "", badRequest(fmt.Sprintf("query parameter %q is given more than once", name))
}

// Page size bounds.
const (
	defaultLimit = 50
	maxLimit     = 100
)

func parseLimit(q url.Values) (int, error) {
	s, err := query(q, "limit")
	if err != nil || s == "" {
		return defaultLimit, err
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 || n > maxLimit {
		return 0, badRequest(fmt.Sprintf("limit must be an integer from 1 to %d", maxLimit))
	}
	return n, nil
}

// parsePage reads the limit and cursor of a list request.
func parsePage(q url.Values) (int, *store.Cursor, error) {
	limit, err := parseLimit(q)
	if err != nil {
		return 0, nil, err
	}
	cursor, err := parseCursor(q)
	return limit, cursor, err
}

// Cursors are base64url JSON of the last item's creation time (Unix milliseconds) and id.
type cursorJSON struct {
	T int64  `json:"t"`
	I string `json:"i"`
}

func encodeCursor(c *store.Cursor) *string {
	if c == nil {
		return nil
	}
	b, _ := json.Marshal(cursorJSON{T: c.CreatedAt.UnixMilli(), I: c.ID})
	s := base64.RawURLEncoding.EncodeToString(b)
	return &s
}

func parseCursor(q url.Values) (*store.Cursor, error) {
	s, err := query(q, "cursor")
	if err != nil || s == "" {
		return nil, err
	}
	bad := badRequest("cursor is not valid: pass the nextCursor of the previous page, or start again without a cursor")
	if len(s) > 512 {
		return nil, bad
	}
	b, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil {
		return nil, bad
	}
	var c cursorJSON
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&c); err != nil || c.I == "" || len(c.I) > 64 {
		return nil, bad
	}
	return &store.Cursor{CreatedAt: time.UnixMilli(c.T).UTC(), ID: c.I}, nil
}

// links holds a page's self and next URLs.
type links struct {
	Self string  `json:"self"`
	Next *string `json:"next"`
}

// pageLinks builds the links of a page: the request's own URL (its cursor included) and the
// same URL with the next cursor. q is the request's query as queryValues parsed it; pageLinks
// sets its cursor. Under a prefix mount the path comes from the request line, unless BaseURL is
// set.
func (h *Handler) pageLinks(r *http.Request, q url.Values, next *string) links {
	base := h.opts.BaseURL + r.URL.Path
	if h.opts.BaseURL == "" {
		if u, err := url.ParseRequestURI(r.RequestURI); err == nil {
			base = u.Path
		}
	}
	l := links{Self: withQuery(base, q)}
	if next != nil {
		q.Set("cursor", *next)
		n := withQuery(base, q)
		l.Next = &n
	}
	return l
}

func withQuery(path string, q url.Values) string {
	if len(q) == 0 {
		return path
	}
	return path + "?" + q.Encode()
}
