package svc_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	standardwebhooks "github.com/standard-webhooks/standard-webhooks/libraries/go"

	"github.com/svc-feedback/svc"
	"github.com/svc-feedback/svc/internal/cuid2"
	"github.com/svc-feedback/svc/store"
	"github.com/svc-feedback/svc/store/sqlite"
	"github.com/svc-feedback/svc/survey"
	"github.com/svc-feedback/svc/webhookverify"
)

// delivery is one request a test receiver got.
type delivery struct {
	at     time.Time
	header http.Header
	body   []byte
}

// receiver is a real HTTP server on loopback that answers with the statuses of script, in
// order (200 once they run out), and records what it got.
type receiver struct {
	*httptest.Server
	mu     sync.Mutex
	got    []delivery
	script []func(w http.ResponseWriter)
}

func newReceiver(t *testing.T, script ...func(w http.ResponseWriter)) *receiver {
	rv := &receiver{script: script}
	rv.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		rv.mu.Lock()
		rv.got = append(rv.got, delivery{time.Now(), r.Header.Clone(), body})
		var step func(http.ResponseWriter)
		if len(rv.script) > 0 {
			step, rv.script = rv.script[0], rv.script[1:]
		}
		rv.mu.Unlock()
		if step != nil {
			step(w)
			return
		}
		w.WriteHeader(http.StatusOK)
	}))
	t.Cleanup(rv.Close)
	return rv
}

func (rv *receiver) deliveries() []delivery {
	rv.mu.Lock()
	defer rv.mu.Unlock()
	return append([]delivery(nil), rv.got...)
}

func status(code int) func(http.ResponseWriter) {
	return func(w http.ResponseWriter) { w.WriteHeader(code) }
}

// hookEnv is the svc handler over SQLite with a survey whose webhook points at a receiver.
type hookEnv struct {
	t        *testing.T
	path     string
	store    *sqlite.Store
	h        *svc.Handler
	srv      *httptest.Server
	pk, sk   string
	survey   store.Survey
	outcomes chan store.DeliveryResult
	ids      *cuid2.Generator
}

type hookOpt func(o *svc.Options, sv *store.Survey)

func withSecret(secret string) hookOpt {
	return func(_ *svc.Options, sv *store.Survey) { sv.WebhookSecret = secret }
}

