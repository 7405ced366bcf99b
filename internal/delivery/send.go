package delivery

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"strconv"
	"time"

	"github.com/svc-feedback/svc/webhookverify"
)

// attemptResult is what one HTTP attempt came to.
type attemptResult struct {
	status int
	err    error
	// retryAfter is the receiver's Retry-After, when it sent a valid one.
	retryAfter    time.Duration
	hasRetryAfter bool
}

// retryable reports whether the attempt's failure is worth another try: a network error or
// timeout, 408, 429 or a 5xx. A refused address, other statuses and redirects are final.
func (a attemptResult) retryable() bool {
	if a.err != nil {
		return !errors.Is(a.err, ErrForbiddenAddress)
	}
	return a.status == http.StatusRequestTimeout || a.status == http.StatusTooManyRequests || a.status >= 500
}

// attemptRecovered is attempt, with a panic (a bug) turned into the attempt's error: in a
// background goroutine it would otherwise end the whole process.
func (d *Dispatcher) attemptRecovered(ctx context.Context, target, deliveryID string, body []byte, secrets []string) (res attemptResult) {
	defer func() {
		if v := recover(); v != nil {
			d.log.Error("webhook: panic while sending", "delivery", deliveryID, "panic", v)
			res = attemptResult{err: fmt.Errorf("internal error while sending: %v", v)}
		}
	}()
	return d.attempt(ctx, target, deliveryID, body, secrets)
}

// attempt POSTs body once, signed afresh (each attempt carries its own webhook-timestamp).
// A retry is not made here: it is scheduled in the outbox, so a waiting retry holds no worker.
func (d *Dispatcher) attempt(ctx context.Context, target, deliveryID string, body []byte, secrets []string) attemptResult {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, target, bytes.NewReader(body))
	if err != nil {
		return attemptResult{err: redactErr(fmt.Errorf("build request: %w", err))}
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", UserAgent)
	req.Header.Set(webhookverify.HeaderEvent, webhookverify.EventResponseCreated)
	req.Header.Set(webhookverify.HeaderDelivery, deliveryID)
	webhookverify.SignHeaders(req.Header, deliveryID, d.o.Now(), body, secrets...)
	resp, err := d.http.Do(req)
	if err != nil {
		// Stored as the delivery's last error and logged: without the URL's query or
		// credentials.
		return attemptResult{err: redactErr(err)}
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	res := attemptResult{status: resp.StatusCode}
	res.retryAfter, res.hasRetryAfter = retryAfter(resp.Header.Get("Retry-After"), d.o.Now())
	return res
}

// backoff waits about min, 2·min, 4·min... (attempt counting retries from 0) with ±25% jitter,
// or a receiver's Retry-After, never longer than max.
func backoff(minWait, maxWait time.Duration, attempt int, res attemptResult) time.Duration {
	if res.hasRetryAfter {
		return min(res.retryAfter, maxWait)
	}
	base := minWait << attempt
	if base <= 0 || base > maxWait {
		base = maxWait
	}
	jitter := time.Duration(rand.Int64N(int64(base)/2+1)) - base/4
	return min(base+jitter, maxWait)
}

// retryAfter reads a Retry-After value: seconds, or an HTTP date measured from now.
func retryAfter(v string, now time.Time) (time.Duration, bool) {
	if v == "" {
		return 0, false
	}
	if secs, err := strconv.Atoi(v); err == nil && secs >= 0 {
		return time.Duration(secs) * time.Second, true
	}
	if t, err := http.ParseTime(v); err == nil {
		return max(t.Sub(now), 0), true
	}
	return 0, false
}
