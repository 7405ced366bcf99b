package api

import (
	"fmt"
	"net/http/httptest"
	"runtime"
	"testing"
	"time"
)

// TestLimiterMemory measures what a full table of the default 100,000 buckets costs, and that
// it stays at its bound when 50,000 more clients come. It prints the figures (go test -v -run
// TestLimiterMemory ./handler), which the README's security section gives.
func TestLimiterMemory(t *testing.T) {
	r := httptest.NewRequest("GET", "/", nil)
	addrs := make([]string, 150_000)
	for i := range addrs {
		addrs[i] = fmt.Sprintf("10.%d.%d.%d:1", i>>16, (i>>8)&255, i&255)
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	l := newLimiter(RateLimit{PerSecond: 1}, time.Now)
	for _, a := range addrs[:DefaultMaxBuckets] {
		r.RemoteAddr = a
		l.allow(r, "key_abcdefghijklmnopqrstuvwx")
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	held := int64(after.HeapAlloc) - int64(before.HeapAlloc)
	per := held / DefaultMaxBuckets
	t.Logf("%d buckets hold %.1f MB: %d bytes a bucket", DefaultMaxBuckets, float64(held)/1e6, per)
	for _, a := range addrs[DefaultMaxBuckets:] {
		r.RemoteAddr = a
		l.allow(r, "key_abcdefghijklmnopqrstuvwx")
	}
	if n := l.size(); n != DefaultMaxBuckets {
		t.Errorf("after %d clients the limiter keeps %d buckets, want its bound of %d", len(addrs), n, DefaultMaxBuckets)
	}
	if per > 400 {
		t.Errorf("a bucket costs %d bytes; the README promises about 230", per)
	}
}
