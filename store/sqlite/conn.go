package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"net/url"
	"os"
	"strconv"
	"strings"
)

// conns are the Store's connections to one database file.
type conns struct {
	wdb    *sql.DB // one connection, used only by the writer goroutine
	cdb    *sql.DB // one connection, used only by the checkpointer goroutine
	rdb    *sql.DB // read-only pool
	dbFile *os.File
}

func (c *conns) close() {
	for _, db := range []*sql.DB{c.wdb, c.cdb, c.rdb} {
		if db != nil {
			db.Close()
		}
	}
	if c.dbFile != nil {
		c.dbFile.Close()
	}
}

// openConns opens the writer's connection (migrating the database), the checkpointer's, the
// read pool and the file the checkpointer syncs; on failure it closes what it opened.
func openConns(ctx context.Context, path string, o Options) (c conns, err error) {
	defer func() {
		if err != nil {
			c.close()
		}
	}()
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
	dsn := func(extra map[string]string) string {
		v := url.Values{}
		for k, vs := range common {
			v[k] = vs
		}
		for k, x := range extra {
			v.Set(k, x)
		}
		return "file:" + escapePath(path) + "?" + v.Encode()
	}

	if c.wdb, err = openWriter(ctx, o, dsn(map[string]string{
		"_journal_mode": "WAL", "_synchronous": string(o.Synchronous), "_txlock": "immediate",
		// Random response ids insert all over the primary-key index: a writer cache of 32 MiB
		// (SQLite's default is about 2 MiB) keeps its pages in memory.
		"_cache_size": "-32768",
	})); err != nil {
		return c, fmt.Errorf("sqlite: %s: %w", path, err)
	}
	if c.cdb, err = sql.Open(o.driverName, dsn(nil)); err != nil {
		return c, fmt.Errorf("sqlite: open %s for checkpoints: %w", path, err)
	}
	c.cdb.SetMaxOpenConns(1)
	if c.rdb, err = sql.Open(o.driverName, dsn(map[string]string{"mode": "ro"})); err != nil {
		return c, fmt.Errorf("sqlite: open %s for reading: %w", path, err)
	}
	c.rdb.SetMaxOpenConns(o.ReadConns)
	c.rdb.SetMaxIdleConns(o.ReadConns)
	if err := c.rdb.PingContext(ctx); err != nil {
		return c, fmt.Errorf("sqlite: open %s for reading: %w", path, err)
	}
	// The checkpointer syncs the database file itself (see checkpoint). It never writes to
	// it, but some systems (Windows) sync only a file opened for writing.
	if c.dbFile, err = os.OpenFile(path, os.O_RDWR, 0); err != nil {
		return c, fmt.Errorf("sqlite: open %s for syncing: %w", path, err)
	}
	return c, nil
}

// openWriter opens the writer's one connection and migrates the database through it.
func openWriter(ctx context.Context, o Options, dsn string) (*sql.DB, error) {
	wdb, err := sql.Open(o.driverName, dsn)
	if err != nil {
		return nil, fmt.Errorf("open: %w", err)
	}
	wdb.SetMaxOpenConns(1)
	wdb.SetMaxIdleConns(1)
	wdb.SetConnMaxLifetime(0)
	wdb.SetConnMaxIdleTime(0)
	// The connection switches a new file to WAL as it opens: retried like the migrations.
	if err := retryLocked(ctx, func() error { return wdb.PingContext(ctx) }); err != nil {
		wdb.Close()
		return nil, fmt.Errorf("open: %w", err)
	}
	if err := migrate(ctx, wdb); err != nil {
		wdb.Close()
		return nil, fmt.Errorf("migrate: %w", err)
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
		return nil, err
	}
	return wdb, nil
}

// escapePath keeps characters that mean something in a URI (such as ? and #) in the file name.
func escapePath(p string) string {
	return strings.NewReplacer("%", "%25", "?", "%3f", "#", "%23").Replace(p)
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
