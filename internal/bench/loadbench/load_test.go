package main

import (
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// TestLoad drives a loopback server through the generator's connections: every request is
// counted and timed, error statuses and closed connections are errors, and the connections
// are kept alive between requests.
func TestLoad(t *testing.T) {
	var conns atomic.Int64
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/bad":
			http.Error(w, "no", http.StatusInternalServerError)
		case "/close":
			w.Header().Set("Connection", "close")
		case "/slow":
			time.Sleep(400 * time.Millisecond)
		default:
			if r.Method == http.MethodPut && r.ContentLength == 0 {
				http.Error(w, "no body", http.StatusBadRequest)
			}
		}
	}))
	srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			conns.Add(1)
		}
	}
	srv.Start()
	defer srv.Close()
	addr := strings.TrimPrefix(srv.URL, "http://")
	request := func(path string) func(int64) (*http.Request, error) {
		return func(int64) (*http.Request, error) {
			return http.NewRequest(http.MethodPut, srv.URL+path, strings.NewReader(`{"a":1}`))
		}
	}

	ok := load([]string{addr}, 4, 200*time.Millisecond, request("/ok"))
	if ok.requests == 0 || ok.errors != 0 || int64(len(ok.latencies)) != ok.requests {
		t.Fatalf("/ok: %d requests, %d errors, %d latencies", ok.requests, ok.errors, len(ok.latencies))
	}
	if n := conns.Load(); n != 4 {
		t.Errorf("/ok took %d connections for 4 workers: they were not kept alive", n)
	}
	// A request still running when the window ends is measured, but is not throughput.
	slow := load([]string{addr}, 1, 200*time.Millisecond, request("/slow"))
	if slow.requests != 1 || slow.errors != 0 || slow.rps() != 0 || len(slow.latencies) != 1 {
		t.Errorf("/slow: %d requests, %d errors, %v/s, %d latencies; want 1, 0, 0/s, 1", slow.requests, slow.errors, slow.rps(), len(slow.latencies))
	}
	for _, path := range []string{"/bad", "/close"} {
		r := load([]string{addr}, 2, 100*time.Millisecond, request(path))
		if r.requests == 0 || r.errors != r.requests {
			t.Errorf("%s: %d requests, %d errors, want all failed", path, r.requests, r.errors)
		}
	}
}
