// Package sqlite is the SQLite implementation of store.Store, on github.com/mattn/go-sqlite3
// (cgo).
//
// One goroutine owns the only write connection and commits concurrent writes together in a
// shared transaction (group commit). A failing write is rolled back alone and its batch-mates
// still commit (the batch runs again with a savepoint per write), and every caller gets its own
// result only after the commit is durable. Reads use a pool of read-only connections, which WAL lets
// run beside the writer.
package sqlite

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/svc-feedback/svc/internal/cuid2"
	"github.com/svc-feedback/svc/store"
)

var _ store.Store = (*Store)(nil)

// ErrNeedsCgo is returned by Open in a program built without cgo (CGO_ENABLED=0, or a
// cross-compilation without a C compiler): the SQLite driver is C code.
var ErrNeedsCgo = errors.New("sqlite: this program was built without cgo (CGO_ENABLED=0); " +
	"store/sqlite needs cgo and a C compiler: build with CGO_ENABLED=1")

//go:embed migrations/*.sql
var migrations embed.FS

// Synchronous is SQLite's synchronous setting for the database.
type Synchronous string

// Durability levels. Full survives power loss and is the default; Normal survives a crash of
// the process but may lose the last commits on power loss, for more write throughput.
const (
	SynchronousFull   Synchronous = "FULL"
	SynchronousNormal Synchronous = "NORMAL"
)

// Options tune the Store. The zero value is ready to use.
type Options struct {
	// Synchronous is the durability level; empty means SynchronousFull.
	Synchronous Synchronous
	// ReadConns is the size of the read pool; zero means four per CPU, at least eight.
	ReadConns int
	// BusyTimeout is how long a connection waits for a lock held by another process;
	// zero means five seconds.
	BusyTimeout time.Duration
	// MaxBatch caps how many writes share one transaction; zero means 256.
	MaxBatch int
	// CacheTTL is how long keys and surveys read are served from memory; zero means one
	// second, negative disables the cache. Writes through this Store update it at once; the
	// TTL bounds how long a change made by another process takes to show.
	CacheTTL time.Duration

	// checkpointEvery and walRestartFrames let tests drive checkpoints themselves: zero means
	// checkpointInterval and walRestartFrames, a negative checkpointEvery no checkpointer.
	checkpointEvery  time.Duration
	walRestartFrames int
	// driverName is the database/sql driver the connections are opened with; empty means
	// mattn/go-sqlite3's "sqlite3". Tests give one that watches the connections.
	driverName string
}

// Store is a store.Store on one SQLite database file. It is safe for concurrent use.
type Store struct {
	wdb *sql.DB // one connection, used only by the writer goroutine
	rdb *sql.DB // read-only pool
	cdb *sql.DB // one connection, used only by the checkpointer goroutine
	// dbFile is the database file, which the checkpointer syncs.
	dbFile *os.File

	checkpointDone chan struct{}
	// finishCheckpoint asks the writer to finish a checkpoint between two batches: see
	// checkpoint.
	finishCheckpoint atomic.Bool
	walRestartFrames int

	ops        chan *writeOp
	closing    chan struct{}
	writerDone chan struct{}
	closeOnce  sync.Once
	maxBatch   int

	// sendMu orders sends to ops before Close: writes hold it for reading while they queue,
	// Close takes it to set closed, so no write is queued after the writer's final drain.
	sendMu sync.RWMutex
	closed bool
	// isClosed is set first thing in Close, for the reads, which do not take sendMu.
	isClosed atomic.Bool

	ids   *cuid2.Generator
	cache *readCache
	// op and pending are the counter changes of the running write and of the batch's
	// successful writes (see deltas.go); only the writer goroutine touches them.
	op, pending *deltas
	// opPool recycles write ops with their reply channels: two allocations fewer per write.
	opPool sync.Pool
	// results holds the outcomes of the writer's batch, kept from batch to batch: made for
	// each batch with room for a full one, it was a 4 KiB allocation per commit.
	results []error
}

