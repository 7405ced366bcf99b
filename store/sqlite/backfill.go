package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"

	"github.com/svc-feedback/svc/internal/answerjson"
	"github.com/svc-feedback/svc/store"
	"github.com/svc-feedback/svc/store/internal/sqlrow"
	"github.com/svc-feedback/svc/survey"
)

// backfillChunk is how many responses the backfill counts between writes of its rollup rows, so
// its memory stays that of one chunk's buckets however long the history.
const backfillChunk = 10_000

// backfillCounts is migration 10: the summary's counts (store.ResponseCounts, and the events') of what
// was written before the writes kept them. It works them out from the stored answers, as the
// writes do, survey by survey.
func backfillCounts(ctx context.Context, tx *sql.Tx) error {
	rows, err := tx.QueryContext(ctx, `SELECT id, definition FROM surveys`)
	if err != nil {
		return err
	}
	type surveyDef struct {
		id  string
		def survey.Definition
	}
	var surveys []surveyDef
	for rows.Next() {
		var sd surveyDef
		var def []byte
		if err := rows.Scan(&sd.id, &def); err != nil {
			rows.Close()
			return err
		}
		if err := json.Unmarshal(def, &sd.def); err != nil {
			rows.Close()
			return fmt.Errorf("survey %s: %w", sd.id, err)
		}
		sd.def.Normalize()
		surveys = append(surveys, sd)
	}
	if err := rows.Close(); err != nil {
		return err
	}
	for _, sd := range surveys {
		if err := backfillSurvey(ctx, tx, sd.id, &sd.def); err != nil {
			return fmt.Errorf("survey %s: %w", sd.id, err)
		}
	}
	return nil
}

func backfillSurvey(ctx context.Context, tx *sql.Tx, surveyID string, def *survey.Definition) error {
	d := newDeltas()
	n := 0
	flush := func() error {
		err := applyCounts(tx, d.counts)
		d.reset()
		n = 0
		return err
	}
	rows, err := tx.QueryContext(ctx, `SELECT data, finished, created_at FROM responses WHERE survey_id = ?`, surveyID)
	if err != nil {
		return err
	}
	defer rows.Close()
	var answers answerjson.Reader
	for rows.Next() {
		var data []byte
		var finished bool
		var at int64
		if err := rows.Scan(&data, &finished, &at); err != nil {
			return err
		}
		counts, err := sqlrow.StoredCounts(&answers, def, data, finished)
		if err != nil {
			return err
		}
		for _, c := range counts {
			if store.IsCountKey(c.Key) {
				d.rating(surveyID, c.Key, c.N, at, 1)
			}
		}
		if n++; n == backfillChunk {
			if err := flush(); err != nil {
				return err
			}
		}
	}
	if err := rows.Err(); err != nil {
		return err
	}
	rows.Close()
	events, err := tx.QueryContext(ctx, `SELECT type, created_at FROM events WHERE survey_id = ?`, surveyID)
	if err != nil {
		return err
	}
	defer events.Close()
	for events.Next() {
		var typ string
		var at int64
		if err := events.Scan(&typ, &at); err != nil {
			return err
		}
		c := store.EventCount(store.EventType(typ))
		d.rating(surveyID, c.Key, c.N, at, 1)
		if n++; n == backfillChunk {
			if err := flush(); err != nil {
				return err
			}
		}
	}
	if err := events.Err(); err != nil {
		return err
	}
	return flush()
}
