package webhookverify_test

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/svc-feedback/svc/webhookverify"
)

const body = `{"event":"response.created","timestamp":"2026-11-21T10:04:05.123Z","data":{"response":{"id":"r1","respondent":"ann",
"data":[{"question":{"id":"nps","title":"NPS"},"answer":{"raw":9,"stringified":"9"}},
{"question":{"id":"c","title":"Comments"},"answer":{"raw":"hi","stringified":"\"hi\""}},
{"question":{"id":"m","title":"Missing"},"answer":{"raw":["a","b"],"stringified":"[\"a\",\"b\"]"}},
{"question":{"id":"b","title":"Bug"},"answer":{"raw":{"title":"t","metadata":"m"},"stringified":"{\"title\":\"t\",\"metadata\":\"m\"}"}},
{"question":{"id":"new","title":"Newer"},"answer":{"raw":{"x":1},"stringified":"{\"x\":1}"}}],
"metadata":{"page":"/"},"survey":{"id":"s1","title":"S","description":null,"team":{"id":"acme","name":"Acme"}}}}}`

var now = time.Date(2026, 11, 21, 10, 4, 5, 0, time.UTC)

func TestSignAndVerify(t *testing.T) {
	sig := webhookverify.Sign("secret", []byte(body))
	if !strings.HasPrefix(sig, "sha256=") || len(sig) != len("sha256=")+64 || strings.ToLower(sig) != sig {
		t.Fatalf("Sign = %q, want sha256= and 64 lowercase hex digits", sig)
	}
	tests := []struct {
		name    string
		body    string
		header  string
		secrets []string
		want    error
	}{
		{"valid", body, sig, []string{"secret"}, nil},
		{"valid with second secret", body, sig, []string{"new", "secret"}, nil},
		{"tampered body", body + " ", sig, []string{"secret"}, webhookverify.ErrNoMatchingSignature},
		{"wrong secret", body, sig, []string{"other"}, webhookverify.ErrNoMatchingSignature},
		{"missing header", body, "", []string{"secret"}, webhookverify.ErrMissingSignature},
		{"no prefix", body, strings.TrimPrefix(sig, "sha256="), []string{"secret"}, webhookverify.ErrInvalidHeaders},
		{"short hex", body, "sha256=abcd", []string{"secret"}, webhookverify.ErrInvalidHeaders},
		{"no secrets", body, sig, nil, webhookverify.ErrNoSecret},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := webhookverify.Verify([]byte(tt.body), tt.header, tt.secrets...)
			if !errors.Is(err, tt.want) || (tt.want == nil) != (err == nil) {
				t.Errorf("Verify = %v, want %v", err, tt.want)
			}
		})
	}
}

func signed(ts time.Time, secrets ...string) http.Header {
	h := http.Header{}
	webhookverify.SignHeaders(h, "dlv_1", ts, []byte(body), secrets...)
	return h
}

