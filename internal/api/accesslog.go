package api

import (
	"log/slog"
	"net/http"
)

// statusRecorder notes the status and size of a reply, for the access log.
type statusRecorder struct {
	http.ResponseWriter
	status int
	bytes  int64
}

func (s *statusRecorder) WriteHeader(status int) {
	if s.status == 0 {
		s.status = status
	}
	s.ResponseWriter.WriteHeader(status)
}

func (s *statusRecorder) Write(b []byte) (int, error) {
	if s.status == 0 {
		s.status = http.StatusOK
	}
	n, err := s.ResponseWriter.Write(b)
	s.bytes += int64(n)
	return n, err
}

// observed serves r through next, then logs one line about it (method, route pattern, status,
// duration and bytes written) when the access log is on, and tells OnRequest when it is set.
// The route pattern stands for the path, so no respondent id, query string (which may hold
// personal data), key or body is ever logged.
func (h *Handler) observed(w http.ResponseWriter, r *http.Request, next func(http.ResponseWriter, *http.Request)) {
	start := h.now()
	rec := &statusRecorder{ResponseWriter: w}
	next(rec, r)
	route := r.Pattern // set by the mux on the request it routed
	if route == "" {
		route = "(no route)"
	}
	if rec.status == 0 {
		rec.status = http.StatusOK
	}
	took := h.now().Sub(start)
	if h.opts.OnRequest != nil {
		h.opts.OnRequest(route, rec.status, took)
	}
	if h.opts.AccessLog != nil {
		h.opts.AccessLog.LogAttrs(r.Context(), slog.LevelInfo, "request",
			slog.String("method", r.Method), slog.String("route", route), slog.Int("status", rec.status),
			slog.Duration("duration", took), slog.Int64("bytes", rec.bytes))
	}
}
