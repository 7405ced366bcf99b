package postgres

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/svc-feedback/svc/store"
	"github.com/svc-feedback/svc/store/internal/sqlrow"
)

// DeleteResponse implements store.Store.
func (s *Store) DeleteResponse(ctx context.Context, surveyID, id string) error {
	sv, err := s.surveyByID(ctx, surveyID)
	if err != nil {
		return fmt.Errorf("delete response: %w", err)
	}
	return s.tx(ctx, "delete response "+id, func(tx pgx.Tx) error {
		found, err := deleteResponse(ctx, tx, sv, id)
		if err == nil && !found {
			err = fmt.Errorf("delete response %s: %w", id, store.ErrNotFound)
		}
		return err
	})
}

// deleteResponse deletes one response in tx and takes it out of the counters, the rating
// rollups and its respondent's history; its deliveries go with it. It reports whether the
// response existed.
func deleteResponse(ctx context.Context, tx pgx.Tx, sv store.Survey, id string) (bool, error) {
	var (
		rowGen  int64
		buckets string
	)
	r, err := scanResponse(withSegments{tx.QueryRow(ctx, `DELETE FROM responses WHERE survey_id = $1 AND id = $2 RETURNING `+responseColumns+`, seg_gen, seg_buckets`,
		sv.ID, id), &rowGen, &buckets})
	if errors.Is(err, pgx.ErrNoRows) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	counts, err := sqlrow.StoredCounts(nil, &sv.Definition, r.Data, r.Finished)
	if err != nil {
		return false, err
	}
	if rowGen != 0 {
		// Its segment counts are taken out when they still count: in its team's generation.
		gen, err := teamGen(ctx, tx, sv.TeamID)
		if err != nil {
			return false, err
		}
		mark, err := storedMark(gen, rowGen, buckets)
		if err != nil {
			return false, err
		}
		counts = append(counts, store.SegmentCounts(mark, counts)...)
	}
	row := rowOf(tx.Conn())
	finished := 0
	if r.Finished {
		finished = 1
	}
	var b pgx.Batch
	// The respondent stops counting once their last response is gone: deleting them from
	// responders takes the row lock a concurrent first response of theirs waits on, so that
	// response counts them again after this commits.
	b.Queue(`WITH gone AS (DELETE FROM responders WHERE survey_id = $1 AND respondent = $2
			AND NOT EXISTS (SELECT 1 FROM responses WHERE survey_id = $1 AND respondent = $2) RETURNING 1)
		UPDATE survey_stats SET responses = responses - 1, finished = finished - $4,
			unique_responders = unique_responders - (SELECT COUNT(*) FROM gone)
		WHERE survey_id = $1 AND shard = $3`, sv.ID, r.Respondent, row%statsShards, finished)
	b.Queue(`UPDATE respondents SET last_responded_at = (SELECT MAX(updated_at) FROM responses WHERE survey_id = $1 AND respondent = $2)
		WHERE survey_id = $1 AND respondent = $2`, sv.ID, r.Respondent)
	queueRatings(&b, sv.ID, counts, sqlrow.MS(r.CreatedAt), -1)
	b.Queue(`DELETE FROM deliveries WHERE survey_id = $1 AND response_id = $2`, sv.ID, id)
	queuePersons(&b, []string{r.Respondent}) // they may no longer have responded
	return true, tx.SendBatch(ctx, &b).Close()
}

// EraseRespondent implements store.Store: one transaction over every survey of the team.
func (s *Store) EraseRespondent(ctx context.Context, teamID, respondent string) (store.Erased, error) {
	var erased store.Erased
	err := s.tx(ctx, "erase respondent", func(tx pgx.Tx) error {
		erased = store.Erased{}
		// In the surveys' order, as the writers' batches take rows (see followUps.queue), so that
		// an erasure and a batch touching the same respondent wait rather than deadlock.
		rows, err := tx.Query(ctx, `SELECT `+sqlrow.SurveyColumns+` FROM surveys WHERE team_id = $1 ORDER BY id`, teamID)
		if err != nil {
			return err
		}
		surveys, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (store.Survey, error) { return sqlrow.ScanSurvey(r) })
		if err != nil {
			return err
		}
		for _, q := range []string{`DELETE FROM person_attributes WHERE team_id = $1 AND respondent = $2`,
			`DELETE FROM prompts WHERE team_id = $1 AND respondent = $2`} {
			if _, err := tx.Exec(ctx, q, teamID, respondent); err != nil {
				return err
			}
		}
		if err := notifyPersons(ctx, tx, respondent); err != nil {
			return err
		}
		for _, sv := range surveys {
			n, err := eraseIn(ctx, tx, sv, respondent)
			if err != nil {
				return err
			}
			erased.Responses += n.Responses
			erased.Events += n.Events
		}
		return nil
	})
	return erased, err
}

// eraseIn erases a respondent from one survey in tx.
func eraseIn(ctx context.Context, tx pgx.Tx, sv store.Survey, respondent string) (store.Erased, error) {
	rows, err := tx.Query(ctx, `SELECT id FROM responses WHERE survey_id = $1 AND respondent = $2`, sv.ID, respondent)
	if err != nil {
		return store.Erased{}, err
	}
	ids, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return store.Erased{}, err
	}
	for _, id := range ids {
		if _, err := deleteResponse(ctx, tx, sv, id); err != nil {
			return store.Erased{}, err
		}
	}
	// The events go, and with them their counts, at their times.
	rows, err = tx.Query(ctx, `DELETE FROM events WHERE survey_id = $1 AND respondent = $2 RETURNING type, created_at`, sv.ID, respondent)
	if err != nil {
		return store.Erased{}, err
	}
	type event struct {
		typ string
		at  int64
	}
	events, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (event, error) {
		var e event
		return e, r.Scan(&e.typ, &e.at)
	})
	if err != nil {
		return store.Erased{}, err
	}
	var views, dismissals int64
	var b pgx.Batch
	for _, e := range events {
		if store.EventType(e.typ) == store.EventView {
			views++
		} else {
			dismissals++
		}
		queueRatings(&b, sv.ID, []store.Count{store.EventCount(store.EventType(e.typ))}, e.at, -1)
	}
	b.Queue(`WITH v AS (DELETE FROM viewers WHERE survey_id = $1 AND respondent = $2 RETURNING 1),
			d AS (DELETE FROM dismissers WHERE survey_id = $1 AND respondent = $2 RETURNING 1)
		UPDATE survey_stats SET views = views - $4, dismissals = dismissals - $5,
			unique_viewers = unique_viewers - (SELECT COUNT(*) FROM v), unique_dismissers = unique_dismissers - (SELECT COUNT(*) FROM d)
		WHERE survey_id = $1 AND shard = $3`, sv.ID, respondent, rowOf(tx.Conn())%statsShards, views, dismissals)
	b.Queue(`DELETE FROM respondents WHERE survey_id = $1 AND respondent = $2`, sv.ID, respondent)
	if err := tx.SendBatch(ctx, &b).Close(); err != nil {
		return store.Erased{}, err
	}
	return store.Erased{Responses: len(ids), Events: int(views + dismissals)}, nil
}