func TestVerifyStandardReplayAndRotation(t *testing.T) {
	v := &webhookverify.Verifier{Secrets: []string{"secret"}, Now: func() time.Time { return now }}
	if err := v.VerifyRequest(signed(now, "secret"), []byte(body)); err != nil {
		t.Errorf("fresh delivery: %v", err)
	}
	if err := v.VerifyRequest(signed(now.Add(-6*time.Minute), "secret"), []byte(body)); !errors.Is(err, webhookverify.ErrMessageTooOld) {
		t.Errorf("replayed delivery: %v, want ErrMessageTooOld", err)
	}
	if err := v.VerifyRequest(signed(now.Add(6*time.Minute), "secret"), []byte(body)); !errors.Is(err, webhookverify.ErrMessageTooNew) {
		t.Errorf("future delivery: %v, want ErrMessageTooNew", err)
	}
	// Changing the timestamp breaks the signature.
	h := signed(now.Add(-6*time.Minute), "secret")
	h.Set(webhookverify.HeaderWebhookTimestamp, "1795255445")
	if err := v.VerifyRequest(h, []byte(body)); !errors.Is(err, webhookverify.ErrNoMatchingSignature) {
		t.Errorf("re-stamped delivery: %v, want ErrNoMatchingSignature", err)
	}

	// During a rotation the sender signs with both; receivers holding either verify.
	rotated := signed(now, "new", "old")
	if got := strings.Count(rotated.Get(webhookverify.HeaderWebhookSignature), "v1,"); got != 2 {
		t.Fatalf("webhook-signature holds %d signatures, want 2", got)
	}
	for _, secret := range []string{"new", "old"} {
		rv := &webhookverify.Verifier{Secrets: []string{secret}, Now: func() time.Time { return now }}
		if err := rv.VerifyRequest(rotated, []byte(body)); err != nil {
			t.Errorf("receiver with %q: %v", secret, err)
		}
	}
	if err := webhookverify.Verify([]byte(body), rotated.Get(webhookverify.HeaderSignature256), "new"); err != nil {
		t.Errorf("X-Svc-Signature-256 during rotation does not carry the new secret: %v", err)
	}

	// By default a delivery without the Standard Webhooks headers is refused, so one captured
	// an hour ago cannot be replayed by stripping them; AllowUntimestamped accepts it.
	stale := signed(now.Add(-time.Hour), "secret")
	for _, name := range []string{webhookverify.HeaderWebhookID, webhookverify.HeaderWebhookTimestamp, webhookverify.HeaderWebhookSignature} {
		stale.Del(name)
	}
	if err := v.VerifyRequest(stale, []byte(body)); !errors.Is(err, webhookverify.ErrMissingSignature) {
		t.Errorf("default verifier, an hour-old delivery stripped of its webhook-* headers: %v, want ErrMissingSignature", err)
	}
	lenient := &webhookverify.Verifier{Secrets: []string{"secret"}, AllowUntimestamped: true, Now: func() time.Time { return now }}
	if err := lenient.VerifyRequest(stale, []byte(body)); err != nil {
		t.Errorf("AllowUntimestamped verifier, X-Svc-Signature-256 only: %v", err)
	}
}

// A secret of the Standard Webhooks form keys webhook-signature with its decoded bytes, and
// X-Svc-Signature-256 with its text; any other secret keys both with its text.
func TestSecretKeying(t *testing.T) {
	secret := webhookverify.NewSecret()
	key, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(secret, "whsec_"))
	if err != nil || len(key) != 32 || !strings.HasPrefix(secret, "whsec_") {
		t.Fatalf("NewSecret() = %q: want whsec_ and the base64 of 32 bytes", secret)
	}
	if webhookverify.NewSecret() == secret {
		t.Fatal("NewSecret repeated itself")
	}
	hmacOf := func(key []byte, msg string) string {
		m := hmac.New(sha256.New, key)
		m.Write([]byte(msg))
		return base64.StdEncoding.EncodeToString(m.Sum(nil))
	}
	const id, ts = "dlv_1", int64(1795255445)
	msg := id + ".1795255445." + body
	if got, want := webhookverify.SignStandard(secret, id, ts, []byte(body)), "v1,"+hmacOf(key, msg); got != want {
		t.Errorf("standard signature with a whsec_ secret = %s, want %s (keyed with the decoded bytes)", got, want)
	}
	m := hmac.New(sha256.New, []byte(secret))
	m.Write([]byte(body))
	if got, want := webhookverify.Sign(secret, []byte(body)), "sha256="+hex.EncodeToString(m.Sum(nil)); got != want {
		t.Errorf("X-Svc-Signature-256 with a whsec_ secret = %s, want %s (keyed with the text)", got, want)
	}
	for _, text := range []string{"local-dev-secret", "whsec_not base64!", "whsec_" + base64.StdEncoding.EncodeToString(make([]byte, 16)),
		"whsec_" + base64.RawStdEncoding.EncodeToString(make([]byte, 32))} {
		if got, want := webhookverify.SignStandard(text, id, ts, []byte(body)), "v1,"+hmacOf([]byte(text), msg); got != want {
			t.Errorf("standard signature with %q = %s, want it keyed with the text", text, got)
		}
	}
}

