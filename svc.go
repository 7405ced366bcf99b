// Package svc hosts in-app feedback surveys inside any Go application: mount the handler,
// point the browser widget at it, read results with the client package, and receive a signed
// webhook for every new response.
//
//	st, err := sqlite.Open(ctx, "svc.db", nil)
//	...
//	h, err := svc.NewHandler(st, nil)
//	...
//	defer h.Close(ctx)
//	mux.Handle("/feedback/", http.StripPrefix("/feedback", h))
//
// Everything svc can be told is in Options. The survey model is in package survey, storage in
// package store (with store/sqlite), the HTTP layer in package handler, the Go client in package
// client and webhook verification in package webhookverify.
package svc

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"reflect"

	"github.com/svc-feedback/svc/internal/api"
	"github.com/svc-feedback/svc/internal/console"
	"github.com/svc-feedback/svc/internal/delivery"
	"github.com/svc-feedback/svc/internal/hostguard"
	"github.com/svc-feedback/svc/internal/segfill"
	"github.com/svc-feedback/svc/store"
)

// Handler is svc's http.Handler. Call Close when done to stop its background work.
type Handler struct {
	*api.Handler
	dispatcher *delivery.Dispatcher
	filler     *segfill.Filler // counts declared segments of stored responses (nil without them)
}

// NewHandler returns the svc API over s and starts delivering webhooks in the background. A nil
// opts means the defaults. It reports a nil store and every invalid option at once, before
// serving anything.
func NewHandler(s store.Store, opts *Options) (*Handler, error) {
	var o Options
	if opts != nil {
		o = *opts
	}
	hc, dc, err := o.build(storeError("NewHandler", s))
	if err != nil {
		return nil, err
	}
	h := &Handler{}
	if o.Observer != nil {
		o.Observer.Store(s)
	}
	if !o.Webhooks.Disabled {
		h.dispatcher = delivery.New(s, dc)
		hc.OnDeliveryScheduled = h.dispatcher.Notify
		h.dispatcher.Start()
	}
	if sc, ok := s.(store.SegmentCounter); ok {
		h.filler = segfill.New(sc, hc.Logger)
		hc.OnSegmentsChanged = h.filler.Notify
		h.filler.Start()
	}
	h.Handler = api.New(s, hc)
	return h, nil
}

var _ http.Handler = (*Handler)(nil)

// Close stops webhook delivery and the fill of segment counts: no new deliveries are claimed,
// those in flight may finish until ctx is done, and the rest stay pending for the next start
// (as does the fill, resumed where it stopped). It does not close the store.
func (h *Handler) Close(ctx context.Context) error {
	var errs []error
	if h.filler != nil {
		errs = append(errs, h.filler.Close(ctx))
	}
	if h.dispatcher != nil {
		errs = append(errs, h.dispatcher.Close(ctx))
	}
	return errors.Join(errs...)
}

// PrivateWebhookURL reports whether a webhook URL names a loopback, private, link-local or
// otherwise special-purpose address as written (an IP literal, "localhost" or a name under
// "localhost."), which deliveries refuse unless WebhookOptions.AllowPrivate is set. It resolves
// no name: deliveries check every address they actually reach as they connect.
func PrivateWebhookURL(u string) bool { return delivery.PrivateURL(u) }

// AllowHosts returns next answering only requests for the hosts listed, as the results pages
// do (see Options.PageHosts; none means loopback only), a 403 for any other, and a 400 for a
// Host whose port is not a number (such as "example.com:abc"). Give it a page of your own that
// needs no login, as the example server does its demo page, so that a web site cannot read it
// through DNS rebinding.
func AllowHosts(next http.Handler, hosts []string) (http.Handler, error) {
	g, err := hostguard.New(hosts)
	if err != nil {
		return nil, fmt.Errorf("svc: AllowHosts: %w", err)
	}
	return g.Wrap(next), nil
}

