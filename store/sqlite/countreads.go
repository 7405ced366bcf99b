package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/svc-feedback/svc/internal/answerjson"
	"github.com/svc-feedback/svc/store"
	"github.com/svc-feedback/svc/store/internal/countlog"
	"github.com/svc-feedback/svc/store/internal/rollup"
	"github.com/svc-feedback/svc/store/internal/sqlrow"
)

// Counts implements store.Store. The range is first narrowed to the question's first
// and last rating. When what lies outside it is shorter than the range itself, the counts are
// the lifetime totals minus the outside (so all-time reads a few rows); otherwise the range is
// counted directly. Either way whole UTC days come from the per-day rollup, whole hours of the
// edge days from the per-hour rollup, whole minutes of the edge hours from the per-minute
// rollup, and only partial minutes from the responses' stored answers: the cost grows with
// days of history at most, not with the number of responses. The changes of the count log not
// yet folded are added to what the rollups hold; everything is read in one transaction, so a
// fold running meanwhile is seen whole or not at all.
func (s *Store) Counts(ctx context.Context, surveyID string, questionIDs []string, from, to time.Time) (map[string]map[int]int64, error) {
	out, err := s.countPeriods(ctx, surveyID, questionIDs, []int64{sqlrow.MS(from), sqlrow.MS(to)})
	if err != nil {
		return nil, err
	}
	return out[0], nil
}

var _ store.PeriodCounter = (*Store)(nil)

// PeriodCounts implements store.PeriodCounter: the periods' counts as Counts reads them, in one
// transaction, with the days of all the periods read in one query per key.
func (s *Store) PeriodCounts(ctx context.Context, surveyID string, questionIDs []string, bounds []time.Time) ([]map[string]map[int]int64, error) {
	ms, err := sqlrow.PeriodMS(bounds)
	if err != nil {
		return nil, fmt.Errorf("period counts: %w", err)
	}
	return s.countPeriods(ctx, surveyID, questionIDs, ms)
}

