package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/svc-feedback/svc/store"
)

// writeOp is one caller's write, run by the writer in a shared transaction.
type writeOp struct {
	fn   func(tx *sql.Tx) error
	done chan error
	fold bool // the writer's own fold of the count log, which OnCommit does not count
}

// write runs fn in the writer's next transaction and returns once that transaction is durable
// (or fn's own error, which rolls back fn's changes only). fn must not keep tx, and may run more
// than once: when a write of a batch fails, the batch runs again (see commit), and only the
// last run's effects and captured results count.
func (s *Store) write(ctx context.Context, fn func(tx *sql.Tx) error) error {
	op := s.opPool.Get().(*writeOp)
	op.fn = fn
	defer func() {
		op.fn = nil // the pool must not keep the caller's closure alive
		s.opPool.Put(op)
	}()
	s.sendMu.RLock()
	if s.closed {
		s.sendMu.RUnlock()
		return store.ErrClosed
	}
	s.sending.Add(1) // the queue is full when the writer is behind: count who waits to join it
	select {
	case s.ops <- op:
		s.sending.Add(-1)
		s.sendMu.RUnlock()
	case <-ctx.Done():
		s.sending.Add(-1)
		s.sendMu.RUnlock()
		return ctx.Err()
	}
	// Once queued, the write will run: waiting for its outcome (rather than for ctx) keeps
	// the caller from reporting a failure for data that is then committed. The writer sends
	// the outcome last, so the op can go back to the pool once it has arrived.
	return <-op.done
}

func (s *Store) writer() {
	defer close(s.writerDone)
	batch := make([]*writeOp, 0, s.maxBatch)
	var idle <-chan time.Time
	if s.foldEvery > 0 {
		t := time.NewTicker(s.foldEvery)
		defer t.Stop()
		idle = t.C
	}
	for {
		select {
		case op := <-s.ops:
			s.finishCheckpointIfAsked()
			batch = s.commit(append(batch[:0], op))
			s.failQueuedIfLocked(batch)
		case <-idle:
			if s.logged > 0 && len(s.ops) == 0 {
				batch = s.foldAlone(batch)
			}
		case <-s.closing:
			// Finish what was queued before Close; later writes see ErrClosed.
			for {
				select {
				case op := <-s.ops:
					s.commit([]*writeOp{op})
				default:
					if s.logged > 0 {
						s.foldAlone(batch)
					}
					return
				}
			}
		}
	}
}

// foldAlone folds the count log in a transaction of its own (which the writes queued meanwhile
// join). A fold that fails leaves the log as it was, for the next one: reads count what it
// holds either way.
func (s *Store) foldAlone(batch []*writeOp) []*writeOp {
	op := &writeOp{fn: func(tx *sql.Tx) error { return s.fold(tx, nil) }, done: make(chan error, 1), fold: true}
	batch = s.commit(append(batch[:0], op))
	<-op.done
	return batch
}

// errQueuedBehindLock is the error of a write failed, without being tried, because the batch
// before it found the database locked by another connection.
var errQueuedBehindLock = errors.New("sqlite: not tried: the database was locked by another connection when this write was queued")

// failQueuedIfLocked fails every write queued now when the batch just run found the database
// locked past the busy timeout: each would otherwise wait the whole timeout again, one after
// the other (5 s each by default), and the lock is likely still held. They fail together, at
// once, with store.ErrUnavailable, which the HTTP layer answers 503 with Retry-After.
func (s *Store) failQueuedIfLocked(batch []*writeOp) {
	if len(batch) == 0 || !s.lastBatchLocked {
		return
	}
	for {
		select {
		case op := <-s.ops:
			op.done <- fmt.Errorf("%w: %w", store.ErrUnavailable, errQueuedBehindLock)
		default:
			return
		}
	}
}

// errIsolate asks commit to run the batch again with each write in its own savepoint.
var errIsolate = errors.New("sqlite: a write of the batch failed")