func setupHooks(t *testing.T, url string, opts ...hookOpt) *hookEnv {
	t.Helper()
	e := &hookEnv{t: t, path: filepath.Join(t.TempDir(), "svc.db"), outcomes: make(chan store.DeliveryResult, 256), ids: cuid2.NewGenerator()}
	var err error
	e.store, err = sqlite.Open(t.Context(), e.path, nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx := t.Context()
	now := time.Now().UTC()
	if err := e.store.CreateTeam(ctx, store.Team{ID: "acme", Name: "Acme Inc", CreatedAt: now}); err != nil {
		t.Fatal(err)
	}
	e.pk, _, _ = store.CreateKey(ctx, e.store, "acme", store.Publishable, now)
	e.sk, _, _ = store.CreateKey(ctx, e.store, "acme", store.Secret, now)
	e.survey = store.Survey{ID: e.ids.New(), TeamID: "acme", Status: store.StatusActive, Definition: survey.Sample(),
		WebhookURL: url, CreatedAt: now, UpdatedAt: now}
	o := e.options()
	for _, f := range opts {
		f(o, &e.survey)
	}
	if err := e.store.CreateSurvey(ctx, e.survey); err != nil {
		t.Fatal(err)
	}
	e.start(o)
	t.Cleanup(func() { e.stop() })
	return e
}

func (e *hookEnv) options() *svc.Options {
	return &svc.Options{Logger: slog.New(slog.DiscardHandler), Webhooks: svc.WebhookOptions{AllowPrivate: true,
		PollInterval: 20 * time.Millisecond, AttemptTimeout: 500 * time.Millisecond, RetryWaitMin: 10 * time.Millisecond,
		Observe: func(r store.DeliveryResult) { e.outcomes <- r },
	}}
}

func (e *hookEnv) start(o *svc.Options) {
	h, err := svc.NewHandler(e.store, o)
	if err != nil {
		e.t.Fatal(err)
	}
	e.h = h
	e.srv = httptest.NewServer(e.h)
}

func (e *hookEnv) stop() {
	if e.srv != nil {
		e.srv.Close()
		_ = e.h.Close(context.Background())
		e.srv = nil
	}
	_ = e.store.Close()
}

func (e *hookEnv) put(id, respondent, data string) {
	e.t.Helper()
	r, _ := http.NewRequest("PUT", e.srv.URL+"/v1/svc/"+e.survey.ID+"/response/"+id,
		strings.NewReader(`{"respondent":"`+respondent+`","data":`+data+`,"metadata":{"page":"/pricing"}}`))
	r.Header.Set("x-svc-pk", e.pk)
	r.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(r)
	if err != nil {
		e.t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		e.t.Fatalf("PUT: %d", resp.StatusCode)
	}
}

// outcome waits for the next recorded delivery outcome.
func (e *hookEnv) outcome() store.DeliveryResult {
	e.t.Helper()
	select {
	case r := <-e.outcomes:
		return r
	case <-time.After(30 * time.Second):
		e.t.Fatal("no delivery outcome within 30 s")
		return store.DeliveryResult{}
	}
}

func (e *hookEnv) noOutcome() {
	e.t.Helper()
	select {
	case r := <-e.outcomes:
		e.t.Fatalf("unexpected delivery outcome %+v", r)
	default:
	}
}

func TestWebhookPayloadAndSignature(t *testing.T) {
	rv := newReceiver(t)
	e := setupHooks(t, rv.URL, withSecret("whsec-test"))
	id := e.ids.New()
	e.put(id, "ann@example.com", `{"comments":"Great <3 & more","nps":9,"missing":["Speed","Docs"],"bug":{"title":"t","metadata":"m"}}`)
	res := e.outcome()
	if res.State != store.DeliverySucceeded || res.Attempts != 1 || res.LastStatus != 200 {
		t.Fatalf("outcome = %+v", res)
	}
	got := rv.deliveries()
	if len(got) != 1 {
		t.Fatalf("receiver got %d deliveries", len(got))
	}
	d := got[0]
	for k, want := range map[string]string{"Content-Type": "application/json", "User-Agent": "Svc-Webhook",
		"X-Svc-Event": "response.created", "X-Svc-Delivery": res.ID, "webhook-id": res.ID} {
		if d.header.Get(k) != want {
			t.Errorf("header %s = %q, want %q", k, d.header.Get(k), want)
		}
	}
	v := &webhookverify.Verifier{Secrets: []string{"whsec-test"}}
	if err := v.VerifyRequest(d.header, d.body); err != nil {
		t.Errorf("standard signature: %v", err)
	}
	if err := webhookverify.Verify(d.body, d.header.Get("X-Svc-Signature-256"), "whsec-test"); err != nil {
		t.Errorf("X-Svc-Signature-256: %v", err)
	}
	ev, err := webhookverify.ParseEvent(d.body)
	if err != nil {
		t.Fatal(err)
	}
	r := ev.Data.Response
	var order []string
	for _, a := range r.Data {
		order = append(order, a.Question.ID+"="+a.Answer.Stringified)
	}
	want := []string{"nps=9", `missing=["Speed","Docs"]`, `comments="Great <3 & more"`, `bug={"title":"t","metadata":"m"}`}
	if strings.Join(order, " ") != strings.Join(want, " ") {
		t.Errorf("answers in order = %v, want %v (position order, stringified raw as JSON.stringify writes it)", order, want)
	}
	if r.ID != id || r.Respondent != "ann@example.com" || r.Metadata["page"] != "/pricing" || r.Survey.ID != e.survey.ID ||
		r.Survey.Title != "How are we doing?" || r.Survey.Description == nil || r.Survey.Team.ID != "acme" || r.Survey.Team.Name != "Acme Inc" {
		t.Errorf("payload response = %+v", r)
	}
	var raw map[string]any
	_ = json.Unmarshal(d.body, &raw)
	if ts, _ := raw["timestamp"].(string); len(ts) != len("2026-11-21T10:04:05.123Z") || !strings.HasSuffix(ts, "Z") {
		t.Errorf("timestamp %q is not UTC with milliseconds", raw["timestamp"])
	}

	// A replay of this delivery ten minutes later is refused by the receiver.
	late := &webhookverify.Verifier{Secrets: []string{"whsec-test"}, Now: func() time.Time { return time.Now().Add(10 * time.Minute) }}
	if err := late.VerifyRequest(d.header, d.body); !errors.Is(err, webhookverify.ErrMessageTooOld) {
		t.Errorf("replayed delivery: %v, want ErrMessageTooOld", err)
	}

	// An update sends nothing.
	e.put(id, "ann@example.com", `{"nps":3}`)
	e.put(e.ids.New(), "bob", `{}`)
	e.outcome()
	if n := len(rv.deliveries()); n != 2 {
		t.Errorf("receiver got %d deliveries after an update and a new response, want 2", n)
	}
}

func TestWebhookUnsignedWithoutSecret(t *testing.T) {
	rv := newReceiver(t)
	e := setupHooks(t, rv.URL)
	e.put(e.ids.New(), "ann", `{}`)
	e.outcome()
	h := rv.deliveries()[0].header
	for _, k := range []string{"X-Svc-Signature-256", "webhook-signature", "webhook-timestamp"} {
		if h.Get(k) != "" {
			t.Errorf("unsigned delivery carries %s", k)
		}
	}
}

func TestWebhookRetries(t *testing.T) {
	tests := []struct {
		name         string
		script       []func(http.ResponseWriter)
		wantState    store.DeliveryState
		wantAttempts int
		wantStatus   int
	}{
		{"408 then ok", []func(http.ResponseWriter){status(408)}, store.DeliverySucceeded, 2, 200},
		{"429 then ok", []func(http.ResponseWriter){status(429)}, store.DeliverySucceeded, 2, 200},
		{"500 then ok", []func(http.ResponseWriter){status(500)}, store.DeliverySucceeded, 2, 200},
		{"503 503 then ok", []func(http.ResponseWriter){status(503), status(503)}, store.DeliverySucceeded, 3, 200},
		{"stall past the timeout then ok", []func(http.ResponseWriter){func(w http.ResponseWriter) { time.Sleep(800 * time.Millisecond) }}, store.DeliverySucceeded, 2, 200},
		{"400 is final", []func(http.ResponseWriter){status(400)}, store.DeliveryFailed, 1, 400},
		{"404 is final", []func(http.ResponseWriter){status(404)}, store.DeliveryFailed, 1, 404},
		{"always 500: 1 + 3 retries", []func(http.ResponseWriter){status(500), status(500), status(500), status(500)}, store.DeliveryFailed, 4, 500},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rv := newReceiver(t, tt.script...)
			e := setupHooks(t, rv.URL)
			e.put(e.ids.New(), "ann", `{}`)
			res := e.outcome()
			if res.State != tt.wantState || res.Attempts != tt.wantAttempts || res.LastStatus != tt.wantStatus {
				t.Errorf("outcome = %+v, want %s after %d attempts with %d", res, tt.wantState, tt.wantAttempts, tt.wantStatus)
			}
			if got := len(rv.deliveries()); got != tt.wantAttempts {
				t.Errorf("receiver saw %d attempts, want %d", got, tt.wantAttempts)
			}
			ids := map[string]bool{}
			for _, d := range rv.deliveries() {
				ids[d.header.Get("X-Svc-Delivery")] = true
			}
			if len(ids) != 1 {
				t.Errorf("attempts carried %d delivery ids, want one", len(ids))
			}
		})
	}
}

