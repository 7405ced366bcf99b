package logbuf_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/svc-feedback/svc/logbuf"
)

func textHandler(w io.Writer) slog.Handler {
	return slog.NewTextHandler(w, &slog.HandlerOptions{ReplaceAttr: func(_ []string, a slog.Attr) slog.Attr {
		if a.Key == slog.TimeKey || a.Key == slog.LevelKey {
			return slog.Attr{}
		}
		return a
	}})
}

// Every record handled from many goroutines comes out whole and once, each goroutine's in its
// order, by Close at the latest; records handled after Close come out at once.
func TestHandlerRecordsComeOutWholeInOrder(t *testing.T) {
	var out lockedBuffer
	h := logbuf.NewHandler(&out, textHandler)
	log := slog.New(h)
	var wg sync.WaitGroup
	const writers, lines = 8, 5_000 // more than RecordsMaxPending in all
	for g := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range lines {
				log.Info("request", "writer", g, "line", i, "pad", strings.Repeat("x", 1+i%50))
			}
		}()
	}
	wg.Wait()
	if err := h.Close(); err != nil {
		t.Fatal(err)
	}
	log.Info("after close")
	next := make([]int, writers)
	got := strings.Split(strings.TrimSuffix(out.b.String(), "\n"), "\n")
	for _, line := range got[:len(got)-1] {
		var g, i int
		if _, err := fmt.Sscanf(line, "msg=request writer=%d line=%d", &g, &i); err != nil || i != next[g] ||
			line != fmt.Sprintf("msg=request writer=%d line=%d pad=%s", g, i, strings.Repeat("x", 1+i%50)) {
			t.Fatalf("line %q out of order or cut (writer %d expected line %d)", line, g, next[g])
		}
		next[g]++
	}
	for g, n := range next {
		if n != lines {
			t.Errorf("writer %d: %d lines of %d came out", g, n, lines)
		}
	}
	if got[len(got)-1] != `msg="after close"` {
		t.Errorf("last line %q, want the one handled after Close", got[len(got)-1])
	}
}

// gate is a writer that takes nothing until it is opened.
type gate struct {
	open chan struct{}
	lockedBuffer
}

func (g *gate) Write(p []byte) (int, error) {
	<-g.open
	return g.lockedBuffer.Write(p)
}

// A request does not wait for the writer: records are handled while the writer takes nothing,
// up to the queue's limit, and come out once it does.
func TestHandlerDoesNotWaitForTheWriter(t *testing.T) {
	out := &gate{open: make(chan struct{})}
	h := logbuf.NewHandler(out, textHandler)
	log := slog.New(h)
	const n = logbuf.RecordsMaxPending // the goroutine holds the first batch, the queue the rest
	for i := range n {
		log.Info("request", "line", i)
	}
	close(out.open)
	if err := h.Close(); err != nil {
		t.Fatal(err)
	}
	if got := strings.Count(out.b.String(), "msg=request"); got != n {
		t.Errorf("%d lines came out, want %d", got, n)
	}
}

// stamp is a slog.LogValuer whose value changes after it is logged.
type stamp struct{ v *int }

func (s stamp) LogValue() slog.Value { return slog.IntValue(*s.v) }

// A record says what its values were when it was handled, though it is formatted later; the
// attributes and groups of derived handlers come with it, and its context's values reach the
// handler it wraps after the context is canceled.
func TestHandlerFormatsWhatWasHandled(t *testing.T) {
	var out lockedBuffer
	type key struct{}
	var seen []any
	h := logbuf.NewHandler(&out, func(w io.Writer) slog.Handler {
		return ctxHandler{textHandler(w), func(ctx context.Context) { seen = append(seen, ctx.Value(key{}), ctx.Err()) }}
	})
	v := 1
	ctx, cancel := context.WithCancel(context.WithValue(context.Background(), key{}, "trace-1"))
	slog.New(h).With("app", "svc").WithGroup("req").InfoContext(ctx, "request", "n", stamp{&v},
		slog.Group("g", "m", stamp{&v}))
	v = 2
	cancel()
	if err := h.Close(); err != nil {
		t.Fatal(err)
	}
	if want := "msg=request app=svc req.n=1 req.g.m=1\n"; out.b.String() != want {
		t.Errorf("got %q, want %q", out.b.String(), want)
	}
	if len(seen) != 2 || seen[0] != "trace-1" || seen[1] != nil {
		t.Errorf("the handler saw the context's value and error %v, want trace-1 and none", seen)
	}
}

type ctxHandler struct {
	slog.Handler
	saw func(context.Context)
}

func (c ctxHandler) Handle(ctx context.Context, r slog.Record) error {
	c.saw(ctx)
	return c.Handler.Handle(ctx, r)
}

func (c ctxHandler) WithAttrs(a []slog.Attr) slog.Handler {
	return ctxHandler{c.Handler.WithAttrs(a), c.saw}
}

func (c ctxHandler) WithGroup(n string) slog.Handler {
	return ctxHandler{c.Handler.WithGroup(n), c.saw}
}

type failing struct{}

func (failing) Write([]byte) (int, error) { return 0, errors.New("disk full") }

// The writer's error is not the request's: Close reports it, and Handle only once it writes
// through, after Close.
func TestHandlerCloseReportsTheWritersError(t *testing.T) {
	h := logbuf.NewHandler(failing{}, textHandler)
	if err := h.Handle(context.Background(), slog.NewRecord(time.Time{}, slog.LevelInfo, "request", 0)); err != nil {
		t.Fatalf("Handle: %v, want nil: the write comes later", err)
	}
	if err := h.Close(); err == nil || !strings.Contains(err.Error(), "disk full") {
		t.Errorf("Close: %v, want the writer's error", err)
	}
	if err := h.Handle(context.Background(), slog.NewRecord(time.Time{}, slog.LevelInfo, "late", 0)); err == nil {
		t.Error("Handle after Close: nil, want the writer's error: the record is written at once")
	}
}

// panicky is a handler that panics on the record "boom", having written part of its line.
type panicky struct {
	slog.Handler
	w io.Writer
}

func (p panicky) Handle(ctx context.Context, r slog.Record) error {
	if r.Message == "boom" {
		_, _ = io.WriteString(p.w, "half a line")
		panic("formatting failed")
	}
	return p.Handler.Handle(ctx, r)
}

// A handler that panics loses the record it panicked on, and nothing else: the lines around it
// come out whole, and Close reports the panic.
func TestHandlerSurvivesAPanickingHandler(t *testing.T) {
	var out lockedBuffer
	h := logbuf.NewHandler(&out, func(w io.Writer) slog.Handler { return panicky{textHandler(w), w} })
	log := slog.New(h)
	log.Info("before")
	log.Info("boom")
	log.Info("after")
	err := h.Close()
	if want := "msg=before\nmsg=after\n"; out.b.String() != want {
		t.Errorf("got %q, want %q", out.b.String(), want)
	}
	if err == nil || !strings.Contains(err.Error(), "formatting failed") {
		t.Errorf("Close: %v, want the panic", err)
	}
}
