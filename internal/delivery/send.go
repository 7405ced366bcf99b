package delivery

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/hashicorp/go-retryablehttp"
	"github.com/svc-feedback/svc/webhookverify"
)

// sendRecovered is send, with a panic (a bug) turned into the delivery's error: in a background
// goroutine it would otherwise end the whole process.
func (d *Dispatcher) sendRecovered(ctx context.Context, target, deliveryID string, body []byte, secrets []string) (attempts, status int, err error) {
	defer func() {
		if v := recover(); v != nil {
			d.log.Error("webhook: panic while sending", "delivery", deliveryID, "panic", v)
			err = fmt.Errorf("internal error while sending: %v", v)
		}
	}()
	return d.send(ctx, target, deliveryID, body, secrets)
}

// send POSTs body with retries and returns the attempts made and the final status.
func (d *Dispatcher) send(ctx context.Context, target, deliveryID string, body []byte, secrets []string) (int, int, error) {
	var attempts atomic.Int64
	c := retryablehttp.NewClient()
	c.HTTPClient = d.http
	// The library's own log lines name the URL with its query, which may hold a token: the
	// attempts are logged here instead, by checkRetry, with the URL redacted.
	c.Logger = nil
	c.RetryMax = d.o.RetryMax
	c.RetryWaitMin = d.o.RetryWaitMin
	c.RetryWaitMax = d.o.RetryAfterMax
	c.CheckRetry = func(ctx context.Context, resp *http.Response, err error) (bool, error) {
		retry, cerr := checkRetry(ctx, resp, err)
		// The library asks after the last attempt too; only an attempt with a retry left
		// warns, and the final failure is logged once, at ERROR, by deliver.
		if retry && cerr == nil && attempts.Load() <= int64(d.o.RetryMax) {
			status := 0
			if resp != nil {
				status = resp.StatusCode
			}
			d.log.Warn("webhook: attempt failed; will retry", "delivery", deliveryID, "attempt", attempts.Load(),
				"url", RedactURL(target), "status", status, "err", redactErr(err))
		}
		return retry, cerr
	}
	c.Backoff = backoff
	c.ErrorHandler = retryablehttp.PassthroughErrorHandler
	c.RequestLogHook = func(_ retryablehttp.Logger, r *http.Request, _ int) {
		attempts.Add(1)
		// Each attempt carries its own webhook-timestamp, signed afresh.
		webhookverify.SignHeaders(r.Header, deliveryID, d.o.Now(), body, secrets...)
	}
	req, err := retryablehttp.NewRequestWithContext(ctx, http.MethodPost, target, body)
	if err != nil {
		return 0, 0, fmt.Errorf("build request: %w", err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", UserAgent)
	req.Header.Set(webhookverify.HeaderEvent, webhookverify.EventResponseCreated)
	req.Header.Set(webhookverify.HeaderDelivery, deliveryID)
	resp, err := c.Do(req)
	n := int(attempts.Load())
	if err != nil {
		// The error is stored as the delivery's last error and logged: without the URL's
		// query or credentials.
		return n, 0, redactErr(err)
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	return n, resp.StatusCode, nil
}

// checkRetry retries network errors and timeouts, 408, 429 and 5xx; everything else,
// a refused address and a stopping sender are final.
func checkRetry(ctx context.Context, resp *http.Response, err error) (bool, error) {
	if ctx.Err() != nil {
		return false, ctx.Err()
	}
	if err != nil {
		if errors.Is(err, ErrForbiddenAddress) {
			return false, err
		}
		return true, nil
	}
	switch code := resp.StatusCode; {
	case code == http.StatusRequestTimeout, code == http.StatusTooManyRequests, code >= 500:
		return true, nil
	}
	return false, nil
}

// backoff waits about min, 2·min, 4·min... with ±25% jitter, or a receiver's Retry-After,
// never longer than max.
func backoff(minWait, maxWait time.Duration, attempt int, resp *http.Response) time.Duration {
	if resp != nil {
		if wait, ok := retryAfter(resp.Header.Get("Retry-After")); ok {
			return min(wait, maxWait)
		}
	}
	base := minWait << attempt
	if base <= 0 || base > maxWait {
		base = maxWait
	}
	jitter := time.Duration(rand.Int64N(int64(base)/2+1)) - base/4
	return min(base+jitter, maxWait)
}

func retryAfter(v string) (time.Duration, bool) {
	if v == "" {
		return 0, false
	}
	if secs, err := strconv.Atoi(v); err == nil && secs >= 0 {
		return time.Duration(secs) * time.Second, true
	}
	if t, err := http.ParseTime(v); err == nil {
		return max(time.Until(t), 0), true
	}
	return 0, false
}