func TestWebhookRedirectNotFollowed(t *testing.T) {
	followed := newReceiver(t)
	rv := newReceiver(t, func(w http.ResponseWriter) {
		w.Header().Set("Location", followed.URL)
		w.WriteHeader(http.StatusFound)
	})
	e := setupHooks(t, rv.URL)
	e.put(e.ids.New(), "ann", `{}`)
	res := e.outcome()
	if res.State != store.DeliveryFailed || res.LastStatus != 302 || res.Attempts != 1 {
		t.Errorf("outcome = %+v, want failed with 302 after one attempt", res)
	}
	if n := len(followed.deliveries()); n != 0 {
		t.Errorf("the redirect was followed %d times", n)
	}
}

func TestWebhookRetryAfterHonoured(t *testing.T) {
	rv := newReceiver(t, func(w http.ResponseWriter) {
		w.Header().Set("Retry-After", "1")
		w.WriteHeader(http.StatusTooManyRequests)
	})
	e := setupHooks(t, rv.URL) // backoff alone would wait about 10 ms
	e.put(e.ids.New(), "ann", `{}`)
	if res := e.outcome(); res.State != store.DeliverySucceeded {
		t.Fatalf("outcome = %+v", res)
	}
	got := rv.deliveries()
	if len(got) != 2 {
		t.Fatalf("%d attempts, want 2", len(got))
	}
	// A lower bound only: a slow machine can only make the gap longer.
	if gap := got[1].at.Sub(got[0].at); gap < time.Second {
		t.Errorf("second attempt came %v after the first, want at least the Retry-After of 1 s", gap)
	}
}

