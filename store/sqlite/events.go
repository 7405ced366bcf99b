package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"time"

	"github.com/svc-feedback/svc/store"
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
	at := ms(e.At)
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
	var responded, viewed, dismissed sql.NullInt64
	err := s.rdb.QueryRowContext(ctx, `SELECT MAX(responded), MAX(viewed), MAX(dismissed) FROM (
		SELECT last_responded_at AS responded, last_viewed_at AS viewed, last_dismissed_at AS dismissed
		FROM respondents WHERE survey_id = +?1 AND respondent = +?2
		UNION ALL
		SELECT MAX(created_at), NULL, NULL FROM responses WHERE survey_id = +?1 AND respondent = +?2)`,
		surveyID, respondent).Scan(&responded, &viewed, &dismissed)
	if err != nil {
		return store.History{}, s.mapErr(err, "respondent history")
	}
	return store.History{LastRespondedAt: fromNullMS(responded), LastViewedAt: fromNullMS(viewed), LastDismissedAt: fromNullMS(dismissed)}, nil
}

// Stats implements store.Store.
func (s *Store) Stats(ctx context.Context, surveyID string) (store.Stats, error) {
	if err := s.checkOpen("read stats"); err != nil {
		return store.Stats{}, err
	}
	var st store.Stats
	err := s.rdb.QueryRowContext(ctx, `SELECT views, unique_viewers, dismissals, unique_dismissers, responses, unique_responders
		FROM survey_stats WHERE survey_id = ?`, surveyID).Scan(&st.TotalViews, &st.UniqueViewers, &st.TotalDismissals,
		&st.UniqueDismissers, &st.TotalResponses, &st.UniqueResponders)
	if err != nil {
		return store.Stats{}, s.mapErr(err, "stats of survey "+surveyID)
	}
	return st, nil
}