// FuzzVerify holds both schemes to their definition on any body, headers and secret: a
// delivery is accepted exactly when it carries the HMAC that the secret gives, so no header a
// sender did not sign passes, and every signature the package makes verifies.
func FuzzVerify(f *testing.F) {
	f.Add([]byte(body), webhookverify.Sign("secret", []byte(body)), "secret", "msg_1", int64(0), "v1,AAAA")
	f.Add([]byte(""), "sha256=", "", "", int64(-1), "")
	f.Add([]byte("{}"), "sha256=zz", "k", "id", int64(400), "v1,"+strings.Repeat("A", 44))
	f.Add([]byte("x"), "SHA256=00", webhookverify.NewSecret(), "a.b", int64(1<<40), "v2,x v1,y")
	f.Fuzz(func(t *testing.T, b []byte, header, secret, id string, skew int64, sigHeader string) {
		if secret == "" {
			// No delivery verifies with an empty secret, not even one it signed.
			if err := webhookverify.Verify(b, webhookverify.Sign(secret, b), secret); !errors.Is(err, webhookverify.ErrEmptySecret) {
				t.Fatalf("Verify with an empty secret: %v, want ErrEmptySecret", err)
			}
			return
		}
		err := webhookverify.Verify(b, header, secret)
		if want := webhookverify.Sign(secret, b); err == nil && !sameHexSignature(header, want) {
			t.Fatalf("Verify accepted %q for a body whose signature is %q", header, want)
		}
		if webhookverify.Verify(b, webhookverify.Sign(secret, b), secret) != nil {
			t.Fatal("Verify refused its own signature")
		}

		ts := now.Add(time.Duration(skew%3600) * time.Second)
		h := http.Header{}
		h.Set(webhookverify.HeaderWebhookID, id)
		h.Set(webhookverify.HeaderWebhookTimestamp, strconv.FormatInt(ts.Unix(), 10))
		h.Set(webhookverify.HeaderWebhookSignature, sigHeader)
		v := &webhookverify.Verifier{Secrets: []string{secret}, Now: func() time.Time { return now }}
		own := webhookverify.SignStandard(secret, h.Get(webhookverify.HeaderWebhookID), ts.Unix(), b)
		if err := v.VerifyRequest(h, b); err == nil && !holdsSignature(h.Get(webhookverify.HeaderWebhookSignature), own) {
			t.Fatalf("VerifyRequest accepted webhook-signature %q, which does not hold %q", sigHeader, own)
		}
		if h.Get(webhookverify.HeaderWebhookID) == "" {
			return // no message id: nothing can be signed for it
		}
		h.Set(webhookverify.HeaderWebhookSignature, own)
		err = v.VerifyRequest(h, b)
		inTolerance := skew%3600 >= -300 && skew%3600 <= 300
		if inTolerance != (err == nil) {
			t.Fatalf("VerifyRequest of its own signature sent %ds off: %v", skew%3600, err)
		}
	})
}

// sameHexSignature reports whether an X-Svc-Signature-256 value holds the bytes of sig (hex
// spells the same bytes in either letter case).
func sameHexSignature(header, sig string) bool {
	got, err := hex.DecodeString(strings.TrimPrefix(header, "sha256="))
	want, _ := hex.DecodeString(strings.TrimPrefix(sig, "sha256="))
	return strings.HasPrefix(header, "sha256=") && err == nil && hmac.Equal(got, want)
}

// holdsSignature reports whether a webhook-signature header has a v1 entry whose bytes are
// those of sig (base64 may spell the same bytes in more than one way).
func holdsSignature(header, sig string) bool {
	want, _ := base64.StdEncoding.DecodeString(strings.TrimPrefix(sig, "v1,"))
	for _, e := range strings.Fields(header) {
		if b64, ok := strings.CutPrefix(e, "v1,"); ok {
			if got, err := base64.StdEncoding.DecodeString(b64); err == nil && hmac.Equal(got, want) {
				return true
			}
		}
	}
	return false
}
