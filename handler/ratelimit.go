package handler

import (
	"math"
	"net"
	"net/http"
	"strconv"
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// RateLimit limits the public endpoints per publishable key and client address with a token
// bucket: PerSecond requests a second on average, in bursts of up to Burst.
type RateLimit struct {
	PerSecond float64
	Burst     int
	// ClientAddr names the client of a request; nil means the host of RemoteAddr. Behind a
	// trusted proxy, return the address it reports.
	ClientAddr func(r *http.Request) string
}

// Limits on the limiter's own memory: buckets idle this long are forgotten, and no more than
// maxBuckets are kept (clients beyond it are not limited rather than all refused).
const (
	bucketIdle = 10 * time.Minute
	maxBuckets = 100_000
)

type limiter struct {
	cfg       RateLimit
	now       func() time.Time
	mu        sync.Mutex
	buckets   map[string]*bucket
	lastSweep time.Time
}

type bucket struct {
	lim      *rate.Limiter
	lastSeen time.Time
}

func newLimiter(cfg RateLimit, now func() time.Time) *limiter {
	if cfg.Burst <= 0 {
		cfg.Burst = max(1, int(math.Ceil(cfg.PerSecond)))
	}
	if cfg.ClientAddr == nil {
		cfg.ClientAddr = func(r *http.Request) string {
			host, _, err := net.SplitHostPort(r.RemoteAddr)
			if err != nil {
				return r.RemoteAddr
			}
			return host
		}
	}
	return &limiter{cfg: cfg, now: now, buckets: make(map[string]*bucket)}
}

// allow takes a token for the request's key and client, or returns how long to wait.
func (l *limiter) allow(r *http.Request, key string) (bool, time.Duration) {
	id := key + "\x00" + l.cfg.ClientAddr(r)
	now := l.now()
	l.mu.Lock()
	defer l.mu.Unlock()
	if now.Sub(l.lastSweep) > time.Minute {
		for k, b := range l.buckets {
			if now.Sub(b.lastSeen) > bucketIdle {
				delete(l.buckets, k)
			}
		}
		l.lastSweep = now
	}
	b, ok := l.buckets[id]
	if !ok {
		if len(l.buckets) >= maxBuckets {
			return true, 0
		}
		b = &bucket{lim: rate.NewLimiter(rate.Limit(l.cfg.PerSecond), l.cfg.Burst)}
		l.buckets[id] = b
	}
	b.lastSeen = now
	res := b.lim.ReserveN(now, 1)
	if delay := res.DelayFrom(now); delay > 0 {
		res.CancelAt(now)
		return false, delay
	}
	return true, 0
}

// rateLimited answers 429 with Retry-After (whole seconds, at least 1).
func rateLimited(w http.ResponseWriter, wait time.Duration) *Error {
	w.Header().Set("Retry-After", strconv.Itoa(max(1, int(math.Ceil(wait.Seconds())))))
	return &Error{Status: http.StatusTooManyRequests, Code: CodeRateLimited, Message: "too many requests: slow down and retry after the Retry-After seconds"}
}
