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
		first, err := s.touchRespondent(tx, e.SurveyID, e.Respondent, column, at)
		if err != nil {
			return err
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

// bounds reads the first and last creation time in a table of the survey's rows. Two
// subqueries: SQLite answers a lone MIN or MAX from the index end, but scans every row for
// both in one.
func (s *Store) bounds(ctx context.Context, table, surveyID string) ([2]sql.NullInt64, error) {
	var b [2]sql.NullInt64
	err := s.rdb.QueryRowContext(ctx, `SELECT
		(SELECT MIN(created_at) FROM `+table+` WHERE survey_id = +?1),
		(SELECT MAX(created_at) FROM `+table+` WHERE survey_id = +?1)`,
		surveyID).Scan(&b[0], &b[1])
	return b, s.mapErr(err, "rating counts")
}

// ratingSource reads one question's rollups and answers for rollup.Count.
type ratingSource struct {
	s             *Store
	surveyID, qid string
}

func (r ratingSource) Totals(ctx context.Context, counts map[int]int64, sign int64) error {
	return r.s.addCounts(ctx, counts, sign, `SELECT score, n FROM rating_totals WHERE survey_id = +? AND question_id = +?`, r.surveyID, r.qid)
}

func (r ratingSource) Buckets(ctx context.Context, counts map[int]int64, sign int64, level int, first, end int64) error {
	t := rollups[level]
	return r.s.addCounts(ctx, counts, sign, `SELECT score, SUM(n) FROM `+t.table+` WHERE survey_id = +? AND question_id = +?
		AND `+t.column+` >= ? AND `+t.column+` < ? GROUP BY score`, r.surveyID, r.qid, first, end)
}

func (r ratingSource) Answers(ctx context.Context, counts map[int]int64, sign int64, lo, hi int64) error {
	switch {
	case r.qid == store.EventsKey:
		return r.s.addCounts(ctx, counts, sign, `SELECT CASE type WHEN 'view' THEN 0 ELSE 1 END, COUNT(*) FROM events
			WHERE survey_id = ? AND created_at >= ? AND created_at < ? GROUP BY 1`, r.surveyID, lo, hi)
	case store.IsCountKey(r.qid):
		return r.s.addStoredCounts(ctx, counts, sign, r.surveyID, r.qid, lo, hi)
	}
	return r.s.addCounts(ctx, counts, sign, `SELECT json_extract(data, ?1), COUNT(*) FROM responses
		WHERE survey_id = +?2 AND created_at >= ?3 AND created_at < ?4 AND json_type(data, ?1) = 'integer'
		GROUP BY 1`, jsonPath(r.qid), r.surveyID, lo, hi)
}

// addStoredCounts adds sign times the counts under key of the responses created in [lo, hi),
// worked out from their stored answers as the writes did (store.Counts): less than a minute of
// responses at a range's edge.
func (s *Store) addStoredCounts(ctx context.Context, counts map[int]int64, sign int64, surveyID, key string, lo, hi int64) error {
	sv, err := s.surveyByID(ctx, surveyID)
	if err != nil {
		return err
	}
	rows, err := s.rdb.QueryContext(ctx, `SELECT data, finished FROM responses WHERE survey_id = ? AND created_at >= ? AND created_at < ?`,
		surveyID, lo, hi)
	if err != nil {
		return s.mapErr(err, "answer counts")
	}
	defer rows.Close()
	for rows.Next() {
		var data []byte
		var finished bool
		if err := rows.Scan(&data, &finished); err != nil {
			return s.mapErr(err, "answer counts")
		}
		if err := sqlrow.AddKeyCounts(counts, sign, &sv.Definition, key, data, finished); err != nil {
			return err
		}
	}
	return s.mapErr(rows.Err(), "answer counts")
}

// jsonPath is the SQLite JSON path of a top-level member, its name quoted and escaped.
func jsonPath(key string) string {
	var b strings.Builder
	b.WriteString(`$."`)
	for _, r := range key {
		if r == '"' || r == '\\' {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	b.WriteByte('"')
	return b.String()
}

// addCounts adds sign times the (score, n) rows of query to counts, dropping scores that
// come to zero.
func (s *Store) addCounts(ctx context.Context, counts map[int]int64, sign int64, query string, args ...any) error {
	rows, err := s.rdb.QueryContext(ctx, query, args...)
	if err != nil {
		return s.mapErr(err, "rating counts")
	}
	defer rows.Close()
	for rows.Next() {
		var score int
		var n int64
		if err := rows.Scan(&score, &n); err != nil {
			return s.mapErr(err, "rating counts")
		}
		counts[score] += sign * n
		if counts[score] == 0 {
			delete(counts, score)
		}
	}
	return s.mapErr(rows.Err(), "rating counts")
}
