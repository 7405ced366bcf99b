// Package logbuf buffers log lines on their way to a slow writer, so that a request pays for
// formatting its access-log line and a copy, not for a write to a terminal, a pipe or a file.
// Lines are written in the order they came, whole, by a goroutine of their own, at most
// FlushEvery after they came; none is dropped: when the writer falls behind by MaxPending
// bytes, a request waits for it, as it would without the buffer.
package logbuf

import (
	"io"
	"sync"
	"time"
)

// Defaults of the Writer.
const (
	// FlushEvery is how long a line may wait in the buffer.
	FlushEvery = 100 * time.Millisecond
	// FlushAt is how many bytes wake the flusher before FlushEvery.
	FlushAt = 32 << 10
	// MaxPending is how many bytes may wait before Write waits for the flusher.
	MaxPending = 1 << 20
)

// Writer is an io.Writer that buffers what it is given for w. Give it whole lines (a slog
// handler writes each record in one call). Close it to write out what it holds.
type Writer struct {
	w io.Writer

	mu      sync.Mutex
	buf     []byte
	err     error // the last error of w, for Close
	closed  bool
	wake    chan struct{} // the flusher has bytes to write sooner than FlushEvery
	drained *sync.Cond    // the buffer went below MaxPending, or the Writer was closed
	done    chan struct{}
}

// New starts buffering for w.
func New(w io.Writer) *Writer {
	b := &Writer{w: w, wake: make(chan struct{}, 1), done: make(chan struct{})}
	b.drained = sync.NewCond(&b.mu)
	go b.flusher()
	return b
}

// Write copies p into the buffer. It waits only when MaxPending bytes are waiting already;
// after Close it writes p through at once.
func (b *Writer) Write(p []byte) (int, error) {
	b.mu.Lock()
	for len(b.buf) >= MaxPending && !b.closed {
		b.drained.Wait()
	}
	if b.closed {
		b.mu.Unlock()
		<-b.done // after what the buffer held
		return b.w.Write(p)
	}
	b.buf = append(b.buf, p...)
	if len(b.buf) >= FlushAt {
		select { // under the lock: Close closes wake only once closed is set
		case b.wake <- struct{}{}:
		default:
		}
	}
	b.mu.Unlock()
	return len(p), nil
}

// Close writes out what the buffer holds and stops the flusher; later writes go straight to
// w. It returns the first error w gave, if any.
func (b *Writer) Close() error {
	b.mu.Lock()
	if b.closed {
		b.mu.Unlock()
		return nil
	}
	b.closed = true
	b.drained.Broadcast()
	b.mu.Unlock()
	close(b.wake)
	<-b.done
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.err
}

// flusher writes the buffer out every FlushEvery, when FlushAt bytes are waiting, and once
// more at Close.
func (b *Writer) flusher() {
	defer close(b.done)
	t := time.NewTicker(FlushEvery)
	defer t.Stop()
	var out []byte
	for {
		open := true
		select {
		case <-t.C:
		case _, open = <-b.wake:
		}
		b.mu.Lock()
		out, b.buf = b.buf, out[:0] // the two buffers take turns
		b.drained.Broadcast()
		b.mu.Unlock()
		if len(out) > 0 {
			if _, err := b.w.Write(out); err != nil {
				b.mu.Lock()
				if b.err == nil {
					b.err = err
				}
				b.mu.Unlock()
			}
		}
		if !open {
			return
		}
	}
}
