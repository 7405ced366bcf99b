package logbuf_test

import (
	"bytes"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/svc-feedback/svc/logbuf"
)

// lockedBuffer is a writer that may be written from the flusher while the test reads it.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

// Every line written from many goroutines comes out whole and once, each goroutine's in its
// order, by Close at the latest, and writes after Close go straight through.
func TestLinesComeOutWholeInOrder(t *testing.T) {
	var out lockedBuffer
	w := logbuf.New(&out)
	var wg sync.WaitGroup
	const writers, lines = 8, 20_000 // more than MaxPending bytes in all
	for g := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range lines {
				fmt.Fprintf(w, "writer %d line %d %s\n", g, i, strings.Repeat("x", i%50))
			}
		}()
	}
	wg.Wait()
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	fmt.Fprintln(w, "after close")
	next := make([]int, writers)
	got := strings.Split(strings.TrimSuffix(out.b.String(), "\n"), "\n")
	for _, line := range got[:len(got)-1] {
		var g, i int
		if _, err := fmt.Sscanf(line, "writer %d line %d", &g, &i); err != nil || i != next[g] || len(line) != len(fmt.Sprintf("writer %d line %d ", g, i))+i%50 {
			t.Fatalf("line %q out of order or cut (writer %d expected line %d)", line, g, next[g])
		}
		next[g]++
	}
	for g, n := range next {
		if n != lines {
			t.Errorf("writer %d: %d lines of %d came out", g, n, lines)
		}
	}
	if got[len(got)-1] != "after close" {
		t.Errorf("last line %q, want the one written after Close", got[len(got)-1])
	}
}

// An access-log line queued by the Handler, through the Writer's buffer as examples/server
// wrote it before the Handler, and straight to the file:
//
//	go test ./logbuf -run '^$' -bench . -benchmem
func BenchmarkAccessLogLine(b *testing.B) {
	for _, how := range []string{"queued", "buffered", "direct"} {
		b.Run(how+"-to-a-file", func(b *testing.B) {
			f, err := os.Create(filepath.Join(b.TempDir(), "access.log"))
			if err != nil {
				b.Fatal(err)
			}
			defer f.Close()
			var h slog.Handler
			switch how {
			case "queued":
				q := logbuf.NewHandler(f, func(w io.Writer) slog.Handler { return slog.NewTextHandler(w, nil) })
				defer q.Close()
				h = q
			case "buffered":
				bw := logbuf.New(f)
				defer bw.Close()
				h = slog.NewTextHandler(bw, nil)
			default:
				h = slog.NewTextHandler(f, nil)
			}
			log := slog.New(h)
			b.ReportAllocs()
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					log.LogAttrs(b.Context(), slog.LevelInfo, "request", slog.String("method", "GET"),
						slog.String("route", "GET /v1/svc/{surveyId}"), slog.Int("status", 200),
						slog.Duration("duration", 48_000), slog.Int64("bytes", 1234))
				}
			})
		})
	}
}