func TestWebhookFailureThenRedeliver(t *testing.T) {
	rv := newReceiver(t, status(400))
	e := setupHooks(t, rv.URL)
	e.put(e.ids.New(), "ann", `{}`)
	res := e.outcome()
	if res.State != store.DeliveryFailed {
		t.Fatalf("outcome = %+v", res)
	}
	list := e.protectedGet("/v1/protected/surveys/" + e.survey.ID + "/webhook-deliveries")
	if !strings.Contains(list, `"state":"failed"`) || !strings.Contains(list, `"lastStatus":400`) || !strings.Contains(list, `"attempts":1`) {
		t.Errorf("delivery log = %s", list)
	}
	r, _ := http.NewRequest("POST", e.srv.URL+"/v1/protected/surveys/"+e.survey.ID+"/webhook-deliveries/"+res.ID+"/redeliver", nil)
	r.Header.Set("Authorization", "Bearer "+e.sk)
	resp, err := http.DefaultClient.Do(r)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(body), `"state":"pending"`) {
		t.Fatalf("redeliver: %d %s", resp.StatusCode, body)
	}
	res = e.outcome()
	if res.State != store.DeliverySucceeded {
		t.Fatalf("after redeliver: %+v", res)
	}
	list = e.protectedGet("/v1/protected/surveys/" + e.survey.ID + "/webhook-deliveries")
	if !strings.Contains(list, `"state":"succeeded"`) || !strings.Contains(list, `"attempts":2`) || !strings.Contains(list, `"deliveredAt":"`) {
		t.Errorf("delivery log after redeliver = %s", list)
	}
	if n := len(rv.deliveries()); n != 2 {
		t.Errorf("receiver got %d requests, want 2", n)
	}
}

func (e *hookEnv) protectedGet(path string) string {
	e.t.Helper()
	r, _ := http.NewRequest("GET", e.srv.URL+path, nil)
	r.Header.Set("Authorization", "Bearer "+e.sk)
	resp, err := http.DefaultClient.Do(r)
	if err != nil {
		e.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 {
		e.t.Fatalf("GET %s: %d %s", path, resp.StatusCode, b)
	}
	return string(b)
}

func TestWebhookExactlyOnceUnderConcurrentPuts(t *testing.T) {
	rv := newReceiver(t)
	e := setupHooks(t, rv.URL)
	id := e.ids.New()
	var wg sync.WaitGroup
	for i := range 100 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			e.put(id, "ann", fmt.Sprintf(`{"nps":%d}`, i%11))
		}()
	}
	wg.Wait()
	e.outcome()
	e.put(e.ids.New(), "marker", `{}`) // a later delivery: once it arrives, any duplicate would have too
	e.outcome()
	n := 0
	for _, d := range rv.deliveries() {
		ev, err := webhookverify.ParseEvent(d.body)
		if err == nil && ev.Data.Response.ID == id {
			n++
		}
	}
	if n != 1 {
		t.Errorf("100 concurrent PUTs of one new id delivered %d webhooks, want 1", n)
	}
	e.noOutcome()
}

func TestWebhookPendingSurvivesRestart(t *testing.T) {
	rv := newReceiver(t)
	e := setupHooks(t, rv.URL)
	// Restart without a sender: the delivery is scheduled but not sent.
	e.srv.Close()
	_ = e.h.Close(context.Background())
	o := e.options()
	o.Webhooks.Disabled = true
	e.start(o)
	e.put(e.ids.New(), "ann", `{}`)
	e.srv.Close()
	_ = e.h.Close(context.Background())
	if err := e.store.Close(); err != nil {
		t.Fatal(err)
	}
	if n := len(rv.deliveries()); n != 0 {
		t.Fatalf("sent %d deliveries without a sender", n)
	}
	var err error
	e.store, err = sqlite.Open(t.Context(), e.path, nil)
	if err != nil {
		t.Fatal(err)
	}
	e.start(e.options())
	if res := e.outcome(); res.State != store.DeliverySucceeded {
		t.Fatalf("after reopening: %+v", res)
	}
	if n := len(rv.deliveries()); n != 1 {
		t.Errorf("receiver got %d deliveries after reopening, want 1", n)
	}
}

