package logbuf

import (
	"sync"
	"time"
)

// queue holds what callers add for a goroutine of its own, which takes it all out at once at
// least every FlushEvery, or sooner once flushAt items wait. A caller waits only when maxPending
// items are waiting already, so nothing is ever dropped. Writer queues bytes, Handler records.
type queue[T any] struct {
	flushAt, maxPending int
	out                 func([]T) // called from the queue's goroutine only; must not keep the slice

	mu      sync.Mutex
	items   []T
	closed  bool
	wake    chan struct{} // the goroutine has items to take sooner than FlushEvery
	drained *sync.Cond    // the queue went below maxPending, or was closed
	done    chan struct{}
}

func newQueue[T any](flushAt, maxPending int, out func([]T)) *queue[T] {
	q := &queue[T]{flushAt: flushAt, maxPending: maxPending, out: out,
		wake: make(chan struct{}, 1), done: make(chan struct{})}
	q.drained = sync.NewCond(&q.mu)
	go q.run()
	return q
}

// add queues items, and reports false, having queued nothing, once the queue is closed and
// everything queued before has gone out.
func (q *queue[T]) add(items ...T) bool {
	q.mu.Lock()
	for len(q.items) >= q.maxPending && !q.closed {
		q.drained.Wait()
	}
	if q.closed {
		q.mu.Unlock()
		<-q.done
		return false
	}
	q.items = append(q.items, items...)
	if len(q.items) >= q.flushAt {
		select { // under the lock: close closes wake only once closed is set
		case q.wake <- struct{}{}:
		default:
		}
	}
	q.mu.Unlock()
	return true
}

// close takes out what the queue holds and stops its goroutine. It reports whether this call
// closed it.
func (q *queue[T]) close() bool {
	q.mu.Lock()
	if q.closed {
		q.mu.Unlock()
		<-q.done
		return false
	}
	q.closed = true
	q.drained.Broadcast()
	q.mu.Unlock()
	close(q.wake)
	<-q.done
	return true
}

// run takes the items out every FlushEvery, when flushAt are waiting, and once more at close.
func (q *queue[T]) run() {
	defer close(q.done)
	t := time.NewTicker(FlushEvery)
	defer t.Stop()
	var taken []T
	for {
		open := true
		select {
		case <-t.C:
		case _, open = <-q.wake:
		}
		q.mu.Lock()
		taken, q.items = q.items, taken[:0] // the two slices take turns
		q.drained.Broadcast()
		q.mu.Unlock()
		if len(taken) > 0 {
			q.out(taken)
		}
		if !open {
			return
		}
	}
}
