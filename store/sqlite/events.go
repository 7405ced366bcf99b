package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"strings"

	"github.com/svc-feedback/svc/store"
	"github.com/svc-feedback/svc/store/internal/sqlrow"
)

// RecordEvent implements store.Store.
func (s *Store) RecordEvent(ctx context.Context, e store.Event) error {
	var column string
	switch e.Type {
	case store.EventView:
		column = "last_viewed_at"
	case store.EventDismiss:
		column = "last_dismissed_at"
	default:
		return fmt.Errorf("record event: %w", store.Invalidf("type %q is not view or dismiss", e.Type))
	}
	at := sqlrow.MS(e.At)
	defer s.persons.Drop(e.Respondent)
	return s.write(ctx, func(tx *sql.Tx) error {
		insert := `INSERT INTO events (survey_id, respondent, type, created_at, imported) VALUES (?, ?, ?, ?, ?)`
		if e.Imported {
			insert = strings.Replace(insert, "INSERT", "INSERT OR IGNORE", 1)
		}
		res, err := tx.Exec(insert, e.SurveyID, e.Respondent, string(e.Type), at, e.Imported)
		if err != nil {
			return s.mapErr(err, "record event")
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return nil // an imported event seen before
		}
		views := 0
		if e.Type == store.EventView {
			views = 1
		}
		first, err := s.touchRespondent(tx, e.SurveyID, e.Respondent, column, at, views)
		if err != nil {
			return err
		}
		if e.Type == store.EventView && !e.Imported {
			// A view uses up the person's prompts of the survey (store.Targeter).
			if _, err := tx.Exec(`DELETE FROM prompts WHERE survey_id = ? AND respondent = ?`, e.SurveyID, e.Respondent); err != nil {
				return s.mapErr(err, "record event")
			}
		}
		unique := int64(0)
		if first {
			unique = 1
		}
		st := s.op.statsOf(e.SurveyID)
		if e.Type == store.EventView {
			st.views++
			st.uniqueViewers += unique
		} else {
			st.dismissals++
			st.uniqueDismissers += unique
		}
		c := store.EventCount(e.Type)
		s.op.rating(e.SurveyID, c.Key, c.N, at, 1)
		return nil
	})
}

// History implements store.Store. A respondent's last response is the later of their newest
// response's creation (the first entry of their range of the respondent index, which writes
// keep anyway) and their last update of a response (kept in the respondents table, with the
// views and dismissals).
func (s *Store) History(ctx context.Context, surveyID, respondent string) (store.History, error) {
	if err := s.checkOpen("read history"); err != nil {
		return store.History{}, err
	}
	var responded, viewed, dismissed *int64
	err := s.rdb.QueryRowContext(ctx, `SELECT MAX(responded), MAX(viewed), MAX(dismissed) FROM (
		SELECT last_responded_at AS responded, last_viewed_at AS viewed, last_dismissed_at AS dismissed
		FROM respondents WHERE survey_id = +?1 AND respondent = +?2
		UNION ALL
		SELECT MAX(created_at), NULL, NULL FROM responses WHERE survey_id = +?1 AND respondent = +?2)`,
		surveyID, respondent).Scan(&responded, &viewed, &dismissed)
	if err != nil {
		return store.History{}, s.mapErr(err, "respondent history")
	}
	return store.History{LastRespondedAt: sqlrow.FromNullMS(responded), LastViewedAt: sqlrow.FromNullMS(viewed), LastDismissedAt: sqlrow.FromNullMS(dismissed)}, nil
}

// Stats implements store.Store.
func (s *Store) Stats(ctx context.Context, surveyID string) (store.Stats, error) {
	if err := s.checkOpen("read stats"); err != nil {
		return store.Stats{}, err
	}
	var st store.Stats
	err := s.rdb.QueryRowContext(ctx, `SELECT views, unique_viewers, dismissals, unique_dismissers, responses, unique_responders, finished
		FROM survey_stats WHERE survey_id = ?`, surveyID).Scan(&st.TotalViews, &st.UniqueViewers, &st.TotalDismissals,
		&st.UniqueDismissers, &st.TotalResponses, &st.UniqueResponders, &st.FinishedResponses)
	if err != nil {
		return store.Stats{}, s.mapErr(err, "stats of survey "+surveyID)
	}
	return st, nil
}
