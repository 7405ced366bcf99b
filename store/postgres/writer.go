package postgres

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/svc-feedback/svc/store"
)

// Writes of responses and events are committed in batches (group commit): a writer goroutine
// takes the writes waiting when it is free and runs them in one transaction. Under load, one
// commit (one WAL flush) then serves many writes, and the counters, histories and rollup rows
// they share (same survey, same minute, same scores) change once per batch rather than once per
// write, which is what limited PostgreSQL's throughput. A write that arrives when a writer is
// idle runs at once, alone, so batching adds no wait when svc is quiet.
const (
	// maxBatch is Options.MaxBatch's default.
	maxBatch = 64
	// batchedWriteBytes is the size above which a response's write runs on its own, on the
	// caller's goroutine: a batch holds its writes' bodies in memory until it commits, and a
	// bug report's screenshot would make every batch-mate wait for its upload to the database.
	batchedWriteBytes = 64 << 10
	// batchTimeout bounds one batch's transaction, which runs on no caller's context.
	batchTimeout = 30 * time.Second
)

// writeOp is one PutResponse or RecordEvent call and, once run, its outcome.
type writeOp struct {
	event *store.Event // an event's write; a response's (w) when nil

	w                 store.ResponseWrite
	sv                store.Survey
	data, meta, texts []byte
	at                int64

	resp    store.Response
	created bool
	old     *store.Response // the stored response, when the id was taken
	// oldGen and oldBuckets are the stored response's segment mark (store.EncodeMark).
	oldGen     int64
	oldBuckets string
	err        error
	done       chan struct{}
}

// startWriters starts the writer goroutines that opts ask for; Close stops them.
func (s *Store) startWriters(opts *Options) {
	s.ops = make(chan *writeOp)
	s.stopWriters = make(chan struct{})
	s.maxBatch = maxBatch
	writers := 1
	if opts != nil {
		if opts.MaxBatch > 0 {
			s.maxBatch = opts.MaxBatch
		}
		if opts.Writers > 0 {
			writers = opts.Writers
		}
		s.onCommit = opts.OnCommit
	}
	for range writers {
		s.writers.Add(1)
		go s.writer()
	}
}

// write runs op: in a writer's next batch, or alone if it is a large response. Once a writer has
// taken op, write waits for its outcome rather than for ctx, so that a caller is never told of a
// failure for a write that is then committed.
func (s *Store) write(ctx context.Context, op *writeOp) {
	defer s.replica.wrote(op.surveyID())
	if op.event == nil && op.size() > batchedWriteBytes {
		if err := s.runOps(ctx, []*writeOp{op}); err != nil {
			op.err = err
		}
		return
	}
	op.done = make(chan struct{})
	s.queued.Add(1)
	select {
	case s.ops <- op:
		s.queued.Add(-1)
		<-op.done
	case <-ctx.Done():
		s.queued.Add(-1)
		op.err = fmt.Errorf("%s: %w", op.what(), ctx.Err())
	case <-s.stopWriters:
		s.queued.Add(-1)
		op.err = fmt.Errorf("%s: %w", op.what(), store.ErrClosed)
	}
}

// surveyID is the survey the write is of.
func (op *writeOp) surveyID() string {
	if op.event != nil {
		return op.event.SurveyID
	}
	return op.w.SurveyID
}

// size is what a response's write holds in memory.
func (op *writeOp) size() int {
	n := len(op.data) + len(op.meta)
	if op.w.Telemetry != nil {
		n += len(*op.w.Telemetry)
	}
	return n
}

// what names the write, for errors.
func (op *writeOp) what() string {
	if op.event != nil {
		return "record event"
	}
	return "put response " + op.w.ID
}

// sameResponse reports whether two writes are of one response.
func (op *writeOp) sameResponse(o *writeOp) bool {
	return op.event == nil && o.event == nil && op.w.SurveyID == o.w.SurveyID && op.w.ID == o.w.ID
}

// writer runs batches until Close: it takes a write, adds the writes waiting now, and runs them.
// A write for a response already in the batch waits for the next, so that a batch writes each
// response once.
func (s *Store) writer() {
	defer s.writers.Done()
	batch := make([]*writeOp, 0, s.maxBatch)
	var next *writeOp
	for {
		if next == nil {
			select {
			case next = <-s.ops:
			case <-s.stopWriters:
				return
			}
		}
		batch = append(batch[:0], next)
		next = s.takeOps(&batch)
		s.runBatch(batch)
		for _, op := range batch {
			close(op.done)
		}
	}
}

