// Package sqlite is the SQLite implementation of store.Store, on github.com/mattn/go-sqlite3
// (cgo).
//
// One goroutine owns the only write connection and commits concurrent writes together in a
// shared transaction (group commit). A failing write is rolled back alone and its batch-mates
// still commit (the batch runs again with a savepoint per write), and every caller gets its own
// result only after the commit is durable. Reads use a pool of read-only connections, which WAL lets
// run beside the writer.
//
// When it is initialized, the package puts a page cache of its own in front of SQLite's, for the
// whole process, since SQLite takes one only before its first connection: it keeps the spare page
// number that a B-tree page split swaps through out of the commit's truncation, which otherwise
// walks the writer's whole cache at nearly every commit.
package sqlite

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"os"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/svc-feedback/svc/internal/answerjson"
	"github.com/svc-feedback/svc/internal/cuid2"
	"github.com/svc-feedback/svc/store"
	"github.com/svc-feedback/svc/store/internal/personcache"
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

	// OnCommit, when set, is called by the writer after each commit with how many writes it
	// held and how long the batch took to run and commit, for metrics (the ObserveCommit method
	// of package metrics' Metrics). It must return quickly: the next batch waits for it.
	OnCommit func(writes int, took time.Duration)

	// foldAt and foldEvery let tests drive folds of the count log themselves: zero means
	// foldAt and foldEvery, a negative foldEvery no fold when idle. foldHook is Store.foldHook.
	foldAt    int
	foldEvery time.Duration
	foldHook  func()
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
	sending    atomic.Int64 // writes waiting for room in ops
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
	// persons keeps what targeting read of people; every write that changes one drops them.
	persons *personcache.Cache
	// op and pending are the counter changes of the running write and of the batch's
	// successful writes (see deltas.go); only the writer goroutine touches them.
	op, pending *deltas
	// answers decodes the stored answers whose counts a write changes; only the writer
	// goroutine uses it.
	answers answerjson.Reader
	// named holds segment values known to be counted by name (see markIn); only the writer
	// goroutine uses it.
	named namedValues
	// opPool recycles write ops with their reply channels: two allocations fewer per write.
	opPool   sync.Pool
	onCommit func(writes int, took time.Duration)
	// lastBatchLocked tells that the writer's last batch found the database locked by another
	// connection; only the writer goroutine touches it.
	lastBatchLocked bool
	// logged is about how many changes the count log holds, txLogged how many it will once
	// the running batch commits; encoded is the buffer a batch's changes are encoded in. Only
	// the writer goroutine touches them (see fold.go).
	logged, txLogged int
	encoded          []byte
	foldAt           int
	foldEvery        time.Duration
	// foldHook, when set, is called by a fold between its writes to the rollups and its
	// delete of the log rows: tests kill the process there.
	foldHook func()
	// results holds the outcomes of the writer's batch, kept from batch to batch: made for
	// each batch with room for a full one, it was a 4 KiB allocation per commit.
	results []error
}

// Open opens (creating if needed) the database at path, applies pending migrations, and starts
// the writer. Close it when done. In a program built without cgo it fails with ErrNeedsCgo.
func Open(ctx context.Context, path string, opts *Options) (*Store, error) {
	o, err := opts.withDefaults()
	if err != nil {
		return nil, err
	}
	if !cgoEnabled {
		return nil, ErrNeedsCgo
	}
	if path == "" || path == ":memory:" || strings.HasPrefix(path, "file:") {
		return nil, errors.New("sqlite: give a file path; in-memory databases cannot be shared by the read pool")
	}
	if err := checkPath(path); err != nil {
		return nil, err
	}
	c, err := openConns(ctx, path, o)
	if err != nil {
		return nil, err
	}
	s := &Store{
		wdb: c.wdb, rdb: c.rdb, cdb: c.cdb, dbFile: c.dbFile,
		checkpointDone: make(chan struct{}), walRestartFrames: o.walRestartFrames,
		ops:        make(chan *writeOp, o.MaxBatch),
		closing:    make(chan struct{}),
		writerDone: make(chan struct{}),
		maxBatch:   o.MaxBatch,
		ids:        cuid2.NewGenerator(),
		cache:      newReadCache(o.CacheTTL),
		persons:    personcache.New(o.CacheTTL),
		op:         newDeltas(),
		pending:    newDeltas(),
		onCommit:   o.OnCommit,
		foldAt:     o.foldAt,
		foldEvery:  o.foldEvery,
		foldHook:   o.foldHook,
	}
	// Changes a crash left in the log are folded once the writer is idle.
	if err := s.wdb.QueryRowContext(ctx, `SELECT COUNT(*) FROM count_log`).Scan(&s.logged); err != nil {
		c.close()
		return nil, fmt.Errorf("sqlite: %s: read the count log: %w", path, err)
	}
	s.opPool.New = func() any { return &writeOp{done: make(chan error, 1)} }
	go s.writer()
	go s.checkpointer(o.checkpointEvery)
	return s, nil
}

// withDefaults returns the options with every zero value replaced by its default, or an error
// for a value that has no meaning.
func (opts *Options) withDefaults() (Options, error) {
	var o Options
	if opts != nil {
		o = *opts
	}
	if o.Synchronous == "" {
		o.Synchronous = SynchronousFull
	}
	if o.Synchronous != SynchronousFull && o.Synchronous != SynchronousNormal {
		return Options{}, fmt.Errorf("sqlite: unknown synchronous level %q", o.Synchronous)
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
	if o.foldAt <= 0 {
		o.foldAt = foldAt
	}
	if o.foldEvery == 0 {
		o.foldEvery = foldEvery
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
	return o, nil
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

var _ store.PoolReporter = (*Store)(nil)

// PoolStats implements store.PoolReporter: the connections are the read pool's (every write
// goes through the writer's one connection, and waits in QueuedWrites).
func (s *Store) PoolStats() store.PoolStats {
	st := s.rdb.Stats()
	return store.PoolStats{MaxConns: st.MaxOpenConnections, InUse: st.InUse, Idle: st.Idle,
		Waits: st.WaitCount, WaitTime: st.WaitDuration, QueuedWrites: len(s.ops) + int(s.sending.Load())}
}
