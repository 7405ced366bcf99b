package svc_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/svc-feedback/svc"
	"github.com/svc-feedback/svc/store"
	"github.com/svc-feedback/svc/store/postgres"
	"github.com/svc-feedback/svc/survey"
)

// failoverEnv names the variable holding the URL of a primary and its synchronous standby
// (scripts/pgfailover start), both hosts with target_session_attrs=read-write.
const failoverEnv = "SVC_TEST_FAILOVER"

// TestFailover (docs/scaling.md#across-a-failover): the primary stops at once while responses are being
// written through svc, and its synchronous standby is promoted. Meanwhile every write is
// answered 503 with Retry-After, never another error and never a hang; svc writes again within
// 10 s of the promotion, without a restart; every response it acknowledged is on the new
// primary, and its webhook is sent, deliveries claimed before the stop included. It breaks
// the topology: scripts/test starts one for it alone.
func TestFailover(t *testing.T) {
	url := os.Getenv(failoverEnv)
	if url == "" {
		t.Skip(failoverEnv + " is not set: scripts/test starts a primary and a synchronous standby and runs this")
	}
	ctx := t.Context()
	st, err := postgres.Open(ctx, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	rv := newFailoverReceiver()
	defer rv.Close()
	sv, pk := failoverSurvey(t, st, rv.URL)
	h, err := svc.NewHandler(st, &svc.Options{Logger: slog.New(slog.DiscardHandler), Webhooks: svc.WebhookOptions{
		AllowPrivate: true, PollInterval: 100 * time.Millisecond, RetryWaitMin: 50 * time.Millisecond,
		AttemptTimeout: 2 * time.Second, Lease: 6 * time.Second}})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close(context.Background())
	srv := httptest.NewServer(h)
	defer srv.Close()

	w := startFailoverWriters(t, srv.URL, sv.ID, pk)
	w.waitAcked(t, 200)
	stopped := time.Now()
	pgfailover(t, "stop-primary")
	w.waitUnavailable(t)
	promoted := time.Now() // the promotion starts
	pgfailover(t, "promote")
	back := w.waitAckedAfter(t, promoted, 15*time.Second)
	if gap := back.Sub(promoted); gap > 10*time.Second {
		t.Errorf("svc wrote again %v after the promotion began, want within 10 s", gap)
	}
	t.Logf("svc wrote again %v after the promotion began, %v after the primary stopped",
		back.Sub(promoted).Round(time.Millisecond), back.Sub(stopped).Round(time.Millisecond))
	acked := w.stop()
	t.Logf("%d responses acknowledged, %d writes answered 503", len(acked), w.unavailable())

	for _, id := range acked {
		if _, err := st.Response(ctx, sv.ID, id); err != nil {
			t.Errorf("acknowledged response %s after the failover: %v", id, err)
		}
	}
	if missing := rv.waitFor(acked, time.Minute); len(missing) > 0 {
		t.Errorf("%d acknowledged responses' webhooks were not sent a minute after the failover, such as %s", len(missing), missing[0])
	}
}

// pgfailover runs a command of scripts/pgfailover.
func pgfailover(t *testing.T, cmd string) {
	t.Helper()
	if out, err := exec.Command("scripts/pgfailover", cmd).CombinedOutput(); err != nil {
		t.Fatalf("scripts/pgfailover %s: %v\n%s", cmd, err, out)
	}
}

// failoverSurvey makes a team, its publishable key and a survey with a webhook to url.
func failoverSurvey(t *testing.T, st store.Store, url string) (store.Survey, string) {
	t.Helper()
	ctx := t.Context()
	team := fmt.Sprintf("failover%d", time.Now().UnixNano())
	if err := st.CreateTeam(ctx, store.Team{ID: team, Name: "Failover"}); err != nil {
		t.Fatal(err)
	}
	pk, _, err := store.CreateKey(ctx, st, team, store.Publishable, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	sv := store.Survey{ID: store.NewSurveyID(), TeamID: team, Status: store.StatusActive, Definition: survey.Sample(), WebhookURL: url}
	if err := st.CreateSurvey(ctx, sv); err != nil {
		t.Fatal(err)
	}
	return sv, pk
}

// failoverReceiver records the responses whose webhooks arrived.
type failoverReceiver struct {
	*httptest.Server
	mu  sync.Mutex
	got map[string]bool
}

func newFailoverReceiver() *failoverReceiver {
	rv := &failoverReceiver{got: map[string]bool{}}
	rv.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var e struct {
			Data struct{ Response struct{ ID string } }
		}
		if json.NewDecoder(r.Body).Decode(&e) == nil {
			rv.mu.Lock()
			rv.got[e.Data.Response.ID] = true
			rv.mu.Unlock()
		}
	}))
	return rv
}

