package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"io/fs"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/svc-feedback/svc/store"
)

// migrate applies the pending migrations, trying again for a while when the database is
// locked (see retryLocked).
func migrate(ctx context.Context, db *sql.DB) error {
	return retryLocked(ctx, func() error { return migrateOnce(ctx, db) })
}

// retryLocked runs fn, and again for a while when it finds the database locked: processes
// opening a new file together (replicas started at once) each switch it to WAL and migrate it,
// and SQLite answers some of those steps "database is locked" at once rather than waiting out
// the busy timeout.
func retryLocked(ctx context.Context, fn func() error) error {
	wait := 20 * time.Millisecond
	for tries := 1; ; tries++ {
		err := fn()
		if err == nil || constraintSentinel(err) != store.ErrUnavailable || tries == 30 {
			return err
		}
		select {
		case <-ctx.Done():
			return err
		case <-time.After(wait):
		}
		wait = min(2*wait, 500*time.Millisecond)
	}
}

func migrateOnce(ctx context.Context, db *sql.DB) error {
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
	for _, m := range goMigrations {
		if err := applyMigration(ctx, db, m.name, m.version); err != nil {
			return fmt.Errorf("migration %s: %w", m.name, err)
		}
	}
	return nil
}

// goMigrations are the migrations written in Go, after every SQL one: what SQL cannot work out.
var goMigrations = []struct {
	version int
	name    string
	run     func(ctx context.Context, tx *sql.Tx) error
}{
	{10, "0010_backfill_counts", backfillCounts},
}

// runMigration runs migration version in tx: its SQL file, or its Go function.
func runMigration(ctx context.Context, tx *sql.Tx, name string, version int) error {
	for _, m := range goMigrations {
		if m.version == version {
			return m.run(ctx, tx)
		}
	}
	body, err := migrations.ReadFile(name)
	if err != nil {
		return err
	}
	_, err = tx.ExecContext(ctx, string(body))
	return err
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
	if err := runMigration(ctx, tx, name, version); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)`,
		version, time.Now().UnixMilli()); err != nil {
		return err
	}
	return tx.Commit()
}