// countPeriods reads the counts of each period [bounds[i], bounds[i+1]) (in milliseconds).
func (s *Store) countPeriods(ctx context.Context, surveyID string, questionIDs []string, bounds []int64) ([]map[string]map[int]int64, error) {
	if err := s.checkOpen("count ratings"); err != nil {
		return nil, err
	}
	tx, err := s.rdb.BeginTx(ctx, nil)
	if err != nil {
		return nil, s.mapErr(err, "rating counts")
	}
	defer tx.Rollback() //nolint:errcheck // a read: nothing to keep
	var unfolded countlog.Unfolded
	if err := s.readUnfolded(ctx, tx, surveyID, &unfolded); err != nil {
		return nil, err
	}
	// The survey's first and last response bound every question's counts (its first and last
	// event, the event counts): read once a table for all the keys asked.
	bounded := map[string][2]sql.NullInt64{}
	out, keys := sqlrow.NewPeriodCounts(len(bounds)-1, questionIDs)
	each := make([]map[int]int64, len(bounds)-1)
	for _, qid := range keys {
		table := "responses"
		if qid == store.EventsKey {
			table = "events"
		}
		b, ok := bounded[table]
		if !ok {
			var err error
			if b, err = s.bounds(ctx, tx, table, surveyID); err != nil {
				return nil, err
			}
			bounded[table] = b
		}
		if !b[0].Valid {
			continue // nothing to count
		}
		for i := range each {
			each[i] = out[i][qid]
		}
		wrap := func(src rollup.Source) rollup.Source { return unfolded.Source(src, qid) }
		if err := rollup.CountEach(ctx, ratingSource{s, tx, surveyID, qid}, wrap, each, bounds, b[0].Int64, b[1].Int64); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// readUnfolded reads the survey's rows of the count log into u.
func (s *Store) readUnfolded(ctx context.Context, tx *sql.Tx, surveyID string, u *countlog.Unfolded) error {
	rows, err := tx.QueryContext(ctx, `SELECT changes FROM count_log WHERE survey_id = +?`, surveyID)
	if err != nil {
		return s.mapErr(err, "rating counts")
	}
	defer rows.Close()
	for rows.Next() {
		var b []byte
		if err := rows.Scan(&b); err != nil {
			return s.mapErr(err, "rating counts")
		}
		if err := u.Add(b); err != nil {
			return err
		}
	}
	return s.mapErr(rows.Err(), "rating counts")
}

// bounds reads the first and last creation time in a table of the survey's rows. Two
// subqueries: SQLite answers a lone MIN or MAX from the index end, but scans every row for
// both in one.
func (s *Store) bounds(ctx context.Context, tx *sql.Tx, table, surveyID string) ([2]sql.NullInt64, error) {
	var b [2]sql.NullInt64
	err := tx.QueryRowContext(ctx, `SELECT
		(SELECT MIN(created_at) FROM `+table+` WHERE survey_id = +?1),
		(SELECT MAX(created_at) FROM `+table+` WHERE survey_id = +?1)`,
		surveyID).Scan(&b[0], &b[1])
	return b, s.mapErr(err, "rating counts")
}

// ratingSource reads one question's rollups and answers for rollup.Count, in a read
// transaction.
type ratingSource struct {
	s             *Store
	tx            *sql.Tx
	surveyID, qid string
}

func (r ratingSource) Totals(ctx context.Context, counts map[int]int64, sign int64) error {
	return r.s.addCounts(ctx, r.tx, counts, sign, `SELECT score, n FROM rating_totals WHERE survey_id = +? AND question_id = +?`, r.surveyID, r.qid)
}

func (r ratingSource) Buckets(ctx context.Context, counts map[int]int64, sign int64, level int, first, end int64) error {
	t := rollups[level]
	return r.s.addCounts(ctx, r.tx, counts, sign, `SELECT score, SUM(n) FROM `+t.table+` WHERE survey_id = +? AND question_id = +?
		AND `+t.column+` >= ? AND `+t.column+` < ? GROUP BY score`, r.surveyID, r.qid, first, end)
}

// DaySpans implements rollup.SpanReader: the spans, sent as a JSON array of [first, end]
// pairs, joined with the day rollup, each span's days found through its index.
func (r ratingSource) DaySpans(ctx context.Context, spans []rollup.Span, add func(span int, score int, n int64)) error {
	rows, err := r.tx.QueryContext(ctx, daySpansQuery, spanJSON(spans), r.surveyID, r.qid)
	if err != nil {
		return r.s.mapErr(err, "rating counts")
	}
	defer rows.Close()
	for rows.Next() {
		var i, score int
		var n int64
		if err := rows.Scan(&i, &score, &n); err != nil {
			return r.s.mapErr(err, "rating counts")
		}
		add(i, score, n)
	}
	return r.s.mapErr(rows.Err(), "rating counts")
}

// daySpansQuery sums the day rollup's counts of a question (?2, ?3) by score in each span of
// ?1 (see spanJSON). The CROSS JOIN keeps the spans outside: SQLite would otherwise read every
// day of the question and scan the spans for each.
const daySpansQuery = `WITH spans (i, first, end) AS (SELECT key, value ->> 0, value ->> 1 FROM json_each(?1))
	SELECT spans.i, d.score, SUM(d.n) FROM spans CROSS JOIN rating_days AS d
		ON d.survey_id = +?2 AND d.question_id = +?3 AND d.day >= spans.first AND d.day < spans.end
	GROUP BY spans.i, d.score`

// spanJSON is spans as a JSON array of [first, end] pairs.
func spanJSON(spans []rollup.Span) string {
	b := make([]byte, 0, 2+len(spans)*24)
	b = append(b, '[')
	for i, sp := range spans {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(strconv.AppendInt(append(b, '['), sp.First, 10), ',')
		b = append(strconv.AppendInt(b, sp.End, 10), ']')
	}
	return string(append(b, ']'))
}

func (r ratingSource) Answers(ctx context.Context, counts map[int]int64, sign int64, lo, hi int64) error {
	switch {
	case r.qid == store.EventsKey:
		return r.s.addCounts(ctx, r.tx, counts, sign, `SELECT CASE type WHEN 'view' THEN 0 ELSE 1 END, COUNT(*) FROM events
			WHERE survey_id = ? AND created_at >= ? AND created_at < ? GROUP BY 1`, r.surveyID, lo, hi)
	case store.IsCountKey(r.qid):
		return r.s.addStoredCounts(ctx, r.tx, counts, sign, r.surveyID, r.qid, lo, hi)
	}
	return r.s.addCounts(ctx, r.tx, counts, sign, `SELECT json_extract(data, ?1), COUNT(*) FROM responses
		WHERE survey_id = +?2 AND created_at >= ?3 AND created_at < ?4 AND json_type(data, ?1) = 'integer'
		GROUP BY 1`, jsonPath(r.qid), r.surveyID, lo, hi)
}

// addStoredCounts adds sign times the counts under key of the responses created in [lo, hi),
// worked out from their stored answers as the writes did (store.ResponseCounts): less than a minute of
// responses at a range's edge.
func (s *Store) addStoredCounts(ctx context.Context, tx *sql.Tx, counts map[int]int64, sign int64, surveyID, key string, lo, hi int64) error {
	sv, err := s.surveyByID(ctx, surveyID)
	if err != nil {
		return err
	}
	if _, _, _, _, ok := store.ParseSegmentKey(key); ok {
		return s.addSegmentCounts(ctx, tx, counts, sign, sv, key, lo, hi)
	}
	rows, err := tx.QueryContext(ctx, `SELECT data, finished FROM responses WHERE survey_id = ? AND created_at >= ? AND created_at < ?`,
		surveyID, lo, hi)
	if err != nil {
		return s.mapErr(err, "answer counts")
	}
	defer rows.Close()
	var answers answerjson.Reader
	for rows.Next() {
		var data []byte
		var finished bool
		if err := rows.Scan(&data, &finished); err != nil {
			return s.mapErr(err, "answer counts")
		}
		if err := sqlrow.AddKeyCounts(&answers, counts, sign, &sv.Definition, key, data, finished); err != nil {
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
func (s *Store) addCounts(ctx context.Context, tx *sql.Tx, counts map[int]int64, sign int64, query string, args ...any) error {
	rows, err := tx.QueryContext(ctx, query, args...)
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
