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
	"github.com/svc-feedback/svc/internal/webhook"
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
	// RateLimit, when set, limits the public endpoints per publishable key and client
	// address (429 with Retry-After beyond it). Off by default.
	RateLimit *handler.RateLimit

	// AllowPrivateWebhooks lets webhook deliveries reach loopback, private and link-local
	// addresses. Leave it off in production: it would let survey owners probe your network.
	AllowPrivateWebhooks bool
	// Webhook tunes delivery (workers, timeouts, retries); zero values mean the contract's
	// defaults: 5 s per attempt, 3 retries at about 1 s, 2 s and 4 s, Retry-After up to 60 s.
	Webhook WebhookOptions
	// DisableWebhooks stops this handler from sending deliveries (another instance sharing
	// the store may send them). Deliveries are still scheduled.
	DisableWebhooks bool
}

// WebhookOptions tune webhook delivery.
type WebhookOptions struct {
	Workers        int
	PollInterval   time.Duration
	AttemptTimeout time.Duration
	// RetryMax is the number of retries after the first attempt; zero means 3, -1 none.
	RetryMax      int
	RetryWaitMin  time.Duration
	RetryAfterMax time.Duration
	Lease         time.Duration
	// Observe, when set, is called with the outcome of every delivery (for metrics).
	Observe func(store.DeliveryResult)
}

// Handler is svc's http.Handler. Call Close when done to stop its background work.
type Handler struct {
	*handler.Handler
	dispatcher *webhook.Dispatcher
}

// NewHandler returns the svc API over s and starts delivering webhooks in the background.
func NewHandler(s store.Store, opts *Options) *Handler {
	var o Options
	if opts != nil {
		o = *opts
	}
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	h := &Handler{}
	if !o.DisableWebhooks {
		w := o.Webhook
		h.dispatcher = webhook.New(s, webhook.Options{
			Logger: o.Logger, Now: o.Now, AllowPrivate: o.AllowPrivateWebhooks,
			Workers: w.Workers, PollInterval: w.PollInterval, AttemptTimeout: w.AttemptTimeout,
			RetryMax: w.RetryMax, RetryWaitMin: w.RetryWaitMin, RetryAfterMax: w.RetryAfterMax, Lease: w.Lease, Observe: w.Observe,
		})
	}
	ho := handler.Options{
		Logger: o.Logger, Now: o.Now, BaseURL: o.BaseURL, AllowedOrigins: o.AllowedOrigins,
		MaxEventBody: o.MaxEventBody, MaxResponseBody: o.MaxResponseBody, RateLimit: o.RateLimit,
	}
	if h.dispatcher != nil {
		ho.OnDeliveryScheduled = h.dispatcher.Notify
		h.dispatcher.Start()
	}
	h.Handler = handler.New(s, ho)
	return h
}

var _ http.Handler = (*Handler)(nil)

// Close stops webhook delivery: no new deliveries are claimed, those in flight may finish
// until ctx is done, and the rest stay pending for the next start. It does not close the store.
func (h *Handler) Close(ctx context.Context) error {
	if h.dispatcher == nil {
		return nil
	}
	return h.dispatcher.Close(ctx)
}

// PrivateWebhookURL reports whether a webhook URL names a loopback, private, link-local or
// otherwise special-purpose address as written (an IP literal, "localhost" or a name under
// "localhost."), which deliveries refuse unless Options.AllowPrivateWebhooks is set. It resolves
// no name: deliveries check every address they actually reach as they connect.
func PrivateWebhookURL(u string) bool { return webhook.PrivateURL(u) }