func TestWebhookSSRFGuard(t *testing.T) {
	rv := newReceiver(t)
	e := setupHooks(t, rv.URL, func(o *svc.Options, _ *store.Survey) { o.Webhooks.AllowPrivate = false })
	e.put(e.ids.New(), "ann", `{}`)
	res := e.outcome()
	if res.State != store.DeliveryFailed || res.Attempts != 1 || !strings.Contains(res.LastError, "not public") {
		t.Errorf("delivery to 127.0.0.1 by default: %+v, want refused after one attempt", res)
	}
	if n := len(rv.deliveries()); n != 0 {
		t.Errorf("the guard let %d requests through to loopback", n)
	}

	// The same delivery goes through when private addresses are allowed.
	allowed := setupHooks(t, rv.URL)
	allowed.put(allowed.ids.New(), "ann", `{}`)
	if res := allowed.outcome(); res.State != store.DeliverySucceeded {
		t.Errorf("with the option: %+v", res)
	}
}

func TestWebhookSecretRotation(t *testing.T) {
	rv := newReceiver(t)
	e := setupHooks(t, rv.URL, withSecret("old-secret"))
	if err := store.RotateWebhookSecret(t.Context(), e.store, "acme", e.survey.ID, "new-secret", time.Hour, time.Now()); err != nil {
		t.Fatal(err)
	}
	e.put(e.ids.New(), "ann", `{}`)
	e.outcome()
	d := rv.deliveries()[0]
	for _, secret := range []string{"old-secret", "new-secret"} {
		v := &webhookverify.Verifier{Secrets: []string{secret}}
		if err := v.VerifyRequest(d.header, d.body); err != nil {
			t.Errorf("receiver holding %q: %v", secret, err)
		}
	}
	if err := webhookverify.Verify(d.body, d.header.Get("X-Svc-Signature-256"), "new-secret"); err != nil {
		t.Errorf("X-Svc-Signature-256 is not signed with the new secret: %v", err)
	}
	// After the overlap only the new secret signs.
	if err := store.RotateWebhookSecret(t.Context(), e.store, "acme", e.survey.ID, "newest", 0, time.Now()); err != nil {
		t.Fatal(err)
	}
	e.put(e.ids.New(), "bob", `{}`)
	e.outcome()
	d = rv.deliveries()[1]
	if n := strings.Count(d.header.Get("webhook-signature"), "v1,"); n != 1 {
		t.Errorf("after the overlap: %d signatures, want 1", n)
	}
}

// A token in a webhook URL's query, or credentials in it, never reach the logs or the stored
// delivery log. Each failed attempt that will be retried is a WARN naming the delivery, and a
// delivery that failed for good is one ERROR.
func TestWebhookURLSecretsNeverLogged(t *testing.T) {
	var logs syncBuffer
	logger := slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	rv := newReceiver(t, status(503), status(500), status(500), status(500))
	u := strings.Replace(rv.URL, "http://", "http://hookuser:p4ss-w0rd@", 1) + "/hook?token=s3cr3t-t0ken"
	e := setupHooks(t, u, func(o *svc.Options, _ *store.Survey) { o.Logger = logger })
	e.put(e.ids.New(), "ann", `{}`)
	res := e.outcome()
	if res.State != store.DeliveryFailed || res.Attempts != 4 {
		t.Fatalf("outcome = %+v, want failed after 4 attempts", res)
	}

	// A receiver that is down: net/http's error names the URL.
	closed := httptest.NewServer(http.NotFoundHandler())
	closed.Close()
	down := setupHooks(t, closed.URL+"/hook?token=s3cr3t-t0ken", func(o *svc.Options, _ *store.Survey) {
		o.Logger = logger
		o.Webhooks.RetryMax = -1
	})
	down.put(down.ids.New(), "ann", `{}`)
	res = down.outcome()
	if res.State != store.DeliveryFailed || !strings.Contains(res.LastError, "/hook") {
		t.Fatalf("outcome to a closed port = %+v, want failed naming the redacted URL", res)
	}
	for _, secret := range []string{"s3cr3t", "p4ss-w0rd", "hookuser"} {
		if strings.Contains(res.LastError, secret) {
			t.Errorf("stored last error %q holds %q", res.LastError, secret)
		}
		if strings.Contains(logs.String(), secret) {
			t.Errorf("logs hold %q:\n%s", secret, logs.String())
		}
	}
	got := logs.String()
	if n := strings.Count(got, "level=WARN msg=\"webhook: attempt failed; will retry\""); n != 3 {
		t.Errorf("%d WARN lines for retried attempts, want 3:\n%s", n, got)
	}
	if !strings.Contains(got, "level=WARN msg=\"webhook: attempt failed; will retry\" delivery=") {
		t.Errorf("retry WARN lines do not name the delivery:\n%s", got)
	}
	if n := strings.Count(got, "level=ERROR msg=\"webhook delivery\""); n != 2 {
		t.Errorf("%d ERROR lines for the two failed deliveries, want 2:\n%s", n, got)
	}
}

