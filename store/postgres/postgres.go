// Package postgres is a store.Store on PostgreSQL, with github.com/jackc/pgx/v5, for apps that
// run several instances on one database. It passes the conformance suite of store/storetest.
//
// Responses and events are committed in batches (group commit): a writer takes the writes
// waiting when it is free and runs them in one transaction, summing what they add to counters
// and rollups, so one commit and one change of each shared row serve many writes. Counters are
// spread over a few rows per survey, so that concurrent transactions do not queue on one row;
// a respondent's first view, dismissal and response are counted once by an insert into a
// table of who had one, which PostgreSQL serializes. Webhook deliveries are claimed with FOR UPDATE SKIP LOCKED, so
// instances sharing the database never claim the same one. The schema is embedded SQL,
// applied at Open under an advisory lock, so instances starting together do not race.
package postgres

import (
	"cmp"
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/svc-feedback/svc/internal/cuid2"
	"github.com/svc-feedback/svc/store"
	"github.com/svc-feedback/svc/store/internal/personcache"
)

var _ store.Store = (*Store)(nil)

// Options tune the Store. The zero value is ready to use.
type Options struct {
	// MaxConns bounds the connection pool; zero means pgxpool's default (the larger of 4 and
	// the number of CPUs).
	MaxConns int32
	// Writers is how many transactions of responses and events run at once, each holding the
	// writes that arrived while the one before ran; zero means 1, which batches best.
	// More help when the database has cores to spare and far more writes arrive than one
	// writer commits (about 5,000 responses a second on this project's two-core machine).
	Writers int
	// MaxBatch caps how many writes share one transaction; zero means 64.
	MaxBatch int
	// ListenURL, when set, is a direct connection to the same database (not through a pooler)
	// on which the store LISTENs for other instances' changes and deliveries. Without it the
	// store listens on the main URL, unless that goes through a connection pooler (see Open),
	// where a listening session cannot be kept: it then relies on polling, which finds new
	// deliveries and changes within a second.
	ListenURL string
	// ReplicaURL, when set, is a streaming replica of the database, from which the protected
	// API's lists, summaries and stats read while it has replayed what they must see (see
	// replica.go); every other read, and any read the replica cannot serve, goes to the primary.
	ReplicaURL string
	// ReplicaMaxLag is how far behind the primary the replica may be and still be read; zero
	// means a second.
	ReplicaMaxLag time.Duration
	// OnCommit, when set, is called after each transaction of responses and events with how
	// many writes it held and how long it took, for metrics (the ObserveCommit method of
	// package metrics' Metrics). It must return quickly: the writer's next batch waits for it.
	OnCommit func(writes int, took time.Duration)

	// foldAt and foldEvery let tests drive folds of the count log: zero means foldAt and
	// foldEvery, a negative foldEvery no fold but foldAt's. foldHook is Store.foldHook: it
	// is called in a fold's transaction before its writes to the rollups.
	foldAt    int
	foldEvery time.Duration
	foldHook  func()
}

// Store is a store.Store on a PostgreSQL database. It is safe for concurrent use, and several
// processes may share the database.
type Store struct {
	pool  *pgxpool.Pool
	ids   *cuid2.Generator
	cache *readCache
	// persons keeps what targeting read of people, exact across instances (see persons.go):
	// a read waits for sync's marker before it is served from memory.
	persons *personcache.Cache
	sync    *syncer
	closed  atomic.Bool
	// stopWatching ends the watch of other instances' changes; watching is done when it has.
	stopWatching context.CancelFunc
	watching     chan struct{}
	// listenConfig is the connection LISTEN uses; nil when there is none (polling only).
	listenConfig *pgx.ConnConfig
	// replica routes reads to Options.ReplicaURL; nil without one.
	replica *replica
	// The writers of responses and events (see writer.go): ops hands them writes,
	// stopWriters stops them.
	ops         chan *writeOp
	queued      atomic.Int64 // writes waiting for a writer to take them
	stopWriters chan struct{}
	writers     sync.WaitGroup
	maxBatch    int
	onCommit    func(writes int, took time.Duration)
	// The folder of the count log (see fold.go): unfolded counts the changes logged since its
	// last fold, foldNow wakes it, stopFolder stops it.
	unfolded   atomic.Int64
	foldAt     int
	foldNow    chan struct{}
	stopFolder chan struct{}
	folderDone chan struct{}
	foldHook   func()
}

