package api

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"path"
	"strconv"
	"time"

	"github.com/svc-feedback/svc/store"
)

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
	base := h.requestPath(r)
	l := links{Self: withQuery(base, q)}
	if next != nil {
		q.Set("cursor", *next)
		n := withQuery(base, q)
		l.Next = &n
	}
	return l
}

// requestPath is where the request came: under BaseURL when set, else the path the client
// asked for, a mount prefix included (which r.URL.Path has lost under http.StripPrefix).
func (h *Handler) requestPath(r *http.Request) string {
	if h.opts.BaseURL != "" {
		return h.opts.BaseURL + r.URL.Path
	}
	if u, err := url.ParseRequestURI(r.RequestURI); err == nil {
		return u.Path
	}
	return r.URL.Path
}

func withQuery(path string, q url.Values) string {
	if len(q) == 0 {
		return path
	}
	return path + "?" + q.Encode()
}

// canonicalPath reports whether p is in canonical form: no empty segment ("//") and no dot
// segment ("/./", "/../"), as http.ServeMux would clean it. A trailing slash is kept.
func canonicalPath(p string) bool {
	c := path.Clean(p)
	return p == c || p == c+"/"
}
