package main

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// lockedBuffer is standard error for a server running in the test's process: the log and the
// access log's flusher write it from their goroutines.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// The access log, buffered off the requests' path, has every request's line on standard error
// once the server has stopped.
func TestAccessLogReachesStderr(t *testing.T) {
	ctx, stop := context.WithCancel(t.Context())
	defer stop()
	outR, outW := io.Pipe()
	var errOut lockedBuffer
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"-addr", "127.0.0.1:0", "-db", filepath.Join(t.TempDir(), "svc.db")},
			func(string) string { return "" }, outW, &errOut)
		outW.Close()
	}()
	url := ""
	lines := bufio.NewScanner(outR)
	for url == "" && lines.Scan() {
		if addr, ok := strings.CutPrefix(lines.Text(), "listening on "); ok {
			url = addr
		}
	}
	go func() { _, _ = io.Copy(io.Discard, outR) }()
	if url == "" {
		t.Fatalf("the server did not start: %v\n%s", <-done, errOut.String())
	}
	for range 3 {
		resp, err := http.Get(url + "/healthz")
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
	}
	stop()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	want := `msg=request method=GET route="GET /healthz" status=200`
	if n := strings.Count(errOut.String(), want); n != 3 {
		t.Errorf("%d access-log lines %q on standard error, want 3:\n%s", n, want, errOut.String())
	}
}
