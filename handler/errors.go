package handler

import (
	"errors"
	"net/http"
	"strings"

	"github.com/svc-feedback/svc/store"
	"github.com/svc-feedback/svc/survey"
)

// Error is an API error: what the client sees as {"error": Message, "code": Code}.
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
	CodeTooLarge         = "payload_too_large"
	CodeUnsupportedMedia = "unsupported_media_type"
	CodeRateLimited      = "rate_limited"
	CodeOriginNotAllowed = "origin_not_allowed"
	CodeInternal         = "internal"
)

func badRequest(msg string) *Error {
	return &Error{Status: http.StatusBadRequest, Code: CodeInvalidRequest, Message: msg}
}

func unauthorized(msg string) *Error {
	return &Error{Status: http.StatusUnauthorized, Code: CodeUnauthorized, Message: msg}
}

func notFound(msg string) *Error {
	return &Error{Status: http.StatusNotFound, Code: CodeNotFound, Message: msg}
}

// toAPIError is the one table from errors to statuses. Errors it does not know are 500s,
// whose detail is logged, never sent.
func toAPIError(err error) (*Error, bool) {
	var apiErr *Error
	var tooLarge *http.MaxBytesError
	switch {
	case errors.As(err, &apiErr):
		return apiErr, true
	case errors.As(err, &tooLarge):
		return &Error{Status: http.StatusRequestEntityTooLarge, Code: CodeTooLarge, Message: "the request body is larger than the limit of this endpoint"}, true
	case errors.Is(err, store.ErrNotFound):
		return notFound("not found"), true
	case errors.Is(err, store.ErrConflict):
		return &Error{Status: http.StatusConflict, Code: CodeConflict, Message: "conflict: " + lastPart(err)}, true
	case errors.Is(err, survey.ErrInvalidAnswer), errors.Is(err, survey.ErrInvalidDefinition):
		return badRequest(err.Error()), true
	case errors.Is(err, store.ErrInvalid):
		return badRequest(afterSentinel(err, store.ErrInvalid)), true
	}
	return &Error{Status: http.StatusInternalServerError, Code: CodeInternal, Message: "internal error"}, false
}

// afterSentinel returns the detail that follows sentinel in err's message ("op: invalid: detail"
// gives "detail"); the sentinel's own word adds nothing to a 400. The first occurrence is the
// sentinel's, since the detail, which may quote the caller's input, comes after it.
func afterSentinel(err, sentinel error) string {
	msg := err.Error()
	if _, detail, ok := strings.Cut(msg, sentinel.Error()+": "); ok && detail != "" {
		return detail
	}
	return msg
}

// lastPart drops the "op: op: " context of a wrapped error, leaving its most specific part.
func lastPart(err error) string {
	msg := err.Error()
	if i := strings.LastIndex(msg, ": conflict"); i > 0 {
		msg = msg[:i]
	}
	if i := strings.LastIndex(msg, ": "); i >= 0 {
		msg = msg[i+2:]
	}
	return msg
}

// writeError writes err as a JSON error reply.
func (h *Handler) writeError(w http.ResponseWriter, r *http.Request, err error) {
	apiErr, known := toAPIError(err)
	if !known {
		h.log.ErrorContext(r.Context(), "request failed", "method", r.Method, "path", r.URL.Path, "err", err)
	}
	h.writeJSON(w, apiErr.Status, struct {
		Error string `json:"error"`
		Code  string `json:"code"`
	}{apiErr.Message, apiErr.Code})
}
