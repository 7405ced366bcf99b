package sqlite

import (
	"database/sql"
	"fmt"
	"time"

	"github.com/svc-feedback/svc/store/internal/countlog"
)

// The count log (see store/internal/countlog) holds the rollups' changes of the batches not yet
// folded. The writer folds it into the rollups in the transaction of the batch that brings it
// to foldAt changes, and in a transaction of its own every foldEvery when no write is waiting:
// readers then add at most a few thousand changes to what they read from the rollups, and a
// rollup row changes once per fold rather than once per batch.
const (
	// foldAt is how many changes the log holds, about, before the next batch folds it. A batch
	// of 256 responses to a survey of ten questions logs a few hundred changes (its responses'
	// counts summed per count and minute).
	foldAt = 4096
	// foldRows bounds the log rows one fold reads, so that a log left long (by another process,
	// or a crash) delays no batch by much: the next batches fold the rest.
	foldRows = 1024
	// foldEvery is how often the writer folds what the log holds when no write is waiting.
	foldEvery = time.Second
)

// writeDeltas writes a batch's changes in tx: its counters, and its count changes to the log, or
// into the rollups with the log's when the log has grown to foldAt.
func (s *Store) writeDeltas(tx *sql.Tx, d *deltas) error {
	if err := applyStats(tx, d.stats); err != nil {
		return err
	}
	n := d.counts.Len()
	switch {
	case n == 0:
		return nil
	case s.txLogged+n >= s.foldAt:
		return s.fold(tx, d.counts)
	}
	for surveyID, m := range d.counts {
		if len(m) == 0 {
			continue
		}
		s.encoded = countlog.Encode(s.encoded[:0], m)
		if _, err := tx.Exec(`INSERT INTO count_log (survey_id, changes) VALUES (?, ?)`, surveyID, s.encoded); err != nil {
			return fmt.Errorf("sqlite: log count changes: %w", err)
		}
	}
	s.txLogged += n
	return nil
}

// fold moves the log's oldest rows, with extra (the running batch's changes, or nil), into the
// rollups, in tx.
func (s *Store) fold(tx *sql.Tx, extra countlog.Changes) error {
	all := countlog.Changes{}
	all.Merge(extra)
	rows, err := tx.Query(`SELECT seq, survey_id, changes FROM count_log ORDER BY seq LIMIT ?`, foldRows)
	if err != nil {
		return fmt.Errorf("sqlite: read the count log: %w", err)
	}
	var last int64
	read := 0
	for rows.Next() {
		var surveyID string
		var b []byte
		if err := rows.Scan(&last, &surveyID, &b); err != nil {
			rows.Close()
			return fmt.Errorf("sqlite: read the count log: %w", err)
		}
		if err := all.AddRow(surveyID, b); err != nil {
			rows.Close()
			return fmt.Errorf("sqlite: count log row %d: %w", last, err)
		}
		read++
	}
	if err := rows.Close(); err != nil {
		return fmt.Errorf("sqlite: read the count log: %w", err)
	}
	if err := applyCounts(tx, all); err != nil {
		return err
	}
	if s.foldHook != nil {
		s.foldHook()
	}
	if read > 0 {
		if _, err := tx.Exec(`DELETE FROM count_log WHERE seq <= ?`, last); err != nil {
			return fmt.Errorf("sqlite: empty the count log: %w", err)
		}
	}
	s.txLogged = 0
	if read == foldRows {
		s.txLogged = s.foldAt // rows remain: the next batch folds again
	}
	return nil
}