// waitFor waits until every id's webhook arrived, and returns those that did not in time.
func (rv *failoverReceiver) waitFor(ids []string, within time.Duration) []string {
	deadline := time.Now().Add(within)
	for {
		rv.mu.Lock()
		var missing []string
		for _, id := range ids {
			if !rv.got[id] {
				missing = append(missing, id)
			}
		}
		rv.mu.Unlock()
		if len(missing) == 0 || time.Now().After(deadline) {
			return missing
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// failoverWriters PUT new responses without pause from eight goroutines, as widgets would.
type failoverWriters struct {
	mu       sync.Mutex
	acked    []string
	ackedAt  []time.Time
	n503     int
	changed  *sync.Cond
	done     chan struct{}
	finished sync.WaitGroup
}

func startFailoverWriters(t *testing.T, base, surveyID, pk string) *failoverWriters {
	w := &failoverWriters{done: make(chan struct{})}
	w.changed = sync.NewCond(&w.mu)
	client := &http.Client{Timeout: 40 * time.Second} // a write that hangs fails the test
	for g := range 8 {
		w.finished.Add(1)
		go func() {
			defer w.finished.Done()
			for i := 0; ; i++ {
				select {
				case <-w.done:
					return
				default:
				}
				id := fmt.Sprintf("f%dx%d", g, i) // a cuid2
				req, _ := http.NewRequest("PUT", base+"/v1/svc/"+surveyID+"/response/"+id,
					strings.NewReader(`{"respondent":"r`+id+`","data":{"nps":9},"metadata":{}}`))
				req.Header.Set("x-svc-pk", pk)
				req.Header.Set("Content-Type", "application/json")
				if !w.put(t, client, req, id) {
					return
				}
			}
		}()
	}
	return w
}

// put sends one write and records how it was answered; false when the writer must stop.
func (w *failoverWriters) put(t *testing.T, client *http.Client, req *http.Request, id string) bool {
	resp, err := client.Do(req)
	if err != nil {
		t.Errorf("PUT %s: %v", id, err)
		return false
	}
	body := make([]byte, 512)
	n, _ := resp.Body.Read(body)
	resp.Body.Close()
	w.mu.Lock()
	defer w.mu.Unlock()
	defer w.changed.Broadcast()
	switch {
	case resp.StatusCode == http.StatusOK || resp.StatusCode == http.StatusCreated:
		w.acked = append(w.acked, id)
		w.ackedAt = append(w.ackedAt, time.Now())
	case resp.StatusCode == http.StatusServiceUnavailable && resp.Header.Get("Retry-After") != "":
		w.n503++
	default:
		t.Errorf("PUT %s during the failover: %d %s (Retry-After %q), want 2xx or 503 with Retry-After",
			id, resp.StatusCode, body[:n], resp.Header.Get("Retry-After"))
		return false
	}
	return true
}

// waitUntil waits, under the lock, until cond holds or within has passed.
func (w *failoverWriters) waitUntil(t *testing.T, what string, within time.Duration, cond func() bool) {
	t.Helper()
	timer := time.AfterFunc(within, func() { w.mu.Lock(); w.changed.Broadcast(); w.mu.Unlock() })
	defer timer.Stop()
	deadline := time.Now().Add(within)
	w.mu.Lock()
	defer w.mu.Unlock()
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("after %v: %s has not happened", within, what)
		}
		w.changed.Wait()
	}
}

func (w *failoverWriters) waitAcked(t *testing.T, n int) {
	w.waitUntil(t, fmt.Sprintf("%d acknowledged writes", n), 30*time.Second, func() bool { return len(w.acked) >= n })
}

func (w *failoverWriters) waitUnavailable(t *testing.T) {
	w.waitUntil(t, "a write answered 503", 30*time.Second, func() bool { return w.n503 > 0 })
}

// waitAckedAfter returns when the first write acknowledged after since was.
func (w *failoverWriters) waitAckedAfter(t *testing.T, since time.Time, within time.Duration) time.Time {
	var at time.Time
	w.waitUntil(t, "a write acknowledged after the promotion", within, func() bool {
		for i := len(w.ackedAt) - 1; i >= 0 && w.ackedAt[i].After(since); i-- {
			at = w.ackedAt[i]
		}
		return !at.IsZero()
	})
	return at
}

func (w *failoverWriters) unavailable() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.n503
}

// stop stops the writers and returns the ids of the writes acknowledged.
func (w *failoverWriters) stop() []string {
	close(w.done)
	w.finished.Wait()
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.acked
}
