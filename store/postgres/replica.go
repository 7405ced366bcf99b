package postgres

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// The protected API's lists, summaries and stats may read from a streaming replica
// (Options.ReplicaURL; docs/scaling.md#with-a-read-replica), as long as it has replayed what the read must
// see. Every replicaTick the store reads the primary's WAL position and then the replica's
// replay position; the latest moment whose primary position the replica has replayed is safe:
// everything committed before it is on the replica. A read about a survey goes to the replica
// only when this instance's last write to that survey (and its last other change of any kind)
// was before safe, and safe is within MaxLag of now, which also bounds how stale another
// instance's writes may look. A replica that fails a read, or cannot be read, is left alone until
// it answers again; the read is made on the primary meanwhile.

// replicaTick is how often the replica's replay is measured.
const replicaTick = 100 * time.Millisecond

// anyChange is the write mark of changes not tied to one survey's responses (surveys, erasure,
// imports): a read waits for the replica to replay the last of them too.
const anyChange = "*"

// replica is the replica's pool and what the store knows of its replay.
type replica struct {
	pool, primary *pgxpool.Pool
	maxLag        time.Duration
	reads         atomic.Int64 // reads the replica served

	mu      sync.Mutex
	samples []walSample          // the primary's positions, oldest first, for maxLag back
	safe    time.Time            // zero while the replica is down or not known to be replaying
	writes  map[string]time.Time // by survey id or anyChange: this instance's last write, after it returned

	stop chan struct{}
	done chan struct{}
}

// walSample is the primary's WAL position read after at.
type walSample struct {
	at  time.Time
	lsn int64
}

func newReplica(ctx context.Context, url string, primary *pgxpool.Pool, maxLag time.Duration) (*replica, error) {
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		return nil, fmt.Errorf("postgres: the replica's URL: %w", err)
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg) // connects lazily: a replica down at start is bypassed
	if err != nil {
		return nil, fmt.Errorf("postgres: the replica: %w", err)
	}
	r := &replica{pool: pool, primary: primary, maxLag: maxLag, writes: map[string]time.Time{},
		stop: make(chan struct{}), done: make(chan struct{})}
	go r.watch()
	return r, nil
}

// watch measures the replica's replay every replicaTick until close.
func (r *replica) watch() {
	defer close(r.done)
	t := time.NewTicker(replicaTick)
	defer t.Stop()
	for {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		r.measure(ctx)
		cancel()
		select {
		case <-r.stop:
			return
		case <-t.C:
		}
	}
}

// measure reads the primary's position, then the replica's replay, and moves safe forward.
func (r *replica) measure(ctx context.Context) {
	at := time.Now()
	var lsn, replayed int64
	err := r.primary.QueryRow(ctx, `SELECT pg_current_wal_lsn() - '0/0'`).Scan(&lsn)
	if err == nil {
		// NULL on a server that is not a standby: not a replica to read from.
		err = r.pool.QueryRow(ctx, `SELECT pg_last_wal_replay_lsn() - '0/0'`).Scan(&replayed)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if err == nil {
		r.samples = append(r.samples, walSample{at, lsn})
	}
	keep := 0 // samples older than maxLag are no use: safe that old bypasses the replica anyway
	for keep < len(r.samples)-1 && at.Sub(r.samples[keep].at) > r.maxLag {
		keep++
	}
	r.samples = r.samples[keep:]
	if err != nil {
		r.safe = time.Time{}
		return
	}
	for _, s := range r.samples {
		if s.lsn <= replayed && s.at.After(r.safe) {
			r.safe = s.at
		}
	}
	for k, w := range r.writes {
		if w.Before(r.safe) {
			delete(r.writes, k)
		}
	}
}

// wrote marks a write of this instance, once it has returned.
func (r *replica) wrote(key string) {
	if r == nil {
		return
	}
	now := time.Now()
	r.mu.Lock()
	r.writes[key] = now
	r.mu.Unlock()
}

// pick returns the replica's pool when a read about the survey (or, for "", about no one
// survey) may go there, else nil.
func (r *replica) pick(surveyID string) *pgxpool.Pool {
	if r == nil {
		return nil
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.safe.IsZero() || time.Since(r.safe) > r.maxLag {
		return nil
	}
	for _, k := range []string{anyChange, surveyID} {
		if w, ok := r.writes[k]; ok && !w.Before(r.safe) {
			return nil
		}
	}
	return r.pool
}

// down takes the replica out of reads until it is measured again.
func (r *replica) down() {
	r.mu.Lock()
	r.safe = time.Time{}
	r.mu.Unlock()
}

func (r *replica) close() {
	if r == nil {
		return
	}
	close(r.stop)
	<-r.done
	r.pool.Close()
}

// read runs fn on the replica when the read about surveyID may go there, and on the primary
// otherwise, or when the replica fails it for want of a connection.
func (s *Store) read(surveyID string, fn func(q *pgxpool.Pool) error) error {
	if q := s.replica.pick(surveyID); q != nil {
		err := fn(q)
		if err == nil || errors.Is(err, pgx.ErrNoRows) {
			s.replica.reads.Add(1)
			return err
		}
		// Unreachable, or a query a standby cancelled (a conflict with its replay): the primary
		// answers, and the replica waits for its next measure.
		s.replica.down()
	}
	return fn(s.pool)
}
