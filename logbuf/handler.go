package logbuf

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"sync"
)

// Limits of the Handler's queue, in records. An access-log line is about 130 bytes, so the
// queue holds about as much as the Writer's buffer.
const (
	// RecordsFlushAt is how many records wake the Handler's goroutine before FlushEvery.
	RecordsFlushAt = 256
	// RecordsMaxPending is how many records may wait before Handle waits.
	RecordsMaxPending = 8192
)

// Handler is a slog.Handler that takes the formatting of its records off the caller's path: it
// queues each record, and a goroutine of its own formats the queued ones in a batch, in the
// order they came, with the handler it was made with, then writes the batch out in one call.
//
// Since a record is formatted after Handle returns, its values are read then: give it values
// that do not change (strings, numbers, times, durations), as an access log does; a
// slog.LogValuer is resolved when the record is queued. The handler it wraps gets each record
// with its context, without its cancellation (see context.WithoutCancel), since the request
// has usually ended by then. A record that handler panics on is dropped, and Close reports it.
type Handler struct {
	h    slog.Handler
	sink *sink
}

// sink is what a Handler and the handlers WithAttrs and WithGroup derive from it share.
type sink struct {
	q   *queue[queued]
	buf bytes.Buffer // what the handlers format into, written out once per batch
	w   io.Writer

	mu  sync.Mutex
	err error // the first error of w or of a handler, for Close
}

type queued struct {
	h   slog.Handler
	ctx context.Context
	r   slog.Record
}

// NewHandler returns a Handler that formats its records with the handler format returns for
// the writer it is given (slog.NewTextHandler, say), and writes them to w. Close it once the
// last record has been handled, to write out what it holds.
func NewHandler(w io.Writer, format func(io.Writer) slog.Handler) *Handler {
	s := &sink{w: w}
	s.q = newQueue(RecordsFlushAt, RecordsMaxPending, s.out)
	return &Handler{h: format(&s.buf), sink: s}
}

// Enabled reports whether the handler it wraps handles records at level.
func (h *Handler) Enabled(ctx context.Context, level slog.Level) bool {
	return h.h.Enabled(ctx, level)
}

// Handle queues r, which waits only when RecordsMaxPending records are waiting already. After
// Close it formats and writes r at once.
func (h *Handler) Handle(ctx context.Context, r slog.Record) error {
	e := queued{h: h.h, ctx: context.WithoutCancel(ctx), r: resolved(r)}
	if !h.sink.q.add(e) {
		return h.sink.write([]queued{e})
	}
	return nil
}

// resolved returns r with its slog.LogValuer values resolved, and no state shared with r.
func resolved(r slog.Record) slog.Record {
	lazy := false
	r.Attrs(func(a slog.Attr) bool {
		lazy = a.Value.Kind() == slog.KindLogValuer || a.Value.Kind() == slog.KindGroup
		return !lazy
	})
	if !lazy {
		return r.Clone()
	}
	c := slog.NewRecord(r.Time, r.Level, r.Message, r.PC)
	r.Attrs(func(a slog.Attr) bool {
		c.AddAttrs(resolveAttr(a))
		return true
	})
	return c
}

// resolveAttr resolves a's value, and those of the attributes of a group, however deep.
func resolveAttr(a slog.Attr) slog.Attr {
	a.Value = a.Value.Resolve()
	if a.Value.Kind() == slog.KindGroup {
		in := a.Value.Group()
		out := make([]slog.Attr, len(in))
		for i, g := range in {
			out[i] = resolveAttr(g)
		}
		a.Value = slog.GroupValue(out...)
	}
	return a
}

// WithAttrs returns a Handler, sharing this one's queue, whose records carry attrs.
func (h *Handler) WithAttrs(attrs []slog.Attr) slog.Handler {
	return &Handler{h: h.h.WithAttrs(attrs), sink: h.sink}
}

// WithGroup returns a Handler, sharing this one's queue, whose records' attributes are in the
// group name.
func (h *Handler) WithGroup(name string) slog.Handler {
	return &Handler{h: h.h.WithGroup(name), sink: h.sink}
}

// Close formats and writes out what the queue holds and stops its goroutine; later records
// are formatted and written at once. It returns the first error the writer or a handler gave,
// if any. Close the Handler it was made with, not one derived from it, once.
func (h *Handler) Close() error {
	h.sink.q.close()
	return h.sink.firstErr()
}

// out formats a batch of records and writes it in one call, for the queue's goroutine.
func (s *sink) out(batch []queued) { _ = s.write(batch) }

// write formats a batch of records and writes it in one call, under the sink's lock: from the
// queue's goroutine, or after Close from a caller of Handle. It returns the first error of the
// batch, and keeps the first of all for Close.
func (s *sink) write(batch []queued) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	var first error
	keep := func(err error) {
		if first == nil {
			first = err
		}
		if s.err == nil {
			s.err = err
		}
	}
	for i := range batch {
		if err := s.handle(batch[i]); err != nil {
			keep(err)
		}
		batch[i] = queued{} // lets go of the context and the record's values
	}
	if s.buf.Len() > 0 {
		if _, err := s.w.Write(s.buf.Bytes()); err != nil {
			keep(err)
		}
		s.buf.Reset()
	}
	return first
}

// handle formats one record into the buffer. A handler that panics loses its record, not the
// process: on the request's path, net/http would have recovered the panic; here nothing
// would. What the handler wrote of the record is taken back.
func (s *sink) handle(e queued) (err error) {
	n := s.buf.Len()
	defer func() {
		if p := recover(); p != nil {
			s.buf.Truncate(n)
			err = fmt.Errorf("logbuf: the handler panicked on the record %q: %v", e.r.Message, p)
		}
	}()
	return e.h.Handle(e.ctx, e.r)
}

func (s *sink) firstErr() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.err
}
