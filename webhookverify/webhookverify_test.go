package webhookverify_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/svc-feedback/svc/survey"
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

	// RequireTimestamp refuses the timestamp-less scheme.
	strict := &webhookverify.Verifier{Secrets: []string{"secret"}, RequireTimestamp: true, Now: func() time.Time { return now }}
	only256 := http.Header{webhookverify.HeaderSignature256: {webhookverify.Sign("secret", []byte(body))}}
	if err := strict.VerifyRequest(only256, []byte(body)); !errors.Is(err, webhookverify.ErrMissingSignature) {
		t.Errorf("strict verifier without timestamp: %v", err)
	}
}

func TestParseEvent(t *testing.T) {
	e, err := webhookverify.ParseEvent([]byte(body))
	if err != nil {
		t.Fatal(err)
	}
	r := e.Data.Response
	var raws []survey.Answer
	for _, a := range r.Data {
		raws = append(raws, a.Answer.Raw)
	}
	want := []survey.Answer{survey.Number(9), survey.Text("hi"), survey.Choices{"a", "b"}, survey.BugReportAnswer{Title: "t", Metadata: "m"},
		survey.UnknownAnswer(`{"x":1}`)} // a shape of a newer server, kept as JSON
	if diff := cmp.Diff(want, raws); diff != "" {
		t.Errorf("answers (-want +got):\n%s", diff)
	}
	if r.Survey.Team.Name != "Acme" || r.Metadata["page"] != "/" || !e.Timestamp.Equal(time.Date(2026, 11, 21, 10, 4, 5, 123e6, time.UTC)) {
		t.Errorf("event = %+v", e)
	}
	if _, err := webhookverify.ParseEvent([]byte(`{"event":"response.deleted"}`)); !errors.Is(err, webhookverify.ErrUnknownEvent) {
		t.Errorf("unknown event: %v", err)
	}
}

func TestHandler(t *testing.T) {
	v := &webhookverify.Verifier{Secrets: []string{"secret"}, Now: func() time.Time { return now }}
	var got []string
	failing := false
	h := webhookverify.Handler(v, &webhookverify.HandlerOptions{MaxBody: 4096}, func(ctx context.Context, e *webhookverify.Event) error {
		if failing {
			return errors.New("database down")
		}
		got = append(got, e.Data.Response.ID)
		return nil
	})
	send := func(method, b string, hdr http.Header) int {
		r := httptest.NewRequest(method, "/hook", strings.NewReader(b))
		for k, vs := range hdr {
			r.Header[k] = vs
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, r)
		return rec.Code
	}
	if code := send("POST", body, signed(now, "secret")); code != http.StatusNoContent {
		t.Errorf("valid delivery: %d", code)
	}
	if code := send("POST", body+" ", signed(now, "secret")); code != http.StatusUnauthorized {
		t.Errorf("tampered delivery: %d, want 401", code)
	}
	badBody := `{"event":`
	hb := http.Header{}
	webhookverify.SignHeaders(hb, "dlv_2", now, []byte(badBody), "secret")
	if code := send("POST", badBody, hb); code != http.StatusBadRequest {
		t.Errorf("unparsable delivery: %d, want 400", code)
	}
	big := strings.Repeat("x", 5000)
	if code := send("POST", big, signed(now, "secret")); code != http.StatusRequestEntityTooLarge {
		t.Errorf("oversized delivery: %d, want 413", code)
	}
	if code := send("GET", "", nil); code != http.StatusMethodNotAllowed {
		t.Errorf("GET: %d, want 405", code)
	}
	failing = true
	if code := send("POST", body, signed(now, "secret")); code != http.StatusInternalServerError {
		t.Errorf("failing handler: %d, want 500", code)
	}
	if diff := cmp.Diff([]string{"r1"}, got); diff != "" {
		t.Errorf("handled (-want +got):\n%s", diff)
	}
}

func FuzzVerify(f *testing.F) {
	f.Add([]byte(body), webhookverify.Sign("secret", []byte(body)), "secret")
	f.Add([]byte(""), "sha256=", "")
	f.Add([]byte("{}"), "sha256=zz", "k")
	f.Fuzz(func(t *testing.T, b []byte, header, secret string) {
		err := webhookverify.Verify(b, header, secret)
		if err == nil && header != webhookverify.Sign(secret, b) && !strings.EqualFold(header, webhookverify.Sign(secret, b)) {
			t.Fatalf("Verify accepted %q for a body whose signature is %q", header, webhookverify.Sign(secret, b))
		}
		if webhookverify.Verify(b, webhookverify.Sign(secret, b), secret) != nil {
			t.Fatal("Verify rejected its own signature")
		}
	})
}
