package postgres

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/svc-feedback/svc/store"
)

// checkOpen fails with store.ErrClosed after Close.
func (s *Store) checkOpen(what string) error {
	if s.closed.Load() {
		return fmt.Errorf("%s: %w", what, store.ErrClosed)
	}
	return nil
}

// mapErr maps PostgreSQL's errors to the store's sentinels, by SQLSTATE, adding what failed.
// Errors that are already the store's pass through.
func (s *Store) mapErr(err error, what string) error {
	if err == nil {
		return nil
	}
	var se *store.Error
	if errors.As(err, &se) || errors.Is(err, store.ErrNotFound) || errors.Is(err, store.ErrConflict) ||
		errors.Is(err, store.ErrInvalid) || errors.Is(err, store.ErrClosed) {
		return err
	}
	if s.closed.Load() {
		return fmt.Errorf("%s: %w", what, store.ErrClosed)
	}
	if unreachable(err) {
		return fmt.Errorf("%s: %w: %w", what, store.ErrUnavailable, err)
	}
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		switch pe.Code {
		case "23505": // unique_violation
			return fmt.Errorf("%s: %w", what, store.ErrConflict)
		case "23503": // foreign_key_violation
			return fmt.Errorf("%s: %w", what, store.ErrNotFound)
		case "22021", "22P05": // character_not_in_repertoire, untranslatable_character: a U+0000 in text
			return fmt.Errorf("%s: %w", what, store.Invalidf("text must not contain U+0000"))
		case "55P03", "57P03", "53300", "40P01", "40001":
			// lock_not_available, cannot_connect_now, too_many_connections, and a deadlock or
			// serialization failure with another transaction: the call may succeed when retried.
			return fmt.Errorf("%s: %w", what, store.ErrUnavailable)
		}
	}
	if errors.Is(err, pgx.ErrNoRows) {
		return fmt.Errorf("%s: %w", what, store.ErrNotFound)
	}
	return fmt.Errorf("%s: %w", what, err)
}

// unreachable reports whether err says the database could not be reached or did not answer in
// time (a restart, a failover, a network fault), rather than that it refused the statement:
// such a call may succeed when retried later.
func unreachable(err error) bool {
	var (
		ce *pgconn.ConnectError
		ne net.Error
		pe *pgconn.PgError
	)
	if errors.As(err, &pe) {
		switch {
		case pe.Code == "57P01", pe.Code == "57P02", pe.Code == "57P05":
			// admin_shutdown (a stop or restart, or the connection terminated), crash_shutdown,
			// idle_session_timeout: the server closed this connection, another may serve.
			return true
		case strings.HasPrefix(pe.Code, "08"):
			// connection_exception and its kin.
			return true
		case pe.Code == "25006":
			// read_only_sql_transaction: a standby (after a failover, the old primary) holds
			// the connection; the pool's next connection finds the primary.
			return true
		}
	}
	return errors.As(err, &ce) || errors.As(err, &ne) || errors.Is(err, io.ErrUnexpectedEOF) ||
		errors.Is(err, context.DeadlineExceeded) || errors.Is(err, net.ErrClosed)
}
