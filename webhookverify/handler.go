package webhookverify

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
)

// DefaultMaxBody bounds a delivery body read by Handler: a response may hold a 10 MiB
// screenshot, and the payload adds a little around it.
const DefaultMaxBody = 12 << 20

// HandlerOptions configure Handler.
type HandlerOptions struct {
	// MaxBody bounds the body; zero means DefaultMaxBody, and it must not be negative.
	MaxBody int64
	// Logger receives refused deliveries and handler failures; nil means slog.Default().
	Logger *slog.Logger
}

// Handler returns an http.Handler that reads a bounded body, verifies it with v, parses it and
// calls fn. It answers 401 for a bad signature, 400 for a body that does not parse, 413 for one
// over the limit, 405 for a method other than POST, 500 when fn fails (so svc retries), and 204
// when fn succeeds.
//
// It returns an error at once, and no handler, when v cannot verify anything (nil, no secret:
// ErrNoSecret, an empty one: ErrEmptySecret), fn is nil or opts.MaxBody is negative.
func Handler(v *Verifier, opts *HandlerOptions, fn func(ctx context.Context, e *Event) error) (http.Handler, error) {
	var o HandlerOptions
	if opts != nil {
		o = *opts
	}
	if err := v.check(); err != nil {
		return nil, err
	}
	if fn == nil {
		return nil, errors.New("webhookverify: Handler needs a func to call with each event")
	}
	if o.MaxBody < 0 {
		return nil, fmt.Errorf("webhookverify: HandlerOptions.MaxBody %d is negative", o.MaxBody)
	}
	if o.MaxBody == 0 {
		o.MaxBody = DefaultMaxBody
	}
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			w.Header().Set("Allow", http.MethodPost)
			http.Error(w, "webhooks are POSTed", http.StatusMethodNotAllowed)
			return
		}
		if r.ContentLength > o.MaxBody {
			http.Error(w, "body too large (HandlerOptions.MaxBody)", http.StatusRequestEntityTooLarge)
			return
		}
		body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, o.MaxBody))
		if err != nil {
			var tooLarge *http.MaxBytesError
			if errors.As(err, &tooLarge) {
				http.Error(w, "body too large (HandlerOptions.MaxBody)", http.StatusRequestEntityTooLarge)
				return
			}
			http.Error(w, "could not read body", http.StatusBadRequest)
			return
		}
		if err := v.VerifyRequest(r.Header, body); err != nil {
			o.Logger.WarnContext(r.Context(), "webhook refused", "err", err)
			http.Error(w, "invalid signature", http.StatusUnauthorized)
			return
		}
		e, err := ParseEvent(body)
		if err != nil {
			http.Error(w, "invalid event", http.StatusBadRequest)
			return
		}
		if err := fn(r.Context(), e); err != nil {
			o.Logger.ErrorContext(r.Context(), "webhook handler failed", "err", err, "response", e.Data.Response.ID)
			http.Error(w, "handler failed", http.StatusInternalServerError)
			return
		}
		w.WriteHeader(http.StatusNoContent)
	}), nil
}
