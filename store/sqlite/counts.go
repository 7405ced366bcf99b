package sqlite

import (
	"database/sql"
	"fmt"

	"github.com/svc-feedback/svc/store/internal/countlog"
)

// Counter and rollup changes are not written by each write as it runs: each write records them
// in the op's deltas, which join the batch's deltas only if the write succeeds, and the batch
// writes them, merged, just before its commit, in the same transaction. The counters of
// survey_stats change there, once per survey and batch; the rollups' changes go to the count
// log, one row per survey and batch, which the writer folds into the rollups every foldAt
// changes or when it is idle (see fold.go).

// statsDelta is a change to a survey's counters. Unique responders are not among them: each
// insert of a response counts its respondent itself (see countIfFirstResponse).
type statsDelta struct {
	responses, views, uniqueViewers, dismissals, uniqueDismissers, finished int64
}

type deltas struct {
	counts countlog.Changes
	stats  map[string]*statsDelta
}

func newDeltas() *deltas {
	return &deltas{counts: countlog.Changes{}, stats: make(map[string]*statsDelta)}
}

func (d *deltas) reset() {
	for _, m := range d.counts {
		clear(m) // keeps each survey's map, and its room, for the next batch
	}
	clear(d.stats)
}

// rating counts delta scores given at createdAt.
func (d *deltas) rating(surveyID, qid string, score int, createdAt, delta int64) {
	d.counts.Add(surveyID, qid, score, createdAt, delta)
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
	d.counts.Merge(o.counts)
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

// applyCounts adds count changes to the rollup rows they count in, in tx.
func applyCounts(tx *sql.Tx, changes countlog.Changes) error {
	rows := make(map[countlog.Row]int64)
	for surveyID, m := range changes {
		clear(rows)
		countlog.Expand(m, rows)
		for r, n := range rows {
			if n == 0 {
				continue
			}
			var err error
			if r.Level < 0 {
				_, err = tx.Exec(`INSERT INTO rating_totals (survey_id, question_id, score, n) VALUES (?, ?, ?, ?)
					ON CONFLICT (survey_id, question_id, score) DO UPDATE SET n = n + excluded.n`, surveyID, r.Name, r.Score, n)
			} else {
				t := rollups[r.Level]
				_, err = tx.Exec(`INSERT INTO `+t.table+` (survey_id, question_id, `+t.column+`, score, n) VALUES (?, ?, ?, ?, ?)
					ON CONFLICT (survey_id, question_id, `+t.column+`, score) DO UPDATE SET n = n + excluded.n`,
					surveyID, r.Name, r.Bucket, r.Score, n)
			}
			if err != nil {
				return fmt.Errorf("sqlite: update rating counts: %w", err)
			}
		}
	}
	return nil
}

// applyStats adds counter changes to the surveys' counters, in tx.
func applyStats(tx *sql.Tx, stats map[string]*statsDelta) error {
	for id, sd := range stats {
		if _, err := tx.Exec(`UPDATE survey_stats SET responses = responses + ?, views = views + ?, unique_viewers = unique_viewers + ?,
			dismissals = dismissals + ?, unique_dismissers = unique_dismissers + ?, finished = finished + ?
			WHERE survey_id = ?`, sd.responses, sd.views, sd.uniqueViewers, sd.dismissals, sd.uniqueDismissers, sd.finished, id); err != nil {
			return fmt.Errorf("sqlite: update counters: %w", err)
		}
	}
	return nil
}