// syncBuffer is a bytes.Buffer safe for the concurrent writes of a logger.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// Standard Webhooks' own Go library verifies svc's real deliveries unchanged, for a secret of
// its form (whsec_ and base64), also while a rotation signs with two secrets; and
// X-Svc-Signature-256 stays keyed with the secret's text, as docs/webhooks.md says.
func TestWebhookStandardWebhooksLibraryVerifies(t *testing.T) {
	oldSecret, newSecret := webhookverify.NewSecret(), webhookverify.NewSecret()
	rv := newReceiver(t)
	e := setupHooks(t, rv.URL, func(_ *svc.Options, sv *store.Survey) {
		sv.WebhookSecret = newSecret
		sv.PreviousWebhookSecret, sv.PreviousSecretExpiresAt = oldSecret, time.Now().Add(time.Hour)
	})
	e.put(e.ids.New(), "ann", `{"nps":9}`)
	if res := e.outcome(); res.State != store.DeliverySucceeded {
		t.Fatalf("outcome = %+v", res)
	}
	d := rv.deliveries()[0]
	for _, secret := range []string{newSecret, oldSecret} {
		wh, err := standardwebhooks.NewWebhook(secret)
		if err != nil {
			t.Fatal(err)
		}
		if err := wh.Verify(d.body, d.header); err != nil {
			t.Errorf("the Standard Webhooks library with the %s secret: %v", map[bool]string{true: "new", false: "old"}[secret == newSecret], err)
		}
	}
	if err := webhookverify.Verify(d.body, d.header.Get(webhookverify.HeaderSignature256), newSecret); err != nil {
		t.Errorf("X-Svc-Signature-256 keyed with the secret's text: %v", err)
	}
	if err := (&webhookverify.Verifier{Secrets: []string{newSecret}}).VerifyRequest(d.header, d.body); err != nil {
		t.Errorf("webhookverify with the same secret: %v", err)
	}
}

// addSurvey adds a second survey to e's team whose webhook points at url.
func (e *hookEnv) addSurvey(url string) store.Survey {
	e.t.Helper()
	sv := e.survey
	sv.ID, sv.WebhookURL, sv.WebhookSecret = e.ids.New(), url, ""
	if err := e.store.CreateSurvey(e.t.Context(), sv); err != nil {
		e.t.Fatal(err)
	}
	return sv
}

// putTo is put to another survey of e's team.
func (e *hookEnv) putTo(sv store.Survey, id string) {
	e.t.Helper()
	saved := e.survey
	e.survey = sv
	defer func() { e.survey = saved }()
	e.put(id, "ann", `{}`)
}

