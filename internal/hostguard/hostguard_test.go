package hostguard_test

import (
	"net/http/httptest"
	"testing"

	"github.com/svc-feedback/svc/internal/hostguard"
)

func TestAllowed(t *testing.T) {
	tests := []struct {
		hosts   []string
		host    string
		allowed bool
	}{
		// By default, loopback only.
		{nil, "localhost:8080", true}, {nil, "LOCALHOST", true}, {nil, "app.localhost:3000", true},
		{nil, "127.0.0.1:8080", true}, {nil, "127.9.9.9", true}, {nil, "[::1]:8080", true},
		{nil, "evil.example:8080", false}, {nil, "localhost.evil.example", false}, {nil, "10.0.0.5", false},
		{nil, "", false}, {nil, "[::2]:80", false},
		// A list: a name with any port, or with its port only.
		{[]string{"admin.example.com"}, "Admin.Example.com:443", true},
		{[]string{"admin.example.com"}, "localhost", false},
		{[]string{"10.0.0.5:8443"}, "10.0.0.5:8443", true},
		{[]string{"10.0.0.5:8443"}, "10.0.0.5:8080", false},
		{[]string{"::1"}, "[::1]:9", true},
		{[]string{"*"}, "anything.example", true},
	}
	for _, tt := range tests {
		g, err := hostguard.New(tt.hosts)
		if err != nil {
			t.Fatal(err)
		}
		r := httptest.NewRequest("GET", "/", nil)
		r.Host = tt.host
		if got := g.Allowed(r); got != tt.allowed {
			t.Errorf("hosts %q, Host %q: allowed %v, want %v", tt.hosts, tt.host, got, tt.allowed)
		}
	}
	for _, bad := range []string{"", "http://x/", "a b"} {
		if _, err := hostguard.New([]string{bad}); err == nil {
			t.Errorf("hosts %q accepted", bad)
		}
	}
}