// Open opens (creating if needed) the database at path, applies pending migrations, and starts
// the writer. Close it when done.
func Open(ctx context.Context, path string, opts *Options) (*Store, error) {
	var o Options
	if opts != nil {
		o = *opts
	}
	if o.Synchronous == "" {
		o.Synchronous = SynchronousFull
	}
	if o.Synchronous != SynchronousFull && o.Synchronous != SynchronousNormal {
		return nil, fmt.Errorf("sqlite: unknown synchronous level %q", o.Synchronous)
	}
	if o.ReadConns <= 0 {
		o.ReadConns = max(8, 4*runtime.GOMAXPROCS(0))
	}
	if o.BusyTimeout <= 0 {
		o.BusyTimeout = 5 * time.Second
	}
	if o.MaxBatch <= 0 {
		o.MaxBatch = 256
	}
	if o.CacheTTL == 0 {
		o.CacheTTL = time.Second
	}
	if o.walRestartFrames <= 0 {
		o.walRestartFrames = walRestartFrames
	}
	if o.checkpointEvery == 0 {
		o.checkpointEvery = checkpointInterval
	}
	if o.driverName == "" {
		o.driverName = "sqlite3"
	}
	if !cgoEnabled {
		return nil, ErrNeedsCgo
	}
	if path == "" || path == ":memory:" || strings.HasPrefix(path, "file:") {
		return nil, errors.New("sqlite: give a file path; in-memory databases cannot be shared by the read pool")
	}
	common := url.Values{}
	common.Set("_busy_timeout", strconv.FormatInt(o.BusyTimeout.Milliseconds(), 10))
	common.Set("_foreign_keys", "on")
	// Each connection keeps its recently used statements prepared: preparing parses and plans
	// a query, which costs more than running most of ours (a page of responses, or a write).
	common.Set("_stmt_cache_size", strconv.Itoa(stmtCacheSize))
	// database/sql never uses a connection from two goroutines at once, so SQLite's own lock
	// around every call on a connection (serialized mode) only costs time: about 5% of a page
	// of responses, which makes a dozen calls per row.
	common.Set("_mutex", "no")

	w := url.Values{}
	for k, v := range common {
		w[k] = v
	}
	w.Set("_journal_mode", "WAL")
	w.Set("_synchronous", string(o.Synchronous))
	w.Set("_txlock", "immediate")
	// Random response ids insert all over the primary-key index: a writer cache of 32 MiB
	// (SQLite's default is about 2 MiB) keeps its pages in memory.
	w.Set("_cache_size", "-32768")
	wdb, err := sql.Open(o.driverName, "file:"+escapePath(path)+"?"+w.Encode())
	if err != nil {
		return nil, fmt.Errorf("sqlite: open %s: %w", path, err)
	}
	wdb.SetMaxOpenConns(1)
	wdb.SetMaxIdleConns(1)
	wdb.SetConnMaxLifetime(0)
	wdb.SetConnMaxIdleTime(0)
	if err := migrate(ctx, wdb); err != nil {
		wdb.Close()
		return nil, fmt.Errorf("sqlite: migrate %s: %w", path, err)
	}
	// The writer runs no automatic checkpoints: one would copy WAL pages into the database
	// and fsync it inside a commit, stalling every write waiting behind it. The checkpointer
	// goroutine runs them on a connection of its own instead, and the writer only finishes one
	// once the WAL has grown long (see checkpoint). When the WAL starts over after a burst of
	// writes, it is cut back to twice that length, so the disk space the burst took is given
	// back.
	if _, err := wdb.ExecContext(ctx, "PRAGMA wal_autocheckpoint = 0; PRAGMA journal_size_limit = "+
		strconv.Itoa(2*o.walRestartFrames*(4096+24))); err != nil {
		wdb.Close()
		return nil, fmt.Errorf("sqlite: %s: %w", path, err)
	}
	cdb, err := sql.Open(o.driverName, "file:"+escapePath(path)+"?"+common.Encode())
	if err != nil {
		wdb.Close()
		return nil, fmt.Errorf("sqlite: open %s for checkpoints: %w", path, err)
	}
	cdb.SetMaxOpenConns(1)

	r := url.Values{}
	for k, v := range common {
		r[k] = v
	}
	r.Set("mode", "ro")
	rdb, err := sql.Open(o.driverName, "file:"+escapePath(path)+"?"+r.Encode())
	if err != nil {
		wdb.Close()
		cdb.Close()
		return nil, fmt.Errorf("sqlite: open %s for reading: %w", path, err)
	}
	rdb.SetMaxOpenConns(o.ReadConns)
	rdb.SetMaxIdleConns(o.ReadConns)
	if err := rdb.PingContext(ctx); err != nil {
		wdb.Close()
		rdb.Close()
		cdb.Close()
		return nil, fmt.Errorf("sqlite: open %s for reading: %w", path, err)
	}
	// The checkpointer syncs the database file itself (see checkpoint). It never writes to
	// it, but some systems (Windows) sync only a file opened for writing.
	dbFile, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		wdb.Close()
		rdb.Close()
		cdb.Close()
		return nil, fmt.Errorf("sqlite: open %s for syncing: %w", path, err)
	}

	s := &Store{
		wdb: wdb, rdb: rdb, cdb: cdb, dbFile: dbFile, checkpointDone: make(chan struct{}), walRestartFrames: o.walRestartFrames,
		ops:        make(chan *writeOp, o.MaxBatch),
		closing:    make(chan struct{}),
		writerDone: make(chan struct{}),
		maxBatch:   o.MaxBatch,
		ids:        cuid2.NewGenerator(),
		cache:      newReadCache(o.CacheTTL),
		op:         newDeltas(),
		pending:    newDeltas(),
	}
	s.opPool.New = func() any { return &writeOp{done: make(chan error, 1)} }
	go s.writer()
	go s.checkpointer(o.checkpointEvery)
	return s, nil
}

