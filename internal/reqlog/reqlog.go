// Package reqlog observes the requests a handler serves: one access-log line each, and a call
// for metrics, both by route pattern. The JSON API and the pages observe alike.
package reqlog

import (
	"log/slog"
	"net/http"
	"time"
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

// Observer is what is told of each request: the access log, and a func for metrics. Either may
// be nil; On reports whether anything is.
type Observer struct {
	Now       func() time.Time
	AccessLog *slog.Logger
	OnRequest func(route string, status int, took time.Duration)
}

// On reports whether the Observer has anything to tell.
func (o Observer) On() bool { return o.AccessLog != nil || o.OnRequest != nil }

// Serve serves r through next, then logs one line about it (method, route pattern, status,
// duration and bytes written) to the access log, when there is one, and tells OnRequest, when
// there is one. The route pattern, which the mux sets on the request it routes, stands for the
// path, so no respondent id, query string (which may hold personal data), key or body is ever
// logged.
func (o Observer) Serve(w http.ResponseWriter, r *http.Request, next func(http.ResponseWriter, *http.Request)) {
	now := o.Now
	if now == nil {
		now = time.Now
	}
	start := now()
	rec := &statusRecorder{ResponseWriter: w}
	next(rec, r)
	route := r.Pattern
	if route == "" {
		route = "(no route)"
	}
	if rec.status == 0 {
		rec.status = http.StatusOK
	}
	end := now()
	took := end.Sub(start)
	if o.OnRequest != nil {
		o.OnRequest(route, rec.status, took)
	}
	if o.AccessLog == nil {
		return
	}
	// The record goes to the handler without a caller's program counter, which Logger's
	// methods look up on every call (a stack walk, a quarter of a line's cost) and which would
	// only ever name this function.
	if h := o.AccessLog.Handler(); h.Enabled(r.Context(), slog.LevelInfo) {
		line := slog.NewRecord(end, slog.LevelInfo, "request", 0)
		line.AddAttrs(slog.String("method", r.Method), slog.String("route", route), slog.Int("status", rec.status),
			slog.Duration("duration", took), slog.Int64("bytes", rec.bytes))
		_ = h.Handle(r.Context(), line)
	}
}
