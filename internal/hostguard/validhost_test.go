package hostguard_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/svc-feedback/svc/internal/hostguard"
)

func TestValidHost(t *testing.T) {
	for host, want := range map[string]bool{
		"": true, "example.com": true, "example.com:8080": true, "example.com:0": true, "example.com:65535": true,
		"127.0.0.1:80": true, "[::1]": true, "[::1]:8080": true, "::1": true, "[fe80::1%25eth0]:9": true,
		"example.com:abc": false, "[::1]:x": false, "a:": false, "[::1]:": false, "example.com:65536": false,
		"example.com:+80": false, "example.com:-1": false, "example.com: 80": false, "example.com:8080:1": false,
		"[::1": false, "[::1]junk": false, "a:b:c": false, "example.com:000080": false,
	} {
		if got := hostguard.ValidHost(host); got != want {
			t.Errorf("ValidHost(%q) = %v, want %v", host, got, want)
		}
	}
}

// Wrap answers a Host with a port that is not a number with a 400, before it asks whether the
// host is allowed (even "*" allows no such Host), and a host not allowed with a 403.
func TestWrapRefusesHostWithBadPort(t *testing.T) {
	ok := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusNoContent) })
	for _, hosts := range [][]string{nil, {"*"}, {"example.com"}} {
		g, err := hostguard.New(hosts)
		if err != nil {
			t.Fatal(err)
		}
		h := g.Wrap(ok)
		for host, want := range map[string]int{"example.com:abc": 400, "localhost:x": 400, "a:": 400, "evil.example:1": 403} {
			if hosts != nil && hosts[0] == "*" && want == 403 {
				want = 204
			}
			r := httptest.NewRequest("GET", "/", nil)
			r.Host = host
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, r)
			if rec.Code != want {
				t.Errorf("hosts %q, Host %q: %d, want %d", hosts, host, rec.Code, want)
			}
			if want == 400 && !strings.Contains(rec.Body.String(), "port that is not a number") {
				t.Errorf("hosts %q, Host %q: the 400 says %q", hosts, host, rec.Body)
			}
		}
	}
}
