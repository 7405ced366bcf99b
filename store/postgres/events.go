package postgres

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/svc-feedback/svc/store"
	"github.com/svc-feedback/svc/store/internal/sqlrow"
)

// RecordEvent implements store.Store: a new event joins a writer's next batch (see writer.go),
// two round trips when it runs alone; an imported one is inserted unless it was before.
func (s *Store) RecordEvent(ctx context.Context, e store.Event) error {
	if e.Type != store.EventView && e.Type != store.EventDismiss {
		return fmt.Errorf("record event: %w", store.Invalidf("type %q is not view or dismiss", e.Type))
	}
	if err := s.checkOpen("record event"); err != nil {
		return err
	}
	if !e.Imported {
		op := &writeOp{event: &e}
		s.write(ctx, op)
		return op.err
	}
	return s.tx(ctx, "record event", func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, `INSERT INTO events (survey_id, respondent, type, created_at, imported) VALUES ($1, $2, $3, $4, true)
			ON CONFLICT (survey_id, respondent, type, created_at) WHERE imported DO NOTHING`,
			e.SurveyID, e.Respondent, string(e.Type), sqlrow.MS(e.At))
		if err != nil {
			return err
		}
		if tag.RowsAffected() == 0 {
			return nil // an imported event seen before
		}
		f := newFollowUps()
		f.event(e)
		var b pgx.Batch
		f.queue(&b, rowOf(tx.Conn()))
		queuePersons(&b, []string{e.Respondent})
		return tx.SendBatch(ctx, &b).Close()
	})
}

// History implements store.Store.
func (s *Store) History(ctx context.Context, surveyID, respondent string) (store.History, error) {
	if err := s.checkOpen("read history"); err != nil {
		return store.History{}, err
	}
	var responded, viewed, dismissed *int64
	err := s.pool.QueryRow(ctx, `SELECT last_responded_at, last_viewed_at, last_dismissed_at FROM respondents
		WHERE survey_id = $1 AND respondent = $2`, surveyID, respondent).Scan(&responded, &viewed, &dismissed)
	if err == pgx.ErrNoRows {
		return store.History{}, nil
	}
	if err != nil {
		return store.History{}, s.mapErr(err, "respondent history")
	}
	return store.History{LastRespondedAt: sqlrow.FromNullMS(responded), LastViewedAt: sqlrow.FromNullMS(viewed), LastDismissedAt: sqlrow.FromNullMS(dismissed)}, nil
}

// Stats implements store.Store: the sums of the survey's counter rows.
func (s *Store) Stats(ctx context.Context, surveyID string) (store.Stats, error) {
	if err := s.checkOpen("read stats"); err != nil {
		return store.Stats{}, err
	}
	var (
		st   store.Stats
		rows int
	)
	err := s.read(surveyID, func(pool *pgxpool.Pool) error {
		return pool.QueryRow(ctx, `SELECT COUNT(*), COALESCE(SUM(views), 0), COALESCE(SUM(unique_viewers), 0),
			COALESCE(SUM(dismissals), 0), COALESCE(SUM(unique_dismissers), 0), COALESCE(SUM(responses), 0),
			COALESCE(SUM(unique_responders), 0), COALESCE(SUM(finished), 0) FROM survey_stats WHERE survey_id = $1`, surveyID).Scan(&rows,
			&st.TotalViews, &st.UniqueViewers, &st.TotalDismissals, &st.UniqueDismissers, &st.TotalResponses, &st.UniqueResponders,
			&st.FinishedResponses)
	})
	if err != nil {
		return store.Stats{}, s.mapErr(err, "stats of survey "+surveyID)
	}
	if rows == 0 {
		return store.Stats{}, fmt.Errorf("stats of survey %s: %w", surveyID, store.ErrNotFound)
	}
	return st, nil
}