// takeOps moves the writes waiting now into the batch, as far as it has room, up to one for a
// response the batch already writes, which it returns.
func (s *Store) takeOps(batch *[]*writeOp) *writeOp {
	for len(*batch) < s.maxBatch {
		select {
		case op := <-s.ops:
			if slices.ContainsFunc(*batch, op.sameResponse) {
				return op
			}
			*batch = append(*batch, op)
		default:
			return nil
		}
	}
	return nil
}

// runBatch runs a batch in one transaction. When PostgreSQL refuses it (a write it rejects, or
// a deadlock with another instance), nothing of it was committed, and each write runs again in
// a transaction of its own, so that only a failing write fails. When the database cannot be
// reached, or the batch times out, every write fails at once: running them one by one would
// make the last wait for each timeout before it.
func (s *Store) runBatch(batch []*writeOp) {
	run := func(ops []*writeOp) error {
		ctx, cancel := context.WithTimeout(context.Background(), batchTimeout)
		defer cancel()
		return s.runOps(ctx, ops)
	}
	err := run(batch)
	switch {
	case err == nil:
	case len(batch) == 1 || unreachable(err) || errors.Is(err, store.ErrClosed):
		for _, op := range batch {
			op.err = err
		}
	default:
		for _, op := range batch {
			if err := run([]*writeOp{op}); err != nil {
				op.err = err
			}
		}
	}
}

// runOps runs writes in one transaction and tells Options.OnCommit once it has committed.
func (s *Store) runOps(ctx context.Context, ops []*writeOp) error {
	start := time.Now()
	err := s.transact(ctx, ops)
	if err == nil && s.onCommit != nil {
		s.onCommit(len(ops), time.Since(start))
	}
	return err
}

// transact runs writes in one transaction of three round trips at most: BEGIN with the
// inserts, which tell which responses are new; the existing ones locked, if any; then
// everything that follows from the writes, and the COMMIT. Each write's own failures (another
// respondent's id, a response deleted meanwhile) are its error and leave the others be; an
// error returned fails them all, and nothing was committed.
func (s *Store) transact(ctx context.Context, ops []*writeOp) error {
	slices.SortFunc(ops, func(a, b *writeOp) int { // one lock order for every transaction
		if c := strings.Compare(a.w.SurveyID, b.w.SurveyID); c != 0 {
			return c
		}
		return strings.Compare(a.w.ID, b.w.ID)
	})
	what := "write a batch"
	if len(ops) == 1 {
		what = ops[0].what()
	}
	return s.pipelined(ctx, what, func(conn querier) error {
		for _, op := range ops {
			op.resp, op.created, op.old, op.err = store.Response{}, false, nil, nil
		}
		sb, err := insertWrites(ctx, conn, ops)
		if err != nil {
			return err
		}
		if err := s.lockTaken(ctx, conn, ops); err != nil {
			return err
		}
		var b pgx.Batch
		s.queueFollowUps(&b, rowOf(conn), sb, ops)
		b.Queue(`COMMIT`)
		return conn.SendBatch(ctx, &b).Close()
	})
}

// queueFollowUps queues, for every write that has no error of its own, what follows from it
// (for a response: its update when the id was taken, its webhook delivery), and the counters,
// histories and count changes of them all; and settles each write's outcome, which holds once the
// batch commits.
func (s *Store) queueFollowUps(b *pgx.Batch, row int, sb *segBatch, ops []*writeOp) {
	f := newFollowUps()
	notify := false
	var people []string // whose targeting history changed: a view, a dismissal, a first response
	for _, op := range ops {
		switch {
		case op.err != nil:
		case op.event != nil:
			f.event(*op.event)
			people = append(people, op.event.Respondent)
		case op.created:
			notify = s.queueCreated(b, f, sb, op) || notify
			people = append(people, op.w.Respondent)
		default:
			s.queueUpdated(b, f, sb, op)
		}
	}
	if sb != nil {
		sb.queueAdded(b)
	}
	s.logged(f.queue(b, row))
	if notify {
		b.Queue(`SELECT pg_notify($1, '')`, deliveriesChannel)
	}
	slices.Sort(people)
	queuePersons(b, slices.Compact(people))
}
