// Package problem is svc's errors as those it answers see them: an HTTP status, a machine word
// and a sentence for people, and the one table from the store's and the survey's sentinel
// errors to them. The JSON API writes them as {"error", "code"}; the results pages as a page.
package problem

import (
	"errors"
	"net/http"

	"github.com/svc-feedback/svc/store"
	"github.com/svc-feedback/svc/survey"
)

// Error is an error as the client sees it.
type Error struct {
	Status  int
	Code    string
	Message string
}

// Error returns the message sent to the client.
func (e *Error) Error() string { return e.Message }

// Error codes, the machine word of every error reply.
const (
	CodeInvalidRequest   = "invalid_request"
	CodeUnauthorized     = "unauthorized"
	CodeNotFound         = "not_found"
	CodeMethodNotAllowed = "method_not_allowed"
	CodeConflict         = "conflict"
	CodePrecondition     = "precondition_failed"
	CodeTooLarge         = "payload_too_large"
	CodeUnsupportedMedia = "unsupported_media_type"
	CodeRateLimited      = "rate_limited"
	CodeOriginNotAllowed = "origin_not_allowed"
	CodeInternal         = "internal"
	CodeUnavailable      = "unavailable"
	CodeNotImplemented   = "not_implemented"
)

// UnavailableRetryAfter is the Retry-After of a 503: a lock held by another process, or a
// database restarting, is usually let go of within a second or two.
const UnavailableRetryAfter = "2"

// BadRequest is a 400 saying msg.
func BadRequest(msg string) *Error {
	return &Error{Status: http.StatusBadRequest, Code: CodeInvalidRequest, Message: msg}
}

// Unauthorized is a 401 saying msg.
func Unauthorized(msg string) *Error {
	return &Error{Status: http.StatusUnauthorized, Code: CodeUnauthorized, Message: msg}
}

// Forbidden is a 403 saying msg: a change the console refuses as not made on its own page.
func Forbidden(msg string) *Error {
	return &Error{Status: http.StatusForbidden, Code: CodeOriginNotAllowed, Message: msg}
}

// NotFound is a 404 saying msg.
func NotFound(msg string) *Error {
	return &Error{Status: http.StatusNotFound, Code: CodeNotFound, Message: msg}
}

// From is the one table from errors to what the client sees. The store's typed errors carry the
// message meant for the client; errors the table does not know are 500s, whose detail must be
// logged, never sent: known is false for them.
func From(err error) (e *Error, known bool) {
	var (
		apiErr   *Error
		storeErr *store.Error
		tooLarge *http.MaxBytesError
	)
	switch {
	case errors.As(err, &apiErr):
		return apiErr, true
	case errors.As(err, &tooLarge):
		return &Error{Status: http.StatusRequestEntityTooLarge, Code: CodeTooLarge, Message: "the request body is larger than the limit of this endpoint"}, true
	case errors.Is(err, survey.ErrInvalidAnswer):
		// The answer's validation error is made for the client and not wrapped on the way.
		return BadRequest(err.Error()), true
	}
	for _, m := range sentinelStatuses {
		if !errors.Is(err, m.sentinel) {
			continue
		}
		e := &Error{Status: m.status, Code: m.code, Message: m.message}
		if errors.As(err, &storeErr) {
			e.Message = m.prefix + storeErr.Message
		}
		return e, true
	}
	return &Error{Status: http.StatusInternalServerError, Code: CodeInternal, Message: "internal error"}, false
}

// sentinelStatuses maps the store's sentinels to a status, a code, and the message used when
// the error carries none of its own (a prefix goes before one it carries).
var sentinelStatuses = []struct {
	sentinel              error
	status                int
	code, message, prefix string
}{
	{store.ErrNotFound, http.StatusNotFound, CodeNotFound, "not found", ""},
	{store.ErrConflict, http.StatusConflict, CodeConflict, "conflict", "conflict: "},
	{store.ErrInvalid, http.StatusBadRequest, CodeInvalidRequest, "invalid request", ""},
	{store.ErrUnavailable, http.StatusServiceUnavailable, CodeUnavailable, "the service is busy: retry after the Retry-After seconds", ""},
}
