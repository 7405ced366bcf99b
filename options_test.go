package svc_test

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/svc-feedback/svc"
	"github.com/svc-feedback/svc/store"
	"github.com/svc-feedback/svc/store/sqlite"
)

func openStore(t *testing.T) *sqlite.Store {
	t.Helper()
	st, err := sqlite.Open(t.Context(), filepath.Join(t.TempDir(), "svc.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// Mistakes in the options are reported when the handler is built, all at once, each naming the
// option, rather than showing later as broken links or refused browsers.
func TestNewHandlerRefusesInvalidOptions(t *testing.T) {
	st := openStore(t)
	tests := map[string]struct {
		opts svc.Options
		want []string
	}{
		"base URL that is not a URL": {svc.Options{BaseURL: "not a url"}, []string{"BaseURL"}},
		"base URL with a query":      {svc.Options{BaseURL: "https://x.example/?a=1"}, []string{"BaseURL"}},
		"origin with a path":         {svc.Options{AllowedOrigins: []string{"https://app.example.com/page"}}, []string{"AllowedOrigins", "/page"}},
		"origin without a scheme":    {svc.Options{AllowedOrigins: []string{"app.example.com"}}, []string{"AllowedOrigins"}},
		"page host with a path":      {svc.Options{PageHosts: []string{"https://admin.example.com/"}}, []string{"PageHosts"}},
		"negative body limit":        {svc.Options{MaxResponseBody: -1}, []string{"MaxResponseBody"}},
		"rate limit of zero":         {svc.Options{RateLimit: &svc.RateLimit{}}, []string{"RateLimit"}},
		"negative webhook timeout":   {svc.Options{Webhooks: svc.WebhookOptions{AttemptTimeout: -time.Second}}, []string{"Webhooks"}},
		"every mistake at once": {svc.Options{BaseURL: "::", AllowedOrigins: []string{"nope"}, MaxEventBody: -5},
			[]string{"BaseURL", "AllowedOrigins", "MaxEventBody"}},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			tt.opts.Webhooks.Disabled = true
			h, err := svc.NewHandler(st, &tt.opts)
			if err == nil {
				h.Close(t.Context())
				t.Fatal("NewHandler succeeded, want an error")
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not name %q", err, w)
				}
			}
		})
	}
	h, err := svc.NewHandler(st, &svc.Options{BaseURL: "https://app.example.com/feedback/", Webhooks: svc.WebhookOptions{Disabled: true}})
	if err != nil {
		t.Fatalf("valid options: %v", err)
	}
	h.Close(t.Context())
}

// "*" means any origin; configured origins match however the browser's Origin is spelt in case
// or default port, and a configured trailing slash does not matter; a preflight from another
// origin gets a JSON 403 that says why.
func TestAllowedOrigins(t *testing.T) {
	st := openStore(t)
	preflight := func(h http.Handler, origin string) *httptest.ResponseRecorder {
		r := httptest.NewRequest("OPTIONS", "/v1/svc/cabc/response/x", nil)
		r.Header.Set("Origin", origin)
		r.Header.Set("Access-Control-Request-Method", "PUT")
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, r)
		return rec
	}
	build := func(origins ...string) http.Handler {
		h, err := svc.NewHandler(st, &svc.Options{Logger: slog.New(slog.DiscardHandler), AllowedOrigins: origins,
			Webhooks: svc.WebhookOptions{Disabled: true}})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { h.Close(t.Context()) })
		return h
	}

	anyOrigin := build("https://app.example.com", "*")
	if rec := preflight(anyOrigin, "https://elsewhere.example"); rec.Code != 204 || rec.Header().Get("Access-Control-Allow-Origin") != "*" {
		t.Errorf(`with "*": preflight = %d, Allow-Origin %q; want 204, "*"`, rec.Code, rec.Header().Get("Access-Control-Allow-Origin"))
	}

	h := build("HTTPS://App.Example.com/", "http://localhost:8080")
	for _, origin := range []string{"https://app.example.com", "https://APP.example.com:443", "http://localhost:8080"} {
		if rec := preflight(h, origin); rec.Code != 204 || rec.Header().Get("Access-Control-Allow-Origin") != origin {
			t.Errorf("origin %s: preflight = %d, Allow-Origin %q; want 204 and the origin", origin, rec.Code, rec.Header().Get("Access-Control-Allow-Origin"))
		}
	}
	for _, origin := range []string{"https://evil.example", "http://app.example.com", "http://localhost:8081", ""} {
		rec := preflight(h, origin)
		var body struct{ Error, Code string }
		if err := json.Unmarshal(rec.Body.Bytes(), &body); err != nil || rec.Code != 403 || body.Code != "origin_not_allowed" ||
			!strings.Contains(body.Error, "not allowed") {
			t.Errorf("origin %q: preflight = %d %s, want a JSON 403 origin_not_allowed", origin, rec.Code, rec.Body)
		}
		if rec.Header().Get("Access-Control-Allow-Origin") != "" {
			t.Errorf("origin %q: refused preflight still allows the origin", origin)
		}
	}
}

