package sqlite

import (
	"database/sql"
	"errors"
	"fmt"

	"github.com/svc-feedback/svc/store"
)

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
