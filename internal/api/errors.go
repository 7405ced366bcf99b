package api

import (
	"net/http"

	"github.com/svc-feedback/svc/internal/problem"
)

// Error is an API error: what the client sees as {"error": Message, "code": Code}.
type Error = problem.Error

// Error codes, the machine word of every error reply (package problem holds them).
const (
	CodeInvalidRequest   = problem.CodeInvalidRequest
	CodeUnauthorized     = problem.CodeUnauthorized
	CodeNotFound         = problem.CodeNotFound
	CodeMethodNotAllowed = problem.CodeMethodNotAllowed
	CodeConflict         = problem.CodeConflict
	CodePrecondition     = problem.CodePrecondition
	CodeTooLarge         = problem.CodeTooLarge
	CodeUnsupportedMedia = problem.CodeUnsupportedMedia
	CodeRateLimited      = problem.CodeRateLimited
	CodeOriginNotAllowed = problem.CodeOriginNotAllowed
	CodeInternal         = problem.CodeInternal
	CodeUnavailable      = problem.CodeUnavailable
	CodeNotImplemented   = problem.CodeNotImplemented
)

func badRequest(msg string) *Error   { return problem.BadRequest(msg) }
func unauthorized(msg string) *Error { return problem.Unauthorized(msg) }
func notFound(msg string) *Error     { return problem.NotFound(msg) }

// writeError writes err as a JSON error reply, through problem's one table of statuses.
func (h *Handler) writeError(w http.ResponseWriter, r *http.Request, err error) {
	apiErr, known := problem.From(err)
	if apiErr.Status == http.StatusServiceUnavailable {
		w.Header().Set("Retry-After", problem.UnavailableRetryAfter)
		h.log.WarnContext(r.Context(), "request refused: store unavailable", "method", r.Method, "path", r.URL.Path, "err", err)
	}
	if !known {
		h.log.ErrorContext(r.Context(), "request failed", "method", r.Method, "path", r.URL.Path, "err", err)
	}
	h.writeJSON(w, apiErr.Status, struct {
		Error string `json:"error"`
		Code  string `json:"code"`
	}{apiErr.Message, apiErr.Code})
}