// A store that is nil, or a nil pointer (an Open whose error was not checked), is refused by
// every constructor at once, rather than ending the process at the first request or webhook.
func TestConstructorsRefuseNoStore(t *testing.T) {
	var unopened *sqlite.Store
	for name, s := range map[string]store.Store{"nil": nil, "a nil *sqlite.Store": unopened} {
		t.Run(name, func(t *testing.T) {
			h, err := svc.NewHandler(s, nil)
			if err == nil || h != nil || !strings.Contains(err.Error(), "NewHandler needs a store") {
				t.Errorf("NewHandler: %v, %v; want no handler and an error saying it needs a store", h, err)
			}
			if _, err := svc.NewResults(s, "acme", nil); err == nil || !strings.Contains(err.Error(), "NewResults needs a store") {
				t.Errorf("NewResults: %v, want an error saying it needs a store", err)
			}
			if _, err := svc.NewConsole(s, "acme", nil); err == nil || !strings.Contains(err.Error(), "NewConsole needs a store") {
				t.Errorf("NewConsole: %v, want an error saying it needs a store", err)
			}
		})
	}
	// With the other mistakes, all at once.
	_, err := svc.NewConsole(nil, "", &svc.ConsoleOptions{Options: svc.Options{MaxEventBody: -1}})
	for _, want := range []string{"store", "team id", "MaxEventBody"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("NewConsole(nil, \"\", a negative MaxEventBody): %v, want it to name %s", err, want)
		}
	}
}

// nilObserver's methods are those of a pointer: a nil one in Options.Observer would be called.
type nilObserver struct{ n int }

func (o *nilObserver) Request(string, int, time.Duration) { o.n++ }
func (o *nilObserver) Attempt(string, int)                { o.n++ }
func (o *nilObserver) Store(store.Store)                  { o.n++ }

// Options that cannot work are refused when the handler or console is built, naming the
// option: an Observer holding a nil pointer, a console FormKey that is empty (an unset
// environment variable) or too short.
func TestConstructorsRefuseUnusableOptions(t *testing.T) {
	st := openStore(t)
	var obs *nilObserver
	if h, err := svc.NewHandler(st, &svc.Options{Observer: obs, Webhooks: svc.WebhookOptions{Disabled: true}}); err == nil ||
		!strings.Contains(err.Error(), "Observer") {
		if h != nil {
			h.Close(t.Context())
		}
		t.Errorf("NewHandler with a nil *nilObserver: %v, want an error naming Observer", err)
	}
	for _, key := range [][]byte{{}, []byte("short")} {
		if _, err := svc.NewConsole(st, "acme", &svc.ConsoleOptions{FormKey: key}); err == nil || !strings.Contains(err.Error(), "FormKey") {
			t.Errorf("NewConsole with a FormKey of %d bytes: %v, want an error naming FormKey", len(key), err)
		}
	}
	for _, key := range [][]byte{nil, []byte("0123456789abcdef0123456789abcdef")} {
		if _, err := svc.NewConsole(st, "acme", &svc.ConsoleOptions{FormKey: key}); err != nil {
			t.Errorf("NewConsole with a FormKey of %d bytes: %v", len(key), err)
		}
	}
}

// A delivery refused for reaching a loopback address says, in the delivery log, what allows
// it: the option and the example server's flag.
func TestPrivateWebhookRefusalNamesTheOption(t *testing.T) {
	rv := newReceiver(t)
	e := setupHooks(t, rv.URL, func(o *svc.Options, _ *store.Survey) { o.Webhooks.AllowPrivate = false })
	e.put(e.ids.New(), "ann", `{}`)
	res := e.outcome()
	for _, want := range []string{"not public", "svc.Options.Webhooks.AllowPrivate", "-allow-private-webhooks"} {
		if res.State != store.DeliveryFailed || !strings.Contains(res.LastError, want) {
			t.Errorf("delivery to loopback: %s %q, want failed saying %q", res.State, res.LastError, want)
		}
	}
}

// NewHandler refuses a store that is nil at once, naming what it needs.
func ExampleNewHandler_noStore() {
	_, err := svc.NewHandler(nil, nil)
	fmt.Println(err)
	// Output:
	// svc: NewHandler needs a store, not nil
}