// NewResults returns the results pages of one team's surveys: the list of its surveys and, for
// each, its summary as charts (the funnel, drop-off, score bars, the NPS gauge, option counts,
// the newest answers), its latest responses and downloads of the range's responses (CSV and
// NDJSON), for a time range. They are HTML without
// script, under a strict Content-Security-Policy, answer only under opts.PageHosts (loopback by
// default), and have no authentication of their own: mount them behind your app's admin login,
// for example
//
//	mux.Handle("/admin/feedback/", requireAdmin(http.StripPrefix("/admin/feedback", results)))
func NewResults(s store.Store, teamID string, opts *Options) (http.Handler, error) {
	var o Options
	if opts != nil {
		o = *opts
	}
	hc, _, err := o.build(storeError("NewResults", s), teamError("NewResults", teamID))
	if err != nil {
		return nil, err
	}
	return console.NewResults(s, teamID, console.Config{Logger: hc.Logger, Now: hc.Now, MaxPageBytes: hc.MaxPageBytes, Spreadsheets: hc.Spreadsheets,
		PageHosts: hc.PageHosts, AccessLog: hc.AccessLog, OnRequest: hc.OnRequest}), nil
}

// ConsoleOptions configure the console (NewConsole): the handler's options it uses (PageHosts,
// Logger, Now, MaxPageBytes, AccessLog, and BaseURL: where svc's handler is served, which the
// console's Share page starts a survey's links and the widget's snippet with; unset, it assumes
// the root of the host the console is reached at) and the key that signs its forms.
type ConsoleOptions struct {
	Options
	// FormKey signs the token every form of the console carries against cross-site request
	// forgery. Instances behind one load balancer need the same key (32 random bytes, kept
	// secret; at least 16); nil means a random key of this process, for one instance. An empty
	// or shorter key, such as an environment variable that is not set, is an error.
	FormKey []byte
}

// minFormKey is the fewest bytes a ConsoleOptions.FormKey may hold.
const minFormKey = 16

// storeError is the error of a constructor given no store: nil, or a nil pointer (a store whose
// Open failed) that would fail at the first request or webhook.
func storeError(constructor string, s store.Store) error {
	if s == nil {
		return fmt.Errorf("svc: %s needs a store, not nil", constructor)
	}
	if v := reflect.ValueOf(s); v.Kind() == reflect.Pointer && v.IsNil() {
		return fmt.Errorf("svc: %s needs a store, not a nil %T (did opening it fail?)", constructor, s)
	}
	return nil
}

// teamError is the error of a constructor of one team's pages given no team.
func teamError(constructor, teamID string) error {
	if teamID == "" {
		return fmt.Errorf("svc: %s needs a team id", constructor)
	}
	return nil
}

// NewConsole returns the console of team teamID (README.md#results): the results pages of
// NewResults, and the changes product people make without a developer: a new survey from a
// template (inactive until published), publish, pause, duplicate and delete, and each survey's
// Share page (its anonymous link, personal links signed with the team's link secret, the
// widget's snippet). Like the results pages it is HTML without script under a strict
// Content-Security-Policy, answers only under opts.PageHosts, and has no login of its own:
// mount it behind your app's admin login. Every change must come from its own page
// (Sec-Fetch-Site or Origin) and carry its form token.
func NewConsole(s store.Store, teamID string, opts *ConsoleOptions) (http.Handler, error) {
	var o ConsoleOptions
	if opts != nil {
		o = *opts
	}
	var keyErr error
	if o.FormKey != nil && len(o.FormKey) < minFormKey {
		keyErr = fmt.Errorf("svc: ConsoleOptions.FormKey holds %d bytes, fewer than %d (is its environment variable set?); "+
			"give 32 random bytes, or leave it nil for a random key of this process", len(o.FormKey), minFormKey)
	}
	hc, _, err := o.Options.build(storeError("NewConsole", s), teamError("NewConsole", teamID), keyErr)
	if err != nil {
		return nil, err
	}
	return console.NewConsole(s, teamID, console.Config{Logger: hc.Logger, Now: hc.Now, MaxPageBytes: hc.MaxPageBytes, Spreadsheets: hc.Spreadsheets,
		PageHosts: hc.PageHosts, AccessLog: hc.AccessLog, OnRequest: hc.OnRequest, Audience: o.Audience != nil, BaseURL: hc.BaseURL}, o.FormKey), nil
}
