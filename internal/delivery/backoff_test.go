package delivery

import (
	"net/http"
	"net/netip"
	"testing"
	"time"
)

func TestBackoff(t *testing.T) {
	now := time.Now()
	resp := func(v string) attemptResult {
		res := attemptResult{status: http.StatusTooManyRequests}
		res.retryAfter, res.hasRetryAfter = retryAfter(v, now)
		return res
	}
	none := attemptResult{status: http.StatusServiceUnavailable}
	tests := []struct {
		name     string
		attempt  int
		resp     attemptResult
		min, max time.Duration
	}{
		{"first retry about 1 s", 0, none, 750 * time.Millisecond, 1250 * time.Millisecond},
		{"second about 2 s", 1, none, 1500 * time.Millisecond, 2500 * time.Millisecond},
		{"third about 4 s", 2, none, 3 * time.Second, 5 * time.Second},
		{"Retry-After seconds", 0, resp("7"), 7 * time.Second, 7 * time.Second},
		{"Retry-After capped", 0, resp("3600"), 60 * time.Second, 60 * time.Second},
		{"Retry-After as a date", 0, resp(now.Add(20 * time.Second).UTC().Format(http.TimeFormat)), 19 * time.Second, 20 * time.Second},
		{"Retry-After in the past", 0, resp("Mon, 02 Jan 2006 15:04:05 GMT"), 0, 0},
		{"unreadable Retry-After falls back", 0, resp("soon"), 750 * time.Millisecond, 1250 * time.Millisecond},
	}
	for _, tt := range tests {
		for range 50 { // the jitter is random: every draw must stay in bounds
			got := backoff(time.Second, 60*time.Second, tt.attempt, tt.resp)
			if got < tt.min || got > tt.max {
				t.Errorf("%s: backoff = %v, want within [%v, %v]", tt.name, got, tt.min, tt.max)
				break
			}
		}
	}
}

func TestForbiddenAddresses(t *testing.T) {
	for addr, want := range map[string]bool{
		"127.0.0.1": true, "10.1.2.3": true, "172.16.0.1": true, "192.168.1.1": true, "169.254.169.254": true,
		"100.64.0.1": true, "0.0.0.0": true, "0.1.2.3": true, "224.0.0.1": true, "::1": true, "fe80::1": true,
		"fc00::1": true, "::ffff:127.0.0.1": true, "::": true,
		// Missed by the hand-written list this replaced: NAT64, 6to4, IPv4-compatible IPv6,
		// benchmarking, reserved and broadcast.
		"64:ff9b::7f00:1": true, "64:ff9b::808:808": true, "2002:7f00:1::1": true, "::7f00:1": true,
		"198.18.0.1": true, "198.19.255.255": true, "240.0.0.1": true, "255.255.255.255": true,
		"192.0.2.1": true, "2001:db8::1": true,
		"::ffff:8.8.8.8": false, "93.184.216.34": false, "2606:2800:220:1:248:1893:25c8:1946": false, "8.8.8.8": false,
	} {
		if got := forbidden(mustAddr(t, addr)); got != want {
			t.Errorf("forbidden(%s) = %v, want %v", addr, got, want)
		}
	}
}

func TestPrivateURL(t *testing.T) {
	for u, want := range map[string]bool{
		"http://127.0.0.1:9090/hook": true, "http://localhost/hook": true, "http://LOCALHOST:80": true,
		"http://app.localhost/x": true, "http://[::1]:8080/": true, "https://10.0.0.5/h": true,
		"http://[fe80::1%25eth0]/": true, "http://0.0.0.0:1/": true, "http://[64:ff9b::a00:1]/": true,
		"http://198.18.0.1/": true, "http://[2002:a00:1::]/": true,
		"https://example.com/hook": false, "https://93.184.216.34/": false, "http://localhost.example.com/": false,
		"": false, "::not a url": false,
	} {
		if got := PrivateURL(u); got != want {
			t.Errorf("PrivateURL(%q) = %v, want %v", u, got, want)
		}
	}
}

func mustAddr(t *testing.T, s string) netip.Addr {
	t.Helper()
	a, err := netip.ParseAddr(s)
	if err != nil {
		t.Fatal(err)
	}
	return a
}
