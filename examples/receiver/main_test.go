package main

import (
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/svc-feedback/svc"
	"github.com/svc-feedback/svc/client"
	"github.com/svc-feedback/svc/store"
	"github.com/svc-feedback/svc/store/fixture"
	"github.com/svc-feedback/svc/store/sqlite"
	"github.com/svc-feedback/svc/survey"
	"github.com/svc-feedback/svc/webhookverify"
)

// syncBuffer is an io.Writer safe for the receiver's goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
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

// TestReceiverGetsSignedDeliveryFromSvc runs svc with this directory's fixture, pointing its
// webhook at the receiver, and sends a response: the receiver verifies and prints it once,
// even when it is redelivered.
func TestReceiverGetsSignedDeliveryFromSvc(t *testing.T) {
	var out syncBuffer
	recv, err := newReceiver("local-dev-secret", &out, nil)
	if err != nil {
		t.Fatal(err)
	}
	rv := httptest.NewServer(recv)
	defer rv.Close()

	ctx := t.Context()
	st, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "svc.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	fx := readFixture(t)
	fx.Teams[0].Surveys[0].WebhookURL = rv.URL + "/webhooks/svc"
	if err := fixture.Import(ctx, st, fx, time.Now()); err != nil {
		t.Fatal(err)
	}
	done := make(chan store.DeliveryResult, 4)
	h, err := svc.NewHandler(st, &svc.Options{Logger: slog.New(slog.DiscardHandler),
		Webhooks: svc.WebhookOptions{AllowPrivate: true, PollInterval: 20 * time.Millisecond, Observe: func(r store.DeliveryResult) { done <- r }}})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close(context.Background())
	api := httptest.NewServer(h)
	defer api.Close()

	team := fx.Teams[0]
	pc, _ := client.NewPublic(api.URL, team.PublishableKeys[0])
	id := client.NewResponseID()
	if _, err := pc.PutResponse(ctx, team.Surveys[0].ID, id, &client.ResponseInput{Respondent: "ann@example.com",
		Data: survey.Answers{"nps": survey.Number(9), "comments": survey.Text("Lovely")}}); err != nil {
		t.Fatal(err)
	}
	res := <-done
	if res.State != store.DeliverySucceeded {
		t.Fatalf("delivery: %+v", res)
	}
	c, _ := client.New(api.URL, team.SecretKeys[0])
	if _, err := c.Redeliver(ctx, team.Surveys[0].ID, res.ID); err != nil {
		t.Fatal(err)
	}
	if res := <-done; res.State != store.DeliverySucceeded {
		t.Fatalf("redelivery: %+v", res)
	}
	got := out.String()
	if strings.Count(got, "response "+id) != 1 {
		t.Errorf("the response was printed %d times, want once:\n%s", strings.Count(got, "response "+id), got)
	}
	for _, want := range []string{"from ann@example.com", "How likely are you to recommend us to a friend?: 9", `Anything else you would like to tell us?: "Lovely"`} {
		if !strings.Contains(got, want) {
			t.Errorf("output lacks %q:\n%s", want, got)
		}
	}
}

func TestReceiverRejectsTamperedAndReplayed(t *testing.T) {
	var out syncBuffer
	now := time.Now()
	h, err := newReceiver("local-dev-secret", &out, func() time.Time { return now })
	if err != nil {
		t.Fatal(err)
	}
	body := []byte(`{"event":"response.created","timestamp":"2026-11-21T10:04:05.123Z","data":{"response":{"id":"r1","respondent":"ann",
		"data":[],"metadata":{},"survey":{"id":"s","title":"S","description":null,"team":{"id":"t","name":"T"}}}}}`)
	send := func(b []byte, signedAt time.Time, secret string) int {
		r := httptest.NewRequest("POST", "/webhooks/svc", strings.NewReader(string(b)))
		webhookverify.SignHeaders(r.Header, "dlv_1", signedAt, body, secret)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, r)
		return rec.Code
	}
	if code := send(body, now, "local-dev-secret"); code != http.StatusNoContent {
		t.Errorf("signed delivery: %d", code)
	}
	tampered := []byte(strings.Replace(string(body), `"ann"`, `"mallory"`, 1))
	if code := send(tampered, now, "local-dev-secret"); code != http.StatusUnauthorized {
		t.Errorf("tampered delivery: %d, want 401", code)
	}
	if code := send(body, now.Add(-10*time.Minute), "local-dev-secret"); code != http.StatusUnauthorized {
		t.Errorf("replayed delivery: %d, want 401", code)
	}
	if code := send(body, now, "wrong-secret"); code != http.StatusUnauthorized {
		t.Errorf("wrong secret: %d, want 401", code)
	}
	if strings.Contains(out.String(), "mallory") {
		t.Error("the tampered delivery was printed")
	}
}
func readFixture(t *testing.T) fixture.File {
	t.Helper()
	f, err := os.Open("fixture.json")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	fx, err := fixture.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	return fx
}
