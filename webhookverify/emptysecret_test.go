package webhookverify_test

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/svc-feedback/svc/webhookverify"
)

// An empty secret (an environment variable that is not set) is refused at once by the
// constructors, and by every verifying function for every delivery: a signature keyed with
// nothing, which anyone can make, is never accepted.
func TestEmptySecretIsRefused(t *testing.T) {
	for name, secrets := range map[string][]string{"one empty": {""}, "an empty one while rotating": {"current", ""}} {
		t.Run(name, func(t *testing.T) {
			if v, err := webhookverify.NewVerifier(secrets...); !errors.Is(err, webhookverify.ErrEmptySecret) || v != nil {
				t.Errorf("NewVerifier(%q) = %v, %v; want no verifier and ErrEmptySecret", secrets, v, err)
			}
			v := &webhookverify.Verifier{Secrets: secrets, Now: func() time.Time { return now }}
			h, err := webhookverify.Handler(v, nil, func(context.Context, *webhookverify.Event) error { return nil })
			if !errors.Is(err, webhookverify.ErrEmptySecret) || h != nil {
				t.Errorf("Handler with secrets %q: %v; want ErrEmptySecret and no handler", secrets, err)
			}
			if err == nil || !strings.Contains(err.Error(), "secret is empty") {
				t.Errorf("Handler's error %q does not say the secret is empty", err)
			}

			// Deliveries signed with the empty secret, as a forger could sign them.
			forged := signed(now, "")
			if err := webhookverify.Verify([]byte(body), forged.Get(webhookverify.HeaderSignature256), secrets...); !errors.Is(err, webhookverify.ErrEmptySecret) {
				t.Errorf("Verify: %v, want ErrEmptySecret", err)
			}
			if err := webhookverify.VerifyStandard([]byte(body), forged, now, 0, secrets...); !errors.Is(err, webhookverify.ErrEmptySecret) {
				t.Errorf("VerifyStandard: %v, want ErrEmptySecret", err)
			}
			if err := v.VerifyRequest(forged, []byte(body)); !errors.Is(err, webhookverify.ErrEmptySecret) {
				t.Errorf("a Verifier literal's VerifyRequest: %v, want ErrEmptySecret", err)
			}
			lenient := &webhookverify.Verifier{Secrets: secrets, AllowUntimestamped: true}
			only256 := http.Header{webhookverify.HeaderSignature256: {forged.Get(webhookverify.HeaderSignature256)}}
			if err := lenient.VerifyRequest(only256, []byte(body)); !errors.Is(err, webhookverify.ErrEmptySecret) {
				t.Errorf("AllowUntimestamped VerifyRequest: %v, want ErrEmptySecret", err)
			}
		})
	}
	if _, err := webhookverify.NewVerifier(); !errors.Is(err, webhookverify.ErrNoSecret) {
		t.Errorf("NewVerifier(): %v, want ErrNoSecret", err)
	}
	if err := webhookverify.VerifyStandard([]byte(body), signed(now, "s"), now, 0); !errors.Is(err, webhookverify.ErrNoSecret) {
		t.Errorf("VerifyStandard without secrets: %v, want ErrNoSecret", err)
	}
}

// NewVerifier's Verifier verifies as a literal one does; Handler refuses at once what cannot
// work (no Verifier, no func, a negative MaxBody), and serves when given what it needs.
func TestNewVerifierAndHandlerChecks(t *testing.T) {
	v, err := webhookverify.NewVerifier("new", "old")
	if err != nil {
		t.Fatal(err)
	}
	v.Now = func() time.Time { return now }
	if err := v.VerifyRequest(signed(now, "old"), []byte(body)); err != nil {
		t.Errorf("delivery signed with the second secret: %v", err)
	}
	if err := v.VerifyRequest(signed(now, "other"), []byte(body)); !errors.Is(err, webhookverify.ErrNoMatchingSignature) {
		t.Errorf("delivery signed with another secret: %v, want ErrNoMatchingSignature", err)
	}

	ok := func(context.Context, *webhookverify.Event) error { return nil }
	for name, c := range map[string]struct {
		v    *webhookverify.Verifier
		opts *webhookverify.HandlerOptions
		fn   func(context.Context, *webhookverify.Event) error
		says string
	}{
		"no verifier":      {nil, nil, ok, "no Verifier"},
		"no secrets":       {&webhookverify.Verifier{}, nil, ok, "no secret"},
		"no func":          {v, nil, nil, "func"},
		"a negative limit": {v, &webhookverify.HandlerOptions{MaxBody: -1}, ok, "MaxBody"},
	} {
		if h, err := webhookverify.Handler(c.v, c.opts, c.fn); err == nil || h != nil || !strings.Contains(err.Error(), c.says) {
			t.Errorf("%s: Handler = %v, %v; want no handler and an error saying %q", name, h, err, c.says)
		}
	}

	h, err := webhookverify.Handler(v, &webhookverify.HandlerOptions{Logger: slog.New(slog.DiscardHandler)}, ok)
	if err != nil {
		t.Fatal(err)
	}
	r := httptest.NewRequest("POST", "/hook", strings.NewReader(body))
	webhookverify.SignHeaders(r.Header, "dlv_1", now, []byte(body), "new")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, r)
	if rec.Code != http.StatusNoContent {
		t.Errorf("a signed delivery: %d %s, want 204", rec.Code, rec.Body)
	}
}

// A refusal that a Verifier's field would lift names the field.
func TestRefusalsNameTheirOption(t *testing.T) {
	v := &webhookverify.Verifier{Secrets: []string{"secret"}, Now: func() time.Time { return now }}
	old := v.VerifyRequest(signed(now.Add(-10*time.Minute), "secret"), []byte(body))
	if !errors.Is(old, webhookverify.ErrMessageTooOld) || !strings.Contains(old.Error(), "Verifier.Tolerance") {
		t.Errorf("a delivery 10 minutes old: %v, want ErrMessageTooOld naming Verifier.Tolerance", old)
	}
	only256 := http.Header{webhookverify.HeaderSignature256: {webhookverify.Sign("secret", []byte(body))}}
	err := v.VerifyRequest(only256, []byte(body))
	if !errors.Is(err, webhookverify.ErrMissingSignature) || !strings.Contains(err.Error(), "Verifier.AllowUntimestamped") {
		t.Errorf("a delivery with X-Svc-Signature-256 only: %v, want ErrMissingSignature naming Verifier.AllowUntimestamped", err)
	}

	h, err := webhookverify.Handler(v, &webhookverify.HandlerOptions{MaxBody: 10, Logger: slog.New(slog.DiscardHandler)},
		func(context.Context, *webhookverify.Event) error { return nil })
	if err != nil {
		t.Fatal(err)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("POST", "/hook", strings.NewReader(body)))
	if rec.Code != http.StatusRequestEntityTooLarge || !strings.Contains(rec.Body.String(), "HandlerOptions.MaxBody") {
		t.Errorf("a body over MaxBody: %d %q, want 413 naming HandlerOptions.MaxBody", rec.Code, rec.Body)
	}
}
