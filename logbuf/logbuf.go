// Package logbuf takes log lines off the requests' path, on their way to a slow writer: a
// terminal, a pipe or a file. Handler queues each record and formats it later, in batches, from
// a goroutine of its own, so that a request pays for a copy of its record, neither for the
// formatting nor for a write; Writer buffers lines already formatted, so that a request pays
// for formatting its line and a copy, not for a write. Either writes in the order it was
// given, whole, at most FlushEvery later, and drops nothing: when its goroutine falls behind by
// its limit, a caller waits for it, as it would without the buffer.
package logbuf

import (
	"io"
	"sync"
	"time"
)

// Defaults of the Writer and the Handler.
const (
	// FlushEvery is how long a line may wait in the buffer.
	FlushEvery = 100 * time.Millisecond
	// FlushAt is how many bytes wake the Writer's goroutine before FlushEvery.
	FlushAt = 32 << 10
	// MaxPending is how many bytes may wait before Write waits for the Writer's goroutine.
	MaxPending = 1 << 20
)

// Writer is an io.Writer that buffers what it is given for w. Give it whole lines (a slog
// handler writes each record in one call). Close it to write out what it holds.
type Writer struct {
	w io.Writer
	q *queue[byte]

	mu  sync.Mutex
	err error // the first error of w, for Close
}

// New starts buffering for w.
func New(w io.Writer) *Writer {
	b := &Writer{w: w}
	b.q = newQueue(FlushAt, MaxPending, b.write)
	return b
}

func (b *Writer) write(p []byte) {
	if _, err := b.w.Write(p); err != nil {
		b.mu.Lock()
		if b.err == nil {
			b.err = err
		}
		b.mu.Unlock()
	}
}

// Write copies p into the buffer. It waits only when MaxPending bytes are waiting already;
// after Close it writes p through at once.
func (b *Writer) Write(p []byte) (int, error) {
	if !b.q.add(p...) {
		return b.w.Write(p) // after what the buffer held
	}
	return len(p), nil
}

// Close writes out what the buffer holds and stops its goroutine; later writes go straight to
// w. It returns the first error w gave, if any.
func (b *Writer) Close() error {
	if !b.q.close() {
		return nil
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.err
}