// RatingCounts implements store.Store. The range is first narrowed to the question's first
// and last rating. When what lies outside it is shorter than the range itself, the counts are
// the lifetime totals minus the outside (so all-time reads a few rows); otherwise the range is
// counted directly. Either way whole UTC days come from the per-day rollup, whole hours of the
// edge days from the per-hour rollup, whole minutes of the edge hours from the per-minute
// rollup, and only partial minutes from the responses' stored answers: the cost grows with
// days of history at most, not with the number of responses.
func (s *Store) RatingCounts(ctx context.Context, surveyID string, questionIDs []string, from, to time.Time) (map[string]map[int]int64, error) {
	if err := s.checkOpen("count ratings"); err != nil {
		return nil, err
	}
	out := make(map[string]map[int]int64, len(questionIDs))
	for _, qid := range questionIDs {
		counts := make(map[int]int64)
		out[qid] = counts
		if err := s.countQuestion(ctx, counts, surveyID, qid, ms(from), ms(to)); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func (s *Store) countQuestion(ctx context.Context, counts map[int]int64, surveyID, qid string, lo, hi int64) error {
	var first, last sql.NullInt64
	// The survey's first and last response bound every question's ratings. Two subqueries:
	// SQLite answers a lone MIN or MAX from the index end, but scans every row for both in one.
	err := s.rdb.QueryRowContext(ctx, `SELECT
		(SELECT MIN(created_at) FROM responses WHERE survey_id = +?1),
		(SELECT MAX(created_at) FROM responses WHERE survey_id = +?1)`,
		surveyID).Scan(&first, &last)
	if err != nil {
		return s.mapErr(err, "rating counts")
	}
	if !first.Valid {
		return nil // no ratings at all
	}
	// The data lies in [first, last], so within the whole days [dataLo, dataHi). An edge of
	// the range outside the data may move anywhere outside it without changing the counts: to
	// the day's bound, so that it needs no finer rollup, and above all no reading of the
	// responses of a partial minute, which after a burst of writes can hold hundreds of
	// thousands (capping the range at the last response did exactly that).
	day := rollups[0].size
	dataLo, dataHi := floorDiv(first.Int64, day)*day, (floorDiv(last.Int64, day)+1)*day
	if lo <= first.Int64 {
		lo = dataLo
	}
	if hi > last.Int64 {
		hi = dataHi
	}
	if hi <= lo {
		return nil
	}
	if outside := (lo - dataLo) + (dataHi - hi); outside < hi-lo {
		if err := s.addCounts(ctx, counts, 1, `SELECT score, n FROM rating_totals WHERE survey_id = +? AND question_id = +?`, surveyID, qid); err != nil {
			return err
		}
		if err := s.countRange(ctx, counts, -1, surveyID, qid, dataLo, lo, 0); err != nil {
			return err
		}
		return s.countRange(ctx, counts, -1, surveyID, qid, hi, dataHi, 0)
	}
	return s.countRange(ctx, counts, 1, surveyID, qid, lo, hi, 0)
}

// countRange adds sign times the counts of [lo, hi), using rollup level for whole buckets
// and finer levels for the rest. A bucket that the range covers only in part is counted at the
// finer level, or, when the range covers more than half of it, as the whole bucket minus the
// part outside the range: either way the finer level reads at most half a bucket, and where
// rollups are dense (every score in every hour), that halves what the edges of a range cost.
func (s *Store) countRange(ctx context.Context, counts map[int]int64, sign int64, surveyID, qid string, lo, hi int64, level int) error {
	if hi <= lo {
		return nil
	}
	if level == len(rollups) {
		// Less than a minute at an edge of the range: read the scores from the responses.
		path := jsonPath(qid)
		return s.addCounts(ctx, counts, sign, `SELECT json_extract(data, ?1), COUNT(*) FROM responses
			WHERE survey_id = +?2 AND created_at >= ?3 AND created_at < ?4 AND json_type(data, ?1) = 'integer'
			GROUP BY 1`, path, surveyID, lo, hi)
	}
	r := rollups[level]
	first, end := floorDiv(lo+r.size-1, r.size), floorDiv(hi, r.size) // whole buckets are [first, end)
	finer := func(sign, lo, hi int64) error {
		return s.countRange(ctx, counts, sign, surveyID, qid, lo, hi, level+1)
	}
	if first > end {
		// Inside one bucket.
		bucket := end
		start, stop := bucket*r.size, (bucket+1)*r.size
		if 2*(hi-lo) <= r.size {
			return finer(sign, lo, hi)
		}
		if err := finer(-sign, start, lo); err != nil {
			return err
		}
		if err := finer(-sign, hi, stop); err != nil {
			return err
		}
		return s.addBuckets(ctx, counts, sign, r.table, r.column, surveyID, qid, bucket, bucket+1)
	}
	if lo < first*r.size { // a part of bucket first-1
		if 2*(first*r.size-lo) <= r.size {
			if err := finer(sign, lo, first*r.size); err != nil {
				return err
			}
		} else {
			first--
			if err := finer(-sign, first*r.size, lo); err != nil {
				return err
			}
		}
	}
	if end*r.size < hi { // a part of bucket end
		if 2*(hi-end*r.size) <= r.size {
			if err := finer(sign, end*r.size, hi); err != nil {
				return err
			}
		} else {
			end++
			if err := finer(-sign, hi, end*r.size); err != nil {
				return err
			}
		}
	}
	return s.addBuckets(ctx, counts, sign, r.table, r.column, surveyID, qid, first, end)
}

// addBuckets adds sign times the counts of buckets [first, end) of a rollup.
func (s *Store) addBuckets(ctx context.Context, counts map[int]int64, sign int64, table, column, surveyID, qid string, first, end int64) error {
	if first >= end {
		return nil
	}
	return s.addCounts(ctx, counts, sign, `SELECT score, SUM(n) FROM `+table+` WHERE survey_id = +? AND question_id = +?
		AND `+column+` >= ? AND `+column+` < ? GROUP BY score`, surveyID, qid, first, end)
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