// commit runs a batch in one transaction and tells every op its outcome after the commit. It
// returns the batch, which grows by the writes queued while it runs.
//
// Writes rarely fail, so the batch first runs without savepoints. If a write fails, its
// partial changes cannot be undone alone: the transaction is rolled back and the batch runs
// again with each write in its own savepoint, so the failed ones roll back alone and their
// batch-mates commit. A batch of one write needs no second run: rolling back the transaction
// undoes exactly that write.
func (s *Store) commit(batch []*writeOp) []*writeOp {
	start := time.Now()
	batch, results, err := s.runBatch(batch, false)
	if errors.Is(err, errIsolate) {
		batch, results, err = s.runBatch(batch, true)
	}
	s.lastBatchLocked = errors.Is(err, store.ErrUnavailable)
	if s.onCommit != nil && err == nil {
		n := len(batch)
		for _, op := range batch {
			if op.fold {
				n--
			}
		}
		if n > 0 {
			s.onCommit(n, time.Since(start))
		}
	}
	for i, op := range batch {
		if results[i] == nil {
			results[i] = err
		}
		op.done <- results[i]
	}
	return batch
}

// runBatch runs the batch's writes in one transaction and commits it, each write in its own
// savepoint if isolate is set. It returns the batch, each write's own error, and an error of
// the batch (none of its writes committed) or nil.
//
// Until the batch is full, a write queued while the batch runs joins it (except in a second
// run, which keeps the writes of the first): it then waits for this commit rather than for the
// whole of the next batch, and shares this commit's pages of counters and rollups.
func (s *Store) runBatch(batch []*writeOp, isolate bool) ([]*writeOp, []error, error) {
	ctx := context.Background()
	results := s.results[:0]
	defer func() { s.results = results[:0] }() // keeps the grown slice for the next batch
	s.pending.reset()
	s.txLogged = s.logged
	tx, err := s.wdb.BeginTx(ctx, nil)
	if err != nil {
		return batch, make([]error, len(batch)), mapErr(err, "sqlite: begin")
	}
	for i := 0; ; i++ {
		if i == len(batch) {
			if isolate || !s.take(&batch) {
				break
			}
		}
		op := batch[i]
		if isolate {
			if _, err := tx.Exec("SAVEPOINT op"); err != nil {
				results = append(results, fmt.Errorf("sqlite: savepoint: %w", err))
				continue
			}
		}
		s.op.reset()
		err := runOp(op.fn, tx)
		results = append(results, err)
		switch {
		case err == nil:
			s.pending.merge(s.op)
		case !isolate:
			_ = tx.Rollback()
			if len(batch) == 1 {
				return batch, results, nil
			}
			return batch, make([]error, len(batch)), errIsolate
		default:
			if _, err := tx.Exec("ROLLBACK TO op"); err != nil {
				// The transaction is in an unknown state: fail the whole batch.
				_ = tx.Rollback()
				return batch, make([]error, len(batch)), fmt.Errorf("sqlite: rollback to savepoint: %w", err)
			}
		}
		if isolate {
			if _, err := tx.Exec("RELEASE op"); err != nil {
				_ = tx.Rollback()
				return batch, make([]error, len(batch)), fmt.Errorf("sqlite: release savepoint: %w", err)
			}
		}
	}
	if err := s.writeDeltas(tx, s.pending); err != nil {
		_ = tx.Rollback()
		return batch, make([]error, len(batch)), err // nothing was written
	}
	if err := tx.Commit(); err != nil {
		return batch, make([]error, len(batch)), mapErr(err, "sqlite: commit")
	}
	s.logged = s.txLogged
	return batch, results, nil
}

// take moves the writes queued now into the batch, as far as it has room, and reports whether
// it took any.
func (s *Store) take(batch *[]*writeOp) bool {
	n := len(*batch)
	for len(*batch) < s.maxBatch {
		select {
		case op := <-s.ops:
			*batch = append(*batch, op)
		default:
			return len(*batch) > n
		}
	}
	return len(*batch) > n
}

// runOp runs one write, turning a panic into that write's error: a panic must not end the
// writer goroutine, or every later write would wait forever.
func runOp(fn func(*sql.Tx) error, tx *sql.Tx) (err error) {
	defer func() {
		if v := recover(); v != nil {
			err = fmt.Errorf("sqlite: write panicked: %v", v)
		}
	}()
	return fn(tx)
}
