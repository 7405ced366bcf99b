package postgres

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/svc-feedback/svc/store/internal/countlog"
)

// The writers log their batches' count changes (see store/internal/countlog) rather than
// update the rollups, whose rows every batch would otherwise queue on, across instances too.
// Each instance runs a folder that moves the log into the rollups: every foldEvery, and as soon
// as its own writers have logged foldAt changes since its last fold. One fold runs at a time
// in a schema (a transaction-scoped advisory lock, which works behind PgBouncer's
// transaction pooling too); the others find the lock taken and leave it the work.
const (
	foldAt    = 4096
	foldRows  = 1024
	foldEvery = time.Second
	// foldLock is the first key of a fold's advisory lock; the second is the schema's hash, so
	// that stores in different schemas of one database fold each their own log at once.
	foldLock = 0x737663
	// foldTimeout bounds a fold's transaction, which runs on no caller's context.
	foldTimeout = 30 * time.Second
)

// logged counts n changes logged by this instance's writers, and wakes the folder once they
// come to foldAt.
func (s *Store) logged(n int) {
	if n == 0 {
		return
	}
	if s.unfolded.Add(int64(n)) >= int64(s.foldAt) {
		select {
		case s.foldNow <- struct{}{}:
		default: // the folder has been woken already
		}
	}
}

// folder folds the count log until Close. What it leaves in the log stays counted, and the
// next fold of any instance takes it: Close does not wait for a fold of its own, which would
// wait out foldTimeout for a database that is down.
func (s *Store) folder(every time.Duration) {
	defer close(s.folderDone)
	var tick <-chan time.Time
	if every > 0 {
		t := time.NewTicker(every)
		defer t.Stop()
		tick = t.C
	}
	for {
		select {
		case <-tick:
		case <-s.foldNow:
		case <-s.stopFolder:
			return
		}
		_ = s.foldAll() // a fold that fails leaves the log as it was: reads count it either way
	}
}

// foldAll folds the log until it is empty, another instance is folding it, or a fold fails.
func (s *Store) foldAll() error {
	for {
		more, err := s.fold()
		if err != nil || !more {
			return err
		}
	}
}

// fold moves up to foldRows rows of the count log into the rollups, in one transaction, and
// reports whether rows remain.
func (s *Store) fold() (bool, error) {
	ctx, cancel := context.WithTimeout(context.Background(), foldTimeout)
	defer cancel()
	s.unfolded.Store(0)
	read := 0
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		var mine bool
		if err := tx.QueryRow(ctx, `SELECT pg_try_advisory_xact_lock($1, hashtext(current_schema()))`, foldLock).Scan(&mine); err != nil || !mine {
			return err
		}
		rows, err := tx.Query(ctx, `DELETE FROM count_log WHERE seq IN (
			SELECT seq FROM count_log ORDER BY seq LIMIT $1 FOR UPDATE SKIP LOCKED) RETURNING survey_id, changes`, foldRows)
		if err != nil {
			return err
		}
		defer rows.Close()
		all := countlog.Changes{}
		for rows.Next() {
			var surveyID string
			var b []byte
			if err := rows.Scan(&surveyID, &b); err != nil {
				return err
			}
			if err := all.AddRow(surveyID, b); err != nil {
				return fmt.Errorf("count log of survey %s: %w", surveyID, err)
			}
			read++
		}
		if err := rows.Err(); err != nil {
			return err
		}
		var b pgx.Batch
		queueFold(&b, all)
		if s.foldHook != nil {
			s.foldHook()
		}
		return tx.SendBatch(ctx, &b).Close()
	})
	if err != nil {
		return false, s.mapErr(err, "fold the count log")
	}
	return read == foldRows, nil
}

// startFolder starts the folder that opts ask for; Close stops it.
func (s *Store) startFolder(opts *Options) {
	s.foldAt, s.foldNow = foldAt, make(chan struct{}, 1)
	s.stopFolder, s.folderDone = make(chan struct{}), make(chan struct{})
	every := foldEvery
	if opts != nil {
		if opts.foldAt > 0 {
			s.foldAt = opts.foldAt
		}
		if opts.foldEvery != 0 {
			every = opts.foldEvery
		}
		s.foldHook = opts.foldHook
	}
	go s.folder(every)
}