// Open connects to the database at url (postgres://... or postgresql://...), applies pending
// migrations under an advisory lock, and returns the Store. Close it when done. A database
// written by a newer version of svc is refused.
func Open(ctx context.Context, url string, opts *Options) (*Store, error) {
	var o Options
	if opts != nil {
		o = *opts
	}
	pool, pooled, err := connect(ctx, url, o.MaxConns)
	if err != nil {
		return nil, err
	}
	if err := migrate(ctx, pool); err != nil {
		pool.Close()
		return nil, fmt.Errorf("postgres: migrate: %w", err)
	}
	s := &Store{pool: pool, ids: cuid2.NewGenerator(), cache: newReadCache(), watching: make(chan struct{}),
		persons: personcache.New(personsTTL)}
	s.sync = newSyncer(func(ctx context.Context, channel, payload string) error {
		_, err := pool.Exec(ctx, `SELECT pg_notify($1, $2)`, channel, payload)
		return err
	})
	if s.listenConfig, err = listenConfig(o.ListenURL, pool, pooled); err != nil {
		pool.Close()
		return nil, err
	}
	if o.ReplicaURL != "" {
		if s.replica, err = newReplica(ctx, o.ReplicaURL, pool, cmp.Or(o.ReplicaMaxLag, time.Second)); err != nil {
			pool.Close()
			return nil, err
		}
	}
	watchCtx, stop := context.WithCancel(context.Background())
	s.stopWatching = stop
	s.startWriters(opts)
	s.startFolder(opts)
	go func() {
		defer close(s.watching)
		s.watchChanges(watchCtx)
	}()
	return s, nil
}

// Close closes the pool. Calls after Close fail with store.ErrClosed.
func (s *Store) Close() error {
	if s.closed.CompareAndSwap(false, true) {
		close(s.stopWriters)
		s.writers.Wait()
		close(s.stopFolder)
		<-s.folderDone
		s.stopWatching()
		<-s.watching
		s.replica.close()
		s.pool.Close()
	}
	return nil
}

// Ping implements store.Pinger.
func (s *Store) Ping(ctx context.Context) error {
	if err := s.checkOpen("ping"); err != nil {
		return err
	}
	return s.mapErr(s.pool.Ping(ctx), "ping")
}

// tx runs fn in a transaction, committed when fn returns nil.
func (s *Store) tx(ctx context.Context, what string, fn func(tx pgx.Tx) error) error {
	if err := s.checkOpen(what); err != nil {
		return err
	}
	err := pgx.BeginFunc(ctx, s.pool, fn)
	s.replica.wrote(anyChange)
	return s.mapErr(err, what)
}

// Pool returns the Store's connection pool, for an app that keeps tables of its own in the same
// database, and for benchmarks. Do not close it: Close does.
func (s *Store) Pool() *pgxpool.Pool { return s.pool }

var _ store.PoolReporter = (*Store)(nil)

// PoolStats implements store.PoolReporter: the pool's connections, the writers' included, and
// the writes waiting for a writer.
func (s *Store) PoolStats() store.PoolStats {
	st := s.pool.Stat()
	return store.PoolStats{MaxConns: int(st.MaxConns()), InUse: int(st.AcquiredConns()), Idle: int(st.IdleConns()),
		Waits: st.EmptyAcquireCount(), WaitTime: st.EmptyAcquireWaitTime(), QueuedWrites: int(s.queued.Load())}
}
