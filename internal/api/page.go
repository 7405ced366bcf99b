package api

import (
	"fmt"
	"net/http"
	"net/url"
	"strconv"

	"github.com/svc-feedback/svc/internal/wire"

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

// Page size bounds.
const (
	defaultLimit = 50
	maxLimit     = 100
)

func parseLimit(q url.Values) (int, error) {
	s, err := wire.Query(q, "limit")
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
	cursor, err := wire.ParseCursor(q)
	return limit, cursor, err
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
