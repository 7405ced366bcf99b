package postgres

import (
	"context"
	"embed"
	"fmt"
	"io/fs"
	"sort"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

//go:embed migrations/*.sql
var migrations embed.FS

// migrationLock is the advisory lock key under which instances apply migrations one at a time.
const migrationLock = 0x737663 // "svc"

// migrate applies the embedded migrations not yet applied, in order, each in a transaction
// that holds an advisory lock, so that instances starting together take turns. The lock is the
// transaction's, not the session's: through a pooler in transaction mode a session lock could
// be taken on one server session and released on another. It refuses a database with a
// migration this version does not have: a newer svc wrote it.
func migrate(ctx context.Context, pool *pgxpool.Pool) error {
	steps, err := migrationSteps()
	if err != nil {
		return err
	}
	for {
		var applied bool
		err := pgx.BeginFunc(ctx, pool, func(tx pgx.Tx) error {
			var err error
			applied, err = migrateNext(ctx, tx, steps)
			return err
		})
		if err != nil || !applied {
			return err
		}
	}
}

// migrateNext applies the first migration the database has not had, in tx, and reports
// whether there was one.
func migrateNext(ctx context.Context, tx pgx.Tx, steps []migrationStep) (bool, error) {
	if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, migrationLock); err != nil {
		return false, err
	}
	if _, err := tx.Exec(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`); err != nil {
		return false, err
	}
	var newest int
	if err := tx.QueryRow(ctx, `SELECT COALESCE(MAX(version), 0) FROM schema_migrations`).Scan(&newest); err != nil {
		return false, err
	}
	if known := steps[len(steps)-1].version; newest > known {
		return false, fmt.Errorf("the database has schema version %d, and this version of svc knows only up to %d: it was written by a newer svc; run that one", newest, known)
	}
	for _, st := range steps {
		if st.version <= newest {
			continue
		}
		if err := st.run(ctx, tx); err != nil {
			return false, fmt.Errorf("migration %s: %w", st.name, err)
		}
		_, err := tx.Exec(ctx, `INSERT INTO schema_migrations (version) VALUES ($1)`, st.version)
		return true, err
	}
	return false, nil
}

// migrationStep is one migration: an embedded SQL file, or Go for what SQL cannot work out.
type migrationStep struct {
	version int
	name    string
	run     func(ctx context.Context, tx pgx.Tx) error
}

// goMigrations are the migrations written in Go.
var goMigrations = []migrationStep{
	{4, "0004_backfill_counts", backfillCounts},
}

// migrationSteps lists every migration in version order.
func migrationSteps() ([]migrationStep, error) {
	names, err := fs.Glob(migrations, "migrations/*.sql")
	if err != nil {
		return nil, err
	}
	steps := append([]migrationStep(nil), goMigrations...)
	for _, name := range names {
		version, err := strconv.Atoi(strings.SplitN(strings.TrimPrefix(name, "migrations/"), "_", 2)[0])
		if err != nil {
			return nil, fmt.Errorf("migration %s: %w", name, err)
		}
		body, err := migrations.ReadFile(name)
		if err != nil {
			return nil, err
		}
		steps = append(steps, migrationStep{version, name, func(ctx context.Context, tx pgx.Tx) error {
			_, err := tx.Exec(ctx, string(body))
			return err
		}})
	}
	sort.Slice(steps, func(i, j int) bool { return steps[i].version < steps[j].version })
	for i, st := range steps {
		if st.version != i+1 {
			return nil, fmt.Errorf("migration %s: versions must run 1, 2, 3... without a gap", st.name)
		}
	}
	return steps, nil
}
