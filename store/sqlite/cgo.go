//go:build cgo

package sqlite

import (
	"errors"

	"github.com/mattn/go-sqlite3"
	"github.com/svc-feedback/svc/store"
)

// cgoEnabled tells Open that the SQLite driver is compiled in.
const cgoEnabled = true

// constraintSentinel returns the store's sentinel for a broken SQLite constraint or a lock held
// by another connection, read from its code (never from the message), or nil for any other
// error.
func constraintSentinel(err error) error {
	var se sqlite3.Error
	if errors.As(err, &se) {
		switch se.ExtendedCode {
		case sqlite3.ErrConstraintPrimaryKey, sqlite3.ErrConstraintUnique:
			return store.ErrConflict
		case sqlite3.ErrConstraintForeignKey:
			return store.ErrNotFound
		}
		if se.Code == sqlite3.ErrBusy || se.Code == sqlite3.ErrLocked {
			return store.ErrUnavailable // another connection holds the lock past the busy timeout
		}
	}
	return nil
}
