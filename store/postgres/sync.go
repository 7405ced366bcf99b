package postgres

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"strconv"
	"sync"
	"time"
)

// syncWait is how long a read waits for its marker before it reads the database instead.
const syncWait = time.Second

// markerGap is the least time between two markers: under load, the reads of a millisecond
// share one, which costs them that millisecond at most and PostgreSQL a NOTIFY per millisecond
// rather than one per round trip.
const markerGap = time.Millisecond

// syncer lets a read be sure that this instance has heard every announcement committed before
// the read began: it sends a marker on the instance's own channel and waits for the listening
// connection to hear it back, which it does after every notification committed before it
// (PostgreSQL delivers them in the order their transactions committed, across channels). One
// marker serves every read that began before it was sent; while one is out, the reads that
// arrive wait for the next, which is sent when it comes back (and markerGap after the one
// before). So reads in flight together cost one NOTIFY, however many they are.
type syncer struct {
	channel string
	send    func(ctx context.Context, channel, payload string) error

	mu        sync.Mutex
	on        bool   // the connection listens
	next      uint64 // the marker that reads arriving now wait for
	out       uint64 // the marker sent and not back yet; 0 for none
	scheduled bool   // next is to be sent when markerGap has passed
	sentAt    time.Time
	markers   map[uint64]*marker
}

// marker is a marker's outcome, for the reads waiting for it.
type marker struct {
	done chan struct{} // closed when ok is set
	ok   bool
}

func newSyncer(send func(ctx context.Context, channel, payload string) error) *syncer {
	b := make([]byte, 8)
	_, _ = rand.Read(b) // never fails (crypto/rand)
	return &syncer{channel: "svc_sync_" + hex.EncodeToString(b), send: send, next: 1, markers: make(map[uint64]*marker)}
}

// wait reports, once a marker sent after it was called has come back, true; false at once when
// the connection does not listen, and false when the marker is not back within syncWait or ctx
// is done.
func (y *syncer) wait(ctx context.Context) bool {
	y.mu.Lock()
	if !y.on {
		y.mu.Unlock()
		return false
	}
	if y.out != 0 && time.Since(y.sentAt) > syncWait {
		y.settle(y.out, false) // lost: its reads have given up
	}
	seq := y.next
	m := y.markers[seq]
	if m == nil {
		m = &marker{done: make(chan struct{})}
		y.markers[seq] = m
	}
	send := y.kick()
	y.mu.Unlock()
	if send != 0 {
		y.dispatch(send)
	}
	t := time.NewTimer(syncWait)
	defer t.Stop()
	select {
	case <-m.done:
		return m.ok
	case <-ctx.Done():
		return false
	case <-t.C:
	}
	// Lost, with any marker before it (a connection that failed and listens again does not
	// hear what was sent before): the reads arriving now need one of their own.
	y.heard(seq, false)
	return false
}

// kick sends the next marker if reads wait for it and none is out or scheduled: it returns it,
// for the caller to dispatch once it has let go of y.mu (held now), or schedules it for when
// markerGap has passed since the last, or returns 0.
func (y *syncer) kick() uint64 {
	if !y.on || y.out != 0 || y.scheduled || y.markers[y.next] == nil {
		return 0
	}
	if wait := markerGap - time.Since(y.sentAt); wait > 0 {
		y.scheduled = true
		time.AfterFunc(wait, func() {
			y.mu.Lock()
			y.scheduled = false
			send := y.kick()
			y.mu.Unlock()
			if send != 0 {
				y.dispatch(send)
			}
		})
		return 0
	}
	seq := y.next
	y.next++
	y.out, y.sentAt = seq, time.Now()
	return seq
}

// settle tells the reads waiting for marker seq, or an earlier one, the outcome. y.mu is held.
func (y *syncer) settle(seq uint64, ok bool) {
	for k, m := range y.markers {
		if k <= seq {
			m.ok = ok
			close(m.done)
			delete(y.markers, k)
		}
	}
	if y.out != 0 && y.out <= seq {
		y.out = 0
	}
}

// dispatch sends marker seq; when it cannot, its reads read the database.
func (y *syncer) dispatch(seq uint64) {
	ctx, cancel := context.WithTimeout(context.Background(), syncWait)
	defer cancel()
	if err := y.send(ctx, y.channel, strconv.FormatUint(seq, 10)); err != nil {
		y.heard(seq, false)
	}
}

// heard settles marker seq and sends the next if reads wait for it.
func (y *syncer) heard(seq uint64, ok bool) {
	y.mu.Lock()
	y.settle(seq, ok)
	send := y.kick()
	y.mu.Unlock()
	if send != 0 {
		go y.dispatch(send)
	}
}

// seen is told of a marker heard on the channel.
func (y *syncer) seen(payload string) {
	seq, err := strconv.ParseUint(payload, 10, 64)
	if err != nil {
		return
	}
	y.heard(seq, true)
}

// listening is told whether the connection listens. While it does not, reads do not wait, and
// those waiting read the database.
func (y *syncer) listening(on bool) {
	y.mu.Lock()
	defer y.mu.Unlock()
	y.on = on
	if !on {
		y.settle(y.next, false)
	}
}