// A receiver that answers 503 with Retry-After: 60 gets its retry scheduled in the outbox a
// minute later, holding no worker meanwhile: with a single worker, another survey's delivery
// still goes out at once.
func TestWebhookRetryWaitsInTheOutbox(t *testing.T) {
	down := newReceiver(t, func(w http.ResponseWriter) {
		w.Header().Set("Retry-After", "60")
		w.WriteHeader(http.StatusServiceUnavailable)
	})
	up := newReceiver(t)
	e := setupHooks(t, down.URL, func(o *svc.Options, _ *store.Survey) { o.Webhooks.Workers = 1 })
	other := e.addSurvey(up.URL)
	e.put(e.ids.New(), "ann", `{}`)
	for len(down.deliveries()) == 0 {
		runtime.Gosched() // the first attempt is made and its retry scheduled
	}
	before := time.Now()
	e.putTo(other, e.ids.New())
	if res := e.outcome(); res.State != store.DeliverySucceeded {
		t.Fatalf("the other survey's delivery: %+v, want succeeded while the first waits to retry", res)
	}
	if n := len(up.deliveries()); n != 1 {
		t.Errorf("the healthy receiver got %d deliveries, want 1", n)
	}
	ds := deliveriesOf(t, e, e.survey.ID)
	if len(ds) != 1 || ds[0].State != store.DeliveryPending || ds[0].Attempts != 1 ||
		ds[0].NextAttemptAt.Before(before.Add(55*time.Second)) {
		t.Errorf("the delivery to the failing receiver: %+v, want pending with its retry about 60 s on", ds)
	}
}

// A destination that hangs takes at most its share of the workers: with two workers, one
// delivery to it waits in the outbox while the other hangs, and another survey's goes out.
func TestWebhookSlowDestinationTakesItsShare(t *testing.T) {
	release := make(chan struct{})
	var once sync.Once
	t.Cleanup(func() { once.Do(func() { close(release) }) })
	hang := func(w http.ResponseWriter) { <-release }
	slow := newReceiver(t, hang, hang)
	up := newReceiver(t)
	e := setupHooks(t, slow.URL, func(o *svc.Options, _ *store.Survey) {
		o.Webhooks.Workers = 2
		o.Webhooks.AttemptTimeout = 20 * time.Second
	})
	other := e.addSurvey(up.URL)
	e.put(e.ids.New(), "ann", `{}`)
	e.put(e.ids.New(), "bob", `{}`)
	for len(slow.deliveries()) == 0 {
		runtime.Gosched()
	}
	e.putTo(other, e.ids.New())
	if res := e.outcome(); res.State != store.DeliverySucceeded {
		t.Fatalf("the other survey's delivery: %+v, want succeeded beside the hanging one", res)
	}
	if n := len(slow.deliveries()); n != 1 {
		t.Errorf("the hanging receiver has %d attempts in flight, want 1 (half of the 2 workers)", n)
	}
	once.Do(func() { close(release) })
}

func deliveriesOf(t *testing.T, e *hookEnv, surveyID string) []store.Delivery {
	t.Helper()
	ds, _, err := e.store.Deliveries(t.Context(), surveyID, nil, 10)
	if err != nil {
		t.Fatal(err)
	}
	return ds
}

// The payload says whether the response was finished when it was sent, and its language.
func TestWebhookPayloadFinished(t *testing.T) {
	rv := newReceiver(t)
	e := setupHooks(t, rv.URL)
	r, _ := http.NewRequest("PUT", e.srv.URL+"/v1/svc/"+e.survey.ID+"/response/"+e.ids.New(),
		strings.NewReader(`{"respondent":"ann","data":{"nps":9},"metadata":{},"finished":true,"language":"pt-br"}`))
	r.Header.Set("x-svc-pk", e.pk)
	r.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(r)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if res := e.outcome(); res.State != store.DeliverySucceeded {
		t.Fatalf("outcome = %+v", res)
	}
	ev, err := webhookverify.ParseEvent(rv.deliveries()[0].body)
	if err != nil || !ev.Data.Response.Finished || ev.Data.Response.Language != "pt-BR" {
		t.Errorf("payload = %s (%v), want finished true and language pt-BR", rv.deliveries()[0].body, err)
	}
}

// handBacks counts the deliveries a sender handed back to the outbox unsent (a pending result
// of no attempt), wrapping the store it sends from.
type handBacks struct {
	store.Store
	n atomic.Int64
}

func (s *handBacks) FinishDelivery(ctx context.Context, r store.DeliveryResult) error {
	if r.State == store.DeliveryPending && r.Attempts == 0 {
		s.n.Add(1)
	}
	return s.Store.FinishDelivery(ctx, r)
}

