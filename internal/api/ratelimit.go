package api

import (
	"container/list"
	"math"
	"net"
	"net/http"
	"net/netip"
	"strconv"
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// RateLimit limits the public endpoints per publishable key and client address with a token
// bucket: PerSecond requests a second on average, in bursts of up to Burst. svc.NewHandler
// builds it from svc.RateLimit.
type RateLimit struct {
	PerSecond float64
	Burst     int
	// ClientAddr names the client of a request; nil means the host of RemoteAddr, with an IPv6
	// address taken as its /64 (one host's usual share). Behind a trusted proxy, return the
	// address it reports.
	ClientAddr func(r *http.Request) string
	// MaxBuckets bounds how many buckets are kept; zero means DefaultMaxBuckets.
	MaxBuckets int
}

// DefaultMaxBuckets bounds the limiter's memory: 22-26 MB for a full table, about 230-260
// bytes a bucket (TestLimiterMemory prints it).
const DefaultMaxBuckets = 100_000

// bucketIdle is how long an unused bucket is kept; one idle that long is full again anyway.
const bucketIdle = 10 * time.Minute

// limiter keeps one token bucket per key and client, for valid keys only, so an invalid key
// costs no state. The buckets are kept in least-recently-used order: past MaxBuckets the one
// used longest ago is dropped, so a flood of clients can only reset the oldest buckets (giving
// their clients a fresh burst), never turn limiting off.
type limiter struct {
	cfg     RateLimit
	now     func() time.Time
	mu      sync.Mutex
	buckets map[string]*list.Element // of *bucket
	lru     *list.List               // of *bucket, most recently used first
}

type bucket struct {
	id       string
	lim      *rate.Limiter
	lastSeen time.Time
}

func newLimiter(cfg RateLimit, now func() time.Time) *limiter {
	if cfg.Burst <= 0 {
		cfg.Burst = max(1, int(math.Ceil(cfg.PerSecond)))
	}
	if cfg.ClientAddr == nil {
		cfg.ClientAddr = clientNetwork
	}
	if cfg.MaxBuckets <= 0 {
		cfg.MaxBuckets = DefaultMaxBuckets
	}
	return &limiter{cfg: cfg, now: now, buckets: make(map[string]*list.Element), lru: list.New()}
}

// clientNetwork is the default client of a request: the host of RemoteAddr, or for IPv6 its
// /64, since one host is usually given a whole /64 and could otherwise take a bucket per address.
func clientNetwork(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	ip, err := netip.ParseAddr(host)
	if err != nil {
		return host
	}
	ip = ip.Unmap()
	if ip.Is6() {
		p, _ := ip.WithZone("").Prefix(64)
		return p.String()
	}
	return ip.String()
}

// allow takes a token for the request's key (by its id: short, and only ever a valid key's)
// and client, or returns how long to wait.
func (l *limiter) allow(r *http.Request, keyID string) (bool, time.Duration) {
	id := keyID + "\x00" + l.cfg.ClientAddr(r)
	now := l.now()
	l.mu.Lock()
	defer l.mu.Unlock()
	l.forgetIdle(now)
	var b *bucket
	if el, ok := l.buckets[id]; ok {
		b = el.Value.(*bucket)
		l.lru.MoveToFront(el)
	} else {
		if l.lru.Len() >= l.cfg.MaxBuckets {
			oldest := l.lru.Back()
			l.lru.Remove(oldest)
			delete(l.buckets, oldest.Value.(*bucket).id)
		}
		b = &bucket{id: id, lim: rate.NewLimiter(rate.Limit(l.cfg.PerSecond), l.cfg.Burst)}
		l.buckets[id] = l.lru.PushFront(b)
	}
	b.lastSeen = now
	res := b.lim.ReserveN(now, 1)
	if delay := res.DelayFrom(now); delay > 0 {
		res.CancelAt(now)
		return false, delay
	}
	return true, 0
}

// forgetIdle drops the buckets unused for bucketIdle, from the least recently used end.
func (l *limiter) forgetIdle(now time.Time) {
	for el := l.lru.Back(); el != nil; el = l.lru.Back() {
		b := el.Value.(*bucket)
		if now.Sub(b.lastSeen) <= bucketIdle {
			return
		}
		l.lru.Remove(el)
		delete(l.buckets, b.id)
	}
}

// size reports how many buckets are kept.
func (l *limiter) size() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.lru.Len()
}

// rateLimited answers 429 with Retry-After (whole seconds, at least 1).
func rateLimited(w http.ResponseWriter, wait time.Duration) *Error {
	w.Header().Set("Retry-After", retryAfterSeconds(wait))
	return &Error{Status: http.StatusTooManyRequests, Code: CodeRateLimited,
		Message: "too many requests: slow down and retry after the Retry-After seconds (the server's limit is svc.Options.RateLimit)"}
}

// retryAfterSeconds is a Retry-After of wait: whole seconds, rounded up, at least 1.
func retryAfterSeconds(wait time.Duration) string {
	return strconv.Itoa(max(1, int(math.Ceil(wait.Seconds()))))
}
