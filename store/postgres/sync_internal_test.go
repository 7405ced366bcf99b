package postgres

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// loopback is a syncer whose markers come back at once, as a listening connection hears them,
// unless told to drop them or fail to send them.
func loopback() (*syncer, *atomic.Int64, *atomic.Bool, *atomic.Bool) {
	var sent atomic.Int64
	var drop, fail atomic.Bool
	var y *syncer
	y = newSyncer(func(_ context.Context, channel, payload string) error {
		if fail.Load() {
			return errors.New("connection refused")
		}
		sent.Add(1)
		if channel != y.channel {
			panic("a marker sent on another channel: " + channel)
		}
		if !drop.Load() {
			go y.seen(payload)
		}
		return nil
	})
	return y, &sent, &drop, &fail
}

// Reads wait for a marker while the connection listens, share markers when they arrive
// together, and read the database (false) when it does not listen, when a marker cannot be
// sent, and when one is lost, after which the next read sends another.
func TestSyncer(t *testing.T) {
	y, sent, drop, fail := loopback()
	if y.wait(t.Context()) {
		t.Fatal("before the connection listens: waited, want false at once")
	}
	y.listening(true)
	if !y.wait(t.Context()) || sent.Load() != 1 {
		t.Fatalf("one read: %d markers sent", sent.Load())
	}
	var wg sync.WaitGroup
	var waited atomic.Int64
	for range 200 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if y.wait(t.Context()) {
				waited.Add(1)
			}
		}()
	}
	wg.Wait()
	if waited.Load() != 200 || sent.Load() > 150 {
		t.Errorf("200 reads at once: %d synced with %d markers; want all, sharing markers", waited.Load(), sent.Load()-1)
	}

	fail.Store(true)
	if y.wait(t.Context()) {
		t.Error("a marker that cannot be sent: synced, want false")
	}
	fail.Store(false)
	if !y.wait(t.Context()) {
		t.Error("once markers can be sent again: false")
	}

	drop.Store(true)
	start := time.Now()
	if y.wait(t.Context()) || time.Since(start) < syncWait {
		t.Errorf("a lost marker: synced or gave up after %v, want false after %v", time.Since(start), syncWait)
	}
	drop.Store(false)
	if !y.wait(t.Context()) {
		t.Error("after a lost marker: false, want a new marker sent and heard")
	}

	drop.Store(true)
	done := make(chan bool)
	go func() { done <- y.wait(t.Context()) }()
	waiting := func() bool {
		y.mu.Lock()
		defer y.mu.Unlock()
		return len(y.markers) > 0
	}
	for !waiting() {
		time.Sleep(time.Millisecond) // until the read waits
	}
	y.listening(false)
	if <-done {
		t.Error("a read waiting when the connection failed: synced, want false")
	}
	if y.wait(t.Context()) {
		t.Error("while the connection does not listen: synced, want false")
	}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	y.listening(true)
	if y.wait(ctx) {
		t.Error("a read whose context is done: synced, want false")
	}
}