// TestWebhookBurstToOneReceiverIsNotDeferred: a burst of deliveries to one receiver that
// answers at once goes out as fast as its share of the workers sends them. Deliveries claimed
// beyond that share wait for the next free attempt in memory; they were handed back to the
// outbox for half an attempt timeout each, which held a fast receiver to a few deliveries a
// second (go run ./internal/bench/loadbench -webhooks 2000 measures the rate).
func TestWebhookBurstToOneReceiverIsNotDeferred(t *testing.T) {
	rv := newReceiver(t)
	e := setupHooks(t, rv.URL)
	e.stop()
	st, err := sqlite.Open(t.Context(), e.path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	const n = 200
	for range n {
		if _, _, err := st.PutResponse(t.Context(), store.ResponseWrite{SurveyID: e.survey.ID, ID: e.ids.New(), Respondent: "u",
			Data: survey.Answers{}, At: time.Now()}); err != nil {
			t.Fatal(err)
		}
	}
	counted := &handBacks{Store: st}
	done := make(chan store.DeliveryResult, n)
	h, err := svc.NewHandler(counted, &svc.Options{Logger: slog.New(slog.DiscardHandler), Webhooks: svc.WebhookOptions{AllowPrivate: true,
		Observe: func(r store.DeliveryResult) { done <- r }}})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close(context.Background())
	for range n {
		select {
		case r := <-done:
			if r.State != store.DeliverySucceeded || r.Attempts != 1 {
				t.Fatalf("a delivery of the burst: %+v", r)
			}
		case <-time.After(60 * time.Second):
			t.Fatal("the burst was not delivered within 60 s")
		}
	}
	if got := counted.n.Load(); got != 0 {
		t.Errorf("%d deliveries of the burst were handed back to the outbox unsent, want none", got)
	}
	if got := len(rv.deliveries()); got != n {
		t.Errorf("the receiver got %d deliveries, want %d", got, n)
	}
}

// TestWebhookWaitingNeverOutlivesItsLease: deliveries waiting in memory for a slow destination
// go back to the outbox before their lease could run out under them (another sender would then
// take them, and the receiver get them twice), and are sent later, each exactly once.
func TestWebhookWaitingNeverOutlivesItsLease(t *testing.T) {
	release := make(chan struct{})
	var once sync.Once
	free := func() { once.Do(func() { close(release) }) }
	t.Cleanup(free)
	var mu sync.Mutex
	got := map[string]int{}
	rv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		<-release
		mu.Lock()
		got[r.Header.Get(webhookverify.HeaderDelivery)]++
		mu.Unlock()
	}))
	t.Cleanup(rv.Close)
	e := setupHooks(t, rv.URL)
	e.stop()
	st, err := sqlite.Open(t.Context(), e.path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	const n = 6
	for range n {
		if _, _, err := st.PutResponse(t.Context(), store.ResponseWrite{SurveyID: e.survey.ID, ID: e.ids.New(), Respondent: "u",
			Data: survey.Answers{}, At: time.Now()}); err != nil {
			t.Fatal(err)
		}
	}
	counted := &handBacks{Store: st}
	done := make(chan store.DeliveryResult, n)
	h, err := svc.NewHandler(counted, &svc.Options{Logger: slog.New(slog.DiscardHandler), Webhooks: svc.WebhookOptions{AllowPrivate: true,
		Workers: 2, MaxPerDestination: 1, AttemptTimeout: 5 * time.Second, Lease: 6 * time.Second, PollInterval: 20 * time.Millisecond,
		Observe: func(r store.DeliveryResult) { done <- r }}})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close(context.Background())
	// One attempt hangs; those waiting behind it have a lease of 6 s, less than the 5 s an
	// attempt may take plus the poll: they go back to the outbox.
	for deadline := time.Now().Add(30 * time.Second); counted.n.Load() == 0; {
		if time.Now().After(deadline) {
			t.Fatal("no waiting delivery was handed back within 30 s")
		}
		runtime.Gosched()
	}
	free()
	for range n {
		select {
		case r := <-done:
			if r.State != store.DeliverySucceeded {
				t.Fatalf("a delivery: %+v", r)
			}
		case <-time.After(60 * time.Second):
			t.Fatal("not every delivery was sent within 60 s")
		}
	}
	mu.Lock()
	defer mu.Unlock()
	for id, times := range got {
		if times != 1 {
			t.Errorf("delivery %s was received %d times", id, times)
		}
	}
	if len(got) != n {
		t.Errorf("%d deliveries received, want %d", len(got), n)
	}
}