// escapePath keeps characters that mean something in a URI (such as ? and #) in the file name.
func escapePath(p string) string {
	return strings.NewReplacer("%", "%25", "?", "%3f", "#", "%23").Replace(p)
}

// Close stops the writer after the writes already queued, and closes the database.
func (s *Store) Close() error {
	var err error
	s.closeOnce.Do(func() {
		s.isClosed.Store(true)
		s.sendMu.Lock()
		s.closed = true
		s.sendMu.Unlock()
		close(s.closing)
		<-s.writerDone
		<-s.checkpointDone
		// Fold the WAL into the database so the file stands alone after Close.
		_, cerr := s.wdb.Exec("PRAGMA wal_checkpoint(TRUNCATE)")
		err = errors.Join(cerr, s.wdb.Close(), s.rdb.Close(), s.cdb.Close(), s.dbFile.Close())
	})
	return err
}

func migrate(ctx context.Context, db *sql.DB) error {
	if _, err := db.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
		version INTEGER PRIMARY KEY, applied_at INTEGER NOT NULL)`); err != nil {
		return err
	}
	names, err := fs.Glob(migrations, "migrations/*.sql")
	if err != nil {
		return err
	}
	sort.Strings(names)
	for _, name := range names {
		base := strings.TrimPrefix(name, "migrations/")
		version, err := strconv.Atoi(strings.SplitN(base, "_", 2)[0])
		if err != nil {
			return fmt.Errorf("migration %s: name must start with a number", name)
		}
		if err := applyMigration(ctx, db, name, version); err != nil {
			return fmt.Errorf("migration %s: %w", name, err)
		}
	}
	return nil
}

func applyMigration(ctx context.Context, db *sql.DB, name string, version int) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var n int
	if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM schema_migrations WHERE version = ?`, version).Scan(&n); err != nil {
		return err
	}
	if n > 0 {
		return nil
	}
	body, err := migrations.ReadFile(name)
	if err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, string(body)); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)`,
		version, time.Now().UnixMilli()); err != nil {
		return err
	}
	return tx.Commit()
}

// stmtCacheSize is how many prepared statements each connection keeps. The store runs a few
// dozen distinct queries (list filters combine into a handful of variants each).
//
// A kept statement is only reused if SQLite does not compile it again, and SQLite does so
// on every run of a statement in which its query planner has looked at a parameter's value:
// a bare parameter compared with = to a column (SQLite 3.54 marks it while costing the plans
// that do not use it), or a LIMIT. The driver clears a statement's parameters each time it
// puts it back in the cache, and SQLite takes that for a change of the values the plan was
// made for. Recompiling was about half the time of an empty page of responses. The queries
// therefore write such parameters as +? (unary plus, which changes no value): the planner
// does not look into an expression, and an index is used for it just the same. A statement
// that needs a plan made for its values could not be kept anyway. TestStatementsCompileOnce
// checks the store's operations.
const stmtCacheSize = 64

// checkpointInterval is how often the checkpointer copies the WAL into the database.
const checkpointInterval = 500 * time.Millisecond

// walRestartFrames is the length of the WAL (in frames: 512 MiB of 4 KiB pages) from which the
// checkpointer asks the writer to finish a checkpoint, so that the WAL starts over. Each start
// over syncs the pages copied since the last one while the writes go on; at 128 MiB the
// syncs came four times as often, and over 45 s of the PUT load p99 was 24-27 ms against
// 22-23 ms at 512 MiB (and 23 ms with a WAL left to grow, to 3 GB).
const walRestartFrames = 131072

// checkpointer runs checkpoints beside the writer every interval until Close.
func (s *Store) checkpointer(every time.Duration) {
	defer close(s.checkpointDone)
	if every < 0 {
		return
	}
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-s.closing:
			return
		case <-t.C:
			// A failed checkpoint is retried at the next tick; the WAL only grows meanwhile.
			_ = s.checkpoint()
		}
	}
}

// checkpoint copies the WAL into the database without waiting for the writer (a passive
// checkpoint), and asks the writer to finish the job once the WAL is long.
//
// SQLite starts the WAL over, at the writer's next transaction, only when every frame in it
// has been copied. Under steady writes a passive checkpoint never gets there: the writer
// commits new frames while it copies. The WAL would then grow for as long as the writes last
// (by 70 MB a second under the load benchmark) and never shrink. So once the WAL is long, the
// checkpointer runs again until a run finds few new frames, and then asks the writer to copy
// those few itself between two batches, when nothing else is writing. Its next transaction
// starts the WAL over.
//
// A checkpoint that does not reach the end of the WAL leaves the pages it copied unsynced:
// SQLite syncs the database file only when a checkpoint copies every frame, which under steady
// writes is the writer's. That sync then wrote out everything copied since the WAL last
// started over, and took 60 ms under the load benchmark with every write waiting. So each run
// of the checkpointer on a long WAL syncs the file itself, and the writer's sync finds only the
// last few pages to write. (Syncing after every run, or starting the kernel's writeback after
// every run, spread the writing out but cost the writes' own syncs more: PUT p99 27-35 ms
// under the load benchmark against 22-23 ms.)
func (s *Store) checkpoint() error {
	var (
		busy, frames, copied int
		syncErr              error
	)
	for i, prev := 0, -1; i < 4; i, prev = i+1, frames {
		if err := s.cdb.QueryRow("PRAGMA wal_checkpoint(PASSIVE)").Scan(&busy, &frames, &copied); err != nil {
			return fmt.Errorf("sqlite: checkpoint: %w", err)
		}
		if frames < s.walRestartFrames {
			return nil
		}
		// A failed sync only leaves more for the writer's: SQLite syncs the file at the end of
		// the writer's checkpoint all the same, so the WAL still starts over.
		if err := s.dbFile.Sync(); err != nil && syncErr == nil {
			syncErr = fmt.Errorf("sqlite: checkpoint: sync %s: %w", s.dbFile.Name(), err)
		}
		if prev >= 0 && frames-prev < s.walRestartFrames/256 {
			break
		}
	}
	// Unless a reader holds back the copy.
	if copied == frames {
		s.finishCheckpoint.Store(true)
	}
	return syncErr
}

// finishCheckpointIfAsked runs, in the writer between two batches, the last of a checkpoint the
// checkpointer asked for (see checkpoint). The checkpointer has just copied all but the latest
// frames, so this takes a few milliseconds at most. A failure leaves the WAL to grow until the
// next request.
func (s *Store) finishCheckpointIfAsked() {
	if s.finishCheckpoint.Swap(false) {
		_, _ = s.wdb.Exec("PRAGMA wal_checkpoint(PASSIVE)")
	}
}

// writeOp is one caller's write, run by the writer in a shared transaction.
type writeOp struct {
	fn   func(tx *sql.Tx) error
	done chan error
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
	select {
	case s.ops <- op:
		s.sendMu.RUnlock()
	case <-ctx.Done():
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
	for {
		select {
		case op := <-s.ops:
			s.finishCheckpointIfAsked()
			batch = s.commit(append(batch[:0], op))
		case <-s.closing:
			// Finish what was queued before Close; later writes see ErrClosed.
			for {
				select {
				case op := <-s.ops:
					s.commit([]*writeOp{op})
				default:
					return
				}
			}
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
	batch, results, err := s.runBatch(batch, false)
	if errors.Is(err, errIsolate) {
		batch, results, err = s.runBatch(batch, true)
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
	tx, err := s.wdb.BeginTx(ctx, nil)
	if err != nil {
		return batch, make([]error, len(batch)), fmt.Errorf("sqlite: begin: %w", err)
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
	if err := s.applyDeltas(tx, s.pending); err != nil {
		_ = tx.Rollback()
		return batch, make([]error, len(batch)), err // nothing was written
	}
	if err := tx.Commit(); err != nil {
		return batch, make([]error, len(batch)), fmt.Errorf("sqlite: commit: %w", err)
	}
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

// mapErr turns SQLite constraint errors into the store's sentinels, by extended code.
// mapErr is mapErr for a read: a read that fails because Close closed the database under it
// fails with store.ErrClosed, as every call after Close does.
func (s *Store) mapErr(err error, what string) error {
	mapped := mapErr(err, what)
	if err != nil && s.isClosed.Load() && !errors.Is(mapped, store.ErrNotFound) && !errors.Is(mapped, store.ErrConflict) {
		return fmt.Errorf("%s: %w", what, store.ErrClosed)
	}
	return mapped
}

// checkOpen fails with store.ErrClosed after Close. Reads call it first, since some are
// answered from the read cache without touching the database.
func (s *Store) checkOpen(what string) error {
	if s.isClosed.Load() {
		return fmt.Errorf("%s: %w", what, store.ErrClosed)
	}
	return nil
}

// mapErr maps SQLite's errors to the store's sentinels, adding what failed.
func mapErr(err error, what string) error {
	if err == nil {
		return nil
	}
	if sentinel := constraintSentinel(err); sentinel != nil {
		return fmt.Errorf("%s: %w", what, sentinel)
	}
	if errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("%s: %w", what, store.ErrNotFound)
	}
	return fmt.Errorf("%s: %w", what, err)
}

func ms(t time.Time) int64 { return t.UnixMilli() }

func fromMS(v int64) time.Time { return time.UnixMilli(v).UTC() }

func fromNullMS(v sql.NullInt64) *time.Time {
	if !v.Valid {
		return nil
	}
	t := fromMS(v.Int64)
	return &t
}
