package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/svc-feedback/svc/store"
	"github.com/svc-feedback/svc/store/internal/sqlrow"
)

// DeleteResponse implements store.Store.
func (s *Store) DeleteResponse(ctx context.Context, surveyID, id string) error {
	sv, err := s.surveyByID(ctx, surveyID)
	if err != nil {
		return fmt.Errorf("delete response: %w", err)
	}
	var respondent string
	err = s.write(ctx, func(tx *sql.Tx) error {
		var err error
		respondent, err = s.deleteResponse(tx, sv, id)
		if err == nil && respondent == "" {
			err = fmt.Errorf("delete response %s: %w", id, store.ErrNotFound)
		}
		return err
	})
	if respondent != "" {
		s.persons.Drop(respondent) // they may no longer have responded
	}
	return err
}

// deleteResponse deletes one response in tx and takes it out of the counters, the rating
// rollups and its respondent's history; its deliveries go with it. It returns the response's
// respondent, or "" when there was no such response.
func (s *Store) deleteResponse(tx *sql.Tx, sv store.Survey, id string) (string, error) {
	var (
		respondent string
		created    int64
		data       []byte
		finished   bool
		gen        int64
		buckets    string
	)
	err := tx.QueryRow(`DELETE FROM responses WHERE survey_id = ? AND id = ? RETURNING respondent, created_at, data, finished, seg_gen, seg_buckets`,
		sv.ID, id).Scan(&respondent, &created, &data, &finished, &gen, &buckets)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	if err != nil {
		return "", s.mapErr(err, "delete response "+id)
	}
	counts, err := sqlrow.StoredCounts(&s.answers, &sv.Definition, data, finished)
	if err != nil {
		return "", fmt.Errorf("delete response %s: %w", id, err)
	}
	if gen != 0 {
		// Its segment counts are taken out when they still count: in its team's generation.
		sg, err := segmentationIn(tx, sv.TeamID)
		if err != nil {
			return "", err
		}
		mark, err := storedMark(sg.Gen, gen, buckets)
		if err != nil {
			return "", fmt.Errorf("delete response %s: %w", id, err)
		}
		counts = append(counts, store.SegmentCounts(mark, counts)...)
	}
	for _, c := range counts {
		s.op.rating(sv.ID, c.Key, c.N, created, -1)
	}
	st := s.op.statsOf(sv.ID)
	st.responses--
	if finished {
		st.finished--
	}
	for _, q := range []string{
		// The respondent stops counting once their last response is gone.
		`UPDATE survey_stats SET unique_responders = unique_responders - 1
			WHERE survey_id = ?1 AND NOT EXISTS (SELECT 1 FROM responses WHERE survey_id = ?1 AND respondent = ?2)`,
		// History's last response time: the remaining responses' creations come from the
		// respondent index; their updates, kept here, are recounted from what remains.
		`UPDATE respondents SET last_responded_at = (SELECT MAX(updated_at) FROM responses WHERE survey_id = ?1 AND respondent = ?2)
			WHERE survey_id = ?1 AND respondent = ?2`,
	} {
		if _, err := tx.Exec(q, sv.ID, respondent); err != nil {
			return "", s.mapErr(err, "delete response "+id)
		}
	}
	if _, err := tx.Exec(`DELETE FROM deliveries WHERE survey_id = ? AND response_id = ?`, sv.ID, id); err != nil {
		return "", s.mapErr(err, "delete response "+id)
	}
	return respondent, nil
}

// EraseRespondent implements store.Store: one transaction over every survey of the team.
func (s *Store) EraseRespondent(ctx context.Context, teamID, respondent string) (store.Erased, error) {
	if err := s.checkOpen("erase respondent"); err != nil {
		return store.Erased{}, err
	}
	rows, err := s.rdb.QueryContext(ctx, `SELECT `+sqlrow.SurveyColumns+` FROM surveys WHERE team_id = ?`, teamID)
	if err != nil {
		return store.Erased{}, s.mapErr(err, "erase respondent")
	}
	var surveys []store.Survey
	for rows.Next() {
		sv, err := sqlrow.ScanSurvey(rows)
		if err != nil {
			rows.Close()
			return store.Erased{}, s.mapErr(err, "erase respondent")
		}
		surveys = append(surveys, sv)
	}
	if err := rows.Close(); err != nil {
		return store.Erased{}, s.mapErr(err, "erase respondent")
	}
	var erased store.Erased
	defer s.persons.Drop(respondent)
	err = s.write(ctx, func(tx *sql.Tx) error {
		erased = store.Erased{} // the write may run again
		for _, q := range []string{`DELETE FROM person_attributes WHERE team_id = ? AND respondent = ?`,
			`DELETE FROM prompts WHERE team_id = ? AND respondent = ?`} {
			if _, err := tx.Exec(q, teamID, respondent); err != nil {
				return s.mapErr(err, "erase respondent")
			}
		}
		for _, sv := range surveys {
			n, err := s.eraseIn(tx, sv, respondent)
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

// eraseEvents deletes a respondent's events of a survey in tx, takes them out of the event
// counts, and counts them.
func (s *Store) eraseEvents(tx *sql.Tx, surveyID, respondent string) (views, dismissals int64, err error) {
	rows, err := tx.Query(`DELETE FROM events WHERE survey_id = ? AND respondent = ? RETURNING type, created_at`, surveyID, respondent)
	if err != nil {
		return 0, 0, s.mapErr(err, "erase respondent")
	}
	defer rows.Close()
	for rows.Next() {
		var typ string
		var at int64
		if err := rows.Scan(&typ, &at); err != nil {
			return 0, 0, s.mapErr(err, "erase respondent")
		}
		if store.EventType(typ) == store.EventView {
			views++
		} else {
			dismissals++
		}
		c := store.EventCount(store.EventType(typ))
		s.op.rating(surveyID, c.Key, c.N, at, -1)
	}
	return views, dismissals, s.mapErr(rows.Err(), "erase respondent")
}

// eraseIn erases a respondent from one survey in tx.
func (s *Store) eraseIn(tx *sql.Tx, sv store.Survey, respondent string) (store.Erased, error) {
	var ids []string
	rows, err := tx.Query(`SELECT id FROM responses WHERE survey_id = ? AND respondent = ?`, sv.ID, respondent)
	if err != nil {
		return store.Erased{}, s.mapErr(err, "erase respondent")
	}
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return store.Erased{}, s.mapErr(err, "erase respondent")
		}
		ids = append(ids, id)
	}
	if err := rows.Close(); err != nil {
		return store.Erased{}, s.mapErr(err, "erase respondent")
	}
	for _, id := range ids {
		if _, err := s.deleteResponse(tx, sv, id); err != nil {
			return store.Erased{}, err
		}
	}
	views, dismissals, err := s.eraseEvents(tx, sv.ID, respondent)
	if err != nil {
		return store.Erased{}, err
	}
	if _, err := tx.Exec(`DELETE FROM respondents WHERE survey_id = ? AND respondent = ?`, sv.ID, respondent); err != nil {
		return store.Erased{}, s.mapErr(err, "erase respondent")
	}
	// Each kind of event counted its respondent once, at their first.
	st := s.op.statsOf(sv.ID)
	st.views -= views
	st.dismissals -= dismissals
	st.uniqueViewers -= min(views, 1)
	st.uniqueDismissers -= min(dismissals, 1)
	return store.Erased{Responses: len(ids), Events: int(views + dismissals)}, nil
}
