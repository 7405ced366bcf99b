package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/svc-feedback/svc/store"
	"github.com/svc-feedback/svc/store/internal/rollup"
	"github.com/svc-feedback/svc/store/internal/sqlrow"
)

// Counter and rollup changes are not written by each write as it runs: each write records them
// in the op's deltas, which join the batch's deltas only if the write succeeds, and the batch
// applies them, merged by key, just before its commit, in the same transaction. A group commit
// of 64 responses then updates each (question, bucket, score) once instead of 64 times.

// ratingKey is one row of a rating rollup: level is -1 for the lifetime totals, else an index
// into rollups; bucket is the day, hour or minute (unused for totals).
type ratingKey struct {
	survey, question string
	level            int
	bucket           int64
	score            int
}

// statsDelta is a change to a survey's counters. Unique responders are not among them: each
// insert of a response counts its respondent itself (see countIfFirstResponse).
type statsDelta struct {
	responses, views, uniqueViewers, dismissals, uniqueDismissers, finished int64
}

type deltas struct {
	ratings map[ratingKey]int64
	stats   map[string]*statsDelta
}

func newDeltas() *deltas {
	return &deltas{ratings: make(map[ratingKey]int64), stats: make(map[string]*statsDelta)}
}

func (d *deltas) reset() {
	clear(d.ratings)
	clear(d.stats)
}

// rating counts delta scores given at createdAt in the totals and every rollup.
func (d *deltas) rating(surveyID, qid string, score int, createdAt, delta int64) {
	d.ratings[ratingKey{surveyID, qid, -1, 0, score}] += delta
	for i, r := range rollups {
		d.ratings[ratingKey{surveyID, qid, i, rollup.FloorDiv(createdAt, r.size), score}] += delta
	}
}

func (d *deltas) statsOf(surveyID string) *statsDelta {
	sd := d.stats[surveyID]
	if sd == nil {
		sd = &statsDelta{}
		d.stats[surveyID] = sd
	}
	return sd
}

// merge adds o into d.
func (d *deltas) merge(o *deltas) {
	for k, n := range o.ratings {
		d.ratings[k] += n
	}
	for id, sd := range o.stats {
		t := d.statsOf(id)
		t.responses += sd.responses
		t.views += sd.views
		t.uniqueViewers += sd.uniqueViewers
		t.dismissals += sd.dismissals
		t.uniqueDismissers += sd.uniqueDismissers
		t.finished += sd.finished
	}
}

// applyDeltas writes the deltas in tx.
func (s *Store) applyDeltas(tx *sql.Tx, d *deltas) error { return applyDeltas(tx, d) }

func applyDeltas(tx *sql.Tx, d *deltas) error {
	for k, n := range d.ratings {
		if n == 0 {
			continue
		}
		var err error
		if k.level < 0 {
			_, err = tx.Exec(`INSERT INTO rating_totals (survey_id, question_id, score, n) VALUES (?, ?, ?, ?)
				ON CONFLICT (survey_id, question_id, score) DO UPDATE SET n = n + excluded.n`, k.survey, k.question, k.score, n)
		} else {
			r := rollups[k.level]
			_, err = tx.Exec(`INSERT INTO `+r.table+` (survey_id, question_id, `+r.column+`, score, n) VALUES (?, ?, ?, ?, ?)
				ON CONFLICT (survey_id, question_id, `+r.column+`, score) DO UPDATE SET n = n + excluded.n`,
				k.survey, k.question, k.bucket, k.score, n)
		}
		if err != nil {
			return fmt.Errorf("sqlite: update rating counts: %w", err)
		}
	}
	for id, sd := range d.stats {
		if _, err := tx.Exec(`UPDATE survey_stats SET responses = responses + ?, views = views + ?, unique_viewers = unique_viewers + ?,
			dismissals = dismissals + ?, unique_dismissers = unique_dismissers + ?, finished = finished + ?
			WHERE survey_id = ?`, sd.responses, sd.views, sd.uniqueViewers, sd.dismissals, sd.uniqueDismissers, sd.finished, id); err != nil {
			return fmt.Errorf("sqlite: update counters: %w", err)
		}
	}
	return nil
}

// Counts implements store.Store. The range is first narrowed to the question's first
// and last rating. When what lies outside it is shorter than the range itself, the counts are
// the lifetime totals minus the outside (so all-time reads a few rows); otherwise the range is
// counted directly. Either way whole UTC days come from the per-day rollup, whole hours of the
// edge days from the per-hour rollup, whole minutes of the edge hours from the per-minute
// rollup, and only partial minutes from the responses' stored answers: the cost grows with
// days of history at most, not with the number of responses.
func (s *Store) Counts(ctx context.Context, surveyID string, questionIDs []string, from, to time.Time) (map[string]map[int]int64, error) {
	if err := s.checkOpen("count ratings"); err != nil {
		return nil, err
	}
	// The survey's first and last response bound every question's counts (its first and last
	// event, the event counts): read once a table for all the keys asked.
	bounds := map[string][2]sql.NullInt64{}
	out := make(map[string]map[int]int64, len(questionIDs))
	for _, qid := range questionIDs {
		counts := make(map[int]int64)
		out[qid] = counts
		table := "responses"
		if qid == store.EventsKey {
			table = "events"
		}
		b, ok := bounds[table]
		if !ok {
			var err error
			if b, err = s.bounds(ctx, table, surveyID); err != nil {
				return nil, err
			}
			bounds[table] = b
		}
		if !b[0].Valid {
			continue // nothing to count
		}
		if err := rollup.Count(ctx, ratingSource{s, surveyID, qid}, counts, sqlrow.MS(from), sqlrow.MS(to), b[0].Int64, b[1].Int64); err != nil {
			return nil, err
		}
	}
	return out, nil
}
