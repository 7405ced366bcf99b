package logbuf_test

import (
	"io"
	"log/slog"
	"os"

	"github.com/svc-feedback/svc/logbuf"
)

// An access log that costs a request the formatting of its line, not a write: give
// slog.New(handler) to svc.Options.AccessLog, and close the Writer once the server has stopped,
// which writes the last lines out.
func Example() {
	out := logbuf.New(os.Stdout)
	noTime := func(_ []string, a slog.Attr) slog.Attr { // for a stable output here
		if a.Key == slog.TimeKey {
			return slog.Attr{}
		}
		return a
	}
	accessLog := slog.New(slog.NewTextHandler(out, &slog.HandlerOptions{ReplaceAttr: noTime}))
	accessLog.Info("request", "method", "GET", "route", "GET /v1/svc/{surveyId}", "status", 200)
	out.Close()
	// Output: level=INFO msg=request method=GET route="GET /v1/svc/{surveyId}" status=200
}

// An access log that costs a request a copy of its record: the Handler formats the lines with
// slog's text handler and writes them out in batches, from a goroutine of its own. Give
// slog.New(handler) to svc.Options.AccessLog, and close the Handler once the server has
// stopped, which writes the last lines out.
func ExampleHandler() {
	noTime := func(_ []string, a slog.Attr) slog.Attr { // for a stable output here
		if a.Key == slog.TimeKey {
			return slog.Attr{}
		}
		return a
	}
	h := logbuf.NewHandler(os.Stdout, func(w io.Writer) slog.Handler {
		return slog.NewTextHandler(w, &slog.HandlerOptions{ReplaceAttr: noTime})
	})
	accessLog := slog.New(h)
	accessLog.Info("request", "method", "GET", "route", "GET /v1/svc/{surveyId}", "status", 200)
	h.Close()
	// Output: level=INFO msg=request method=GET route="GET /v1/svc/{surveyId}" status=200
}
