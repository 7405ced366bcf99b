package delivery

import (
	"errors"
	"testing"
	"time"

	"github.com/svc-feedback/svc/store"
)

// TestDecide holds the sender's rules for what an attempt comes to: 2xx succeeds; a network
// error, a timeout, 408, 429 and 5xx are retried while the round has retries left (3 by
// default), after a backoff or the receiver's Retry-After; a refused address, a redirect and
// other statuses are final; a stopping sender hands the delivery back, the attempt not counted.
func TestDecide(t *testing.T) {
	d := New(nil, Options{})
	now := time.Date(2026, 11, 21, 10, 4, 5, 0, time.UTC)
	status := func(code int) attemptResult { return attemptResult{status: code} }
	tests := []struct {
		name          string
		a             attemptResult
		roundAttempts int
		stopping      bool
		want          store.DeliveryState
		attempts      int
		lastError     string
	}{
		{"200", status(200), 0, false, store.DeliverySucceeded, 1, ""},
		{"204 on the last retry", status(204), 3, false, store.DeliverySucceeded, 1, ""},
		{"503 with retries left", status(503), 0, false, store.DeliveryPending, 1, "503 Service Unavailable"},
		{"429 on the third retry", status(429), 2, false, store.DeliveryPending, 1, "429 Too Many Requests"},
		{"408", status(408), 1, false, store.DeliveryPending, 1, "408 Request Timeout"},
		{"500 with no retry left", status(500), 3, false, store.DeliveryFailed, 1, "500 Internal Server Error"},
		{"a network error", attemptResult{err: errors.New("connection refused")}, 0, false, store.DeliveryPending, 1, "connection refused"},
		{"a refused address is final", attemptResult{err: ErrForbiddenAddress}, 0, false, store.DeliveryFailed, 1, ErrForbiddenAddress.Error()},
		{"a redirect is final", status(307), 0, false, store.DeliveryFailed, 1, "307 Temporary Redirect"},
		{"404 is final", status(404), 0, false, store.DeliveryFailed, 1, "404 Not Found"},
		{"400 is final", status(400), 0, false, store.DeliveryFailed, 1, "400 Bad Request"},
		{"stopping", status(0), 1, true, store.DeliveryPending, 0, "sender stopped before the delivery finished"},
	}
	for _, tt := range tests {
		res := d.decide(store.Delivery{ID: "dlv_1", RoundAttempts: tt.roundAttempts}, tt.a, now, tt.stopping)
		if res.State != tt.want || res.Attempts != tt.attempts || res.LastError != tt.lastError || res.ID != "dlv_1" {
			t.Errorf("%s: %+v, want %s after %d attempts, %q", tt.name, res, tt.want, tt.attempts, tt.lastError)
		}
		retry := res.State == store.DeliveryPending && !tt.stopping
		if due := res.NextAttemptAt.Sub(now); retry != (due > 0) || due > 60*time.Second {
			t.Errorf("%s: next attempt %v after the attempt", tt.name, due)
		}
	}
	if d.o.RetryMax != 3 {
		t.Errorf("retries by default: %d, want 3", d.o.RetryMax)
	}
	none := New(nil, Options{RetryMax: -1})
	if res := none.decide(store.Delivery{}, status(503), now, false); res.State != store.DeliveryFailed {
		t.Errorf("RetryMax -1 retried: %+v", res)
	}
	if res := d.decide(store.Delivery{}, attemptResult{status: 503, retryAfter: 30 * time.Second, hasRetryAfter: true}, now, false); res.NextAttemptAt != now.Add(30*time.Second) {
		t.Errorf("Retry-After 30 s: due at %v", res.NextAttemptAt)
	}
}
