package postgres

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/svc-feedback/svc/internal/answerjson"
	"github.com/svc-feedback/svc/store"
	"github.com/svc-feedback/svc/store/internal/countlog"
	"github.com/svc-feedback/svc/store/internal/rollup"
	"github.com/svc-feedback/svc/store/internal/sqlrow"
)

// rollupTables are the per-bucket rating count tables, in the order of rollup.Sizes.
var rollupTables = []string{"rating_days", "rating_hours", "rating_minutes"}

// queueRatings queues logging delta added to each count at the minute of createdAt (see
// fold.go).
func queueRatings(b *pgx.Batch, surveyID string, sc []store.Count, createdAt int64, delta int) {
	c := countlog.Changes{}
	addChanges(c, surveyID, sc, createdAt, int64(delta))
	queueLog(b, c)
}

// addChanges adds delta to each count of sc at the minute of createdAt.
func addChanges(c countlog.Changes, surveyID string, sc []store.Count, createdAt int64, delta int64) {
	for _, k := range sc {
		c.Add(surveyID, k.Key, k.N, createdAt, delta)
	}
}

// queueLog queues the changes' rows of the count log, one per survey, and reports how many
// changes they hold.
func queueLog(b *pgx.Batch, c countlog.Changes) int {
	n := 0
	for surveyID, m := range c {
		if len(m) == 0 {
			continue
		}
		b.Queue(`INSERT INTO count_log (survey_id, changes) VALUES ($1, $2)`, surveyID, countlog.Encode(nil, m))
		n += len(m)
	}
	return n
}

// queueFold queues adding the changes to the rollups: one statement for all of them, its four
// upserts reading the changes as arrays, each summing them to its own bucket size (one
// statement may not upsert a row twice) and taking its rows in one order.
func queueFold(b *pgx.Batch, c countlog.Changes) {
	n := c.Len()
	if n == 0 {
		return
	}
	surveys, keys := make([]string, 0, n), make([]string, 0, n)
	scores, deltas := make([]int32, 0, n), make([]int64, 0, n)
	days, hours, minutes := make([]int64, 0, n), make([]int64, 0, n), make([]int64, 0, n)
	for surveyID, m := range c {
		for k, v := range m {
			if v == 0 {
				continue
			}
			surveys, keys, scores, deltas = append(surveys, surveyID), append(keys, k.Name), append(scores, int32(k.Score)), append(deltas, v)
			ms := k.Minute * rollup.MinuteMS
			days = append(days, rollup.FloorDiv(ms, rollup.DayMS))
			hours = append(hours, rollup.FloorDiv(ms, rollup.HourMS))
			minutes = append(minutes, k.Minute)
		}
	}
	if len(surveys) > 0 {
		b.Queue(upsertRatings, surveys, keys, scores, deltas, days, hours, minutes, 0)
	}
}

// upsertRatings adds $4[i] to score $3[i] of key $2[i] of survey $1[i], on shard $8, in the
// totals and at day $5[i], hour $6[i] and minute $7[i]. (The rollups' rows have shards from
// when every writer updated them; the folder, alone, writes shard 0.)
var upsertRatings = `WITH
	input AS (SELECT * FROM unnest($1::text[], $2::text[], $3::int[], $4::bigint[], $5::bigint[], $6::bigint[], $7::bigint[])
		AS t(survey_id, question_id, score, n, day, hour, minute)),
	totals AS (INSERT INTO rating_totals (survey_id, question_id, score, shard, n)
		SELECT survey_id, question_id, score, $8, SUM(n)::bigint FROM input GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
		ON CONFLICT (survey_id, question_id, score, shard) DO UPDATE SET n = rating_totals.n + excluded.n),
	days AS (INSERT INTO rating_days (survey_id, question_id, bucket, score, shard, n)
		SELECT survey_id, question_id, day, score, $8, SUM(n)::bigint FROM input GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
		ON CONFLICT (survey_id, question_id, bucket, score, shard) DO UPDATE SET n = rating_days.n + excluded.n),
	hours AS (INSERT INTO rating_hours (survey_id, question_id, bucket, score, shard, n)
		SELECT survey_id, question_id, hour, score, $8, SUM(n)::bigint FROM input GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
		ON CONFLICT (survey_id, question_id, bucket, score, shard) DO UPDATE SET n = rating_hours.n + excluded.n)
	INSERT INTO rating_minutes (survey_id, question_id, bucket, score, shard, n)
		SELECT survey_id, question_id, minute, score, $8, SUM(n)::bigint FROM input GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
		ON CONFLICT (survey_id, question_id, bucket, score, shard) DO UPDATE SET n = rating_minutes.n + excluded.n`

// Counts implements store.Store with store/internal/rollup: whole days, hours and
// minutes from the rollups, and only the partial minutes at a range's edges from the answers,
// so its cost does not grow with the number of responses. The count log's changes not yet
// folded are added to the rollups'; everything is read in one snapshot (a read-only repeatable
// read transaction), in which a fold is seen whole or not at all.
func (s *Store) Counts(ctx context.Context, surveyID string, questionIDs []string, from, to time.Time) (map[string]map[int]int64, error) {
	out, err := s.countPeriods(ctx, surveyID, questionIDs, []int64{sqlrow.MS(from), sqlrow.MS(to)})
	if err != nil {
		return nil, err
	}
	return out[0], nil
}

var _ store.PeriodCounter = (*Store)(nil)

// PeriodCounts implements store.PeriodCounter: the periods' counts as Counts reads them, in one
// snapshot, with the days of all the periods read in one query per key.
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
	var out []map[string]map[int]int64
	err := s.read(surveyID, func(pool *pgxpool.Pool) error {
		return pgx.BeginTxFunc(ctx, pool, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly}, func(tx pgx.Tx) error {
			var err error
			out, err = s.counts(ctx, tx, surveyID, questionIDs, bounds)
			return err
		})
	})
	if err != nil {
		return nil, s.mapErr(err, "rating counts")
	}
	return out, nil
}

func (s *Store) counts(ctx context.Context, tx pgx.Tx, surveyID string, questionIDs []string, bounds []int64) ([]map[string]map[int]int64, error) {
	var unfolded countlog.Unfolded
	rows, err := tx.Query(ctx, `SELECT changes FROM count_log WHERE survey_id = $1`, surveyID)
	if err != nil {
		return nil, err
	}
	for rows.Next() {
		var b []byte
		if err := rows.Scan(&b); err != nil {
			return nil, err
		}
		if err := unfolded.Add(b); err != nil {
			rows.Close()
			return nil, err
		}
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	// The survey's first and last response bound every question's counts; its first and last
	// event, the events'.
	var first, last, firstEvent, lastEvent *int64
	err = tx.QueryRow(ctx, `SELECT
		(SELECT MIN(created_at) FROM responses WHERE survey_id = $1),
		(SELECT MAX(created_at) FROM responses WHERE survey_id = $1),
		(SELECT MIN(created_at) FROM events WHERE survey_id = $1),
		(SELECT MAX(created_at) FROM events WHERE survey_id = $1)`, surveyID).Scan(&first, &last, &firstEvent, &lastEvent)
	if err != nil {
		return nil, err
	}
	out, keys := sqlrow.NewPeriodCounts(len(bounds)-1, questionIDs)
	each := make([]map[int]int64, len(bounds)-1)
	for _, qid := range keys {
		first, last := first, last
		if qid == store.EventsKey {
			first, last = firstEvent, lastEvent
		}
		if first == nil {
			continue // nothing to count
		}
		for i := range each {
			each[i] = out[i][qid]
		}
		wrap := func(src rollup.Source) rollup.Source { return unfolded.Source(src, qid) }
		if err := rollup.CountEach(ctx, ratingSource{s, tx, surveyID, qid}, wrap, each, bounds, *first, *last); err != nil {
			return nil, err
		}
		for _, counts := range each {
			for k, n := range counts {
				if n == 0 {
					delete(counts, k)
				}
			}
		}
	}
	return out, nil
}

// ratingSource reads one question's rollups and answers for rollup.Count, in a transaction.
type ratingSource struct {
	s             *Store
	tx            pgx.Tx
	surveyID, qid string
}

func (r ratingSource) Totals(ctx context.Context, counts map[int]int64, sign int64) error {
	return addCounts(ctx, r.tx, counts, sign, `SELECT score, SUM(n) FROM rating_totals WHERE survey_id = $1 AND question_id = $2
		GROUP BY score`, r.surveyID, r.qid)
}

func (r ratingSource) Buckets(ctx context.Context, counts map[int]int64, sign int64, level int, first, end int64) error {
	return addCounts(ctx, r.tx, counts, sign, `SELECT score, SUM(n) FROM `+rollupTables[level]+`
		WHERE survey_id = $1 AND question_id = $2 AND bucket >= $3 AND bucket < $4 GROUP BY score`, r.surveyID, r.qid, first, end)
}

// DaySpans implements rollup.SpanReader: the spans, sent as two arrays, joined with the day
// rollup, each span's days found through its index.
func (r ratingSource) DaySpans(ctx context.Context, spans []rollup.Span, add func(span int, score int, n int64)) error {
	firsts, ends := make([]int64, len(spans)), make([]int64, len(spans))
	for i, sp := range spans {
		firsts[i], ends[i] = sp.First, sp.End
	}
	// Summed in a LATERAL subquery, each span reads its own days through the key; as a join,
	// the planner may read every day of the question and match each with every span.
	rows, err := r.tx.Query(ctx, `SELECT s.i - 1, d.score, d.n
		FROM unnest($3::bigint[], $4::bigint[]) WITH ORDINALITY AS s (first, "end", i)
		CROSS JOIN LATERAL (SELECT score, SUM(n)::bigint AS n FROM rating_days
			WHERE survey_id = $1 AND question_id = $2 AND bucket >= s.first AND bucket < s."end" GROUP BY score) AS d`,
		r.surveyID, r.qid, firsts, ends)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var i int64
		var score int
		var n int64
		if err := rows.Scan(&i, &score, &n); err != nil {
			return err
		}
		add(int(i), score, n)
	}
	return rows.Err()
}

func (r ratingSource) Answers(ctx context.Context, counts map[int]int64, sign int64, lo, hi int64) error {
	switch {
	case r.qid == store.EventsKey:
		return addCounts(ctx, r.tx, counts, sign, `SELECT CASE type WHEN 'view' THEN 0 ELSE 1 END, COUNT(*) FROM events
			WHERE survey_id = $1 AND created_at >= $2 AND created_at < $3 GROUP BY 1`, r.surveyID, lo, hi)
	case store.IsCountKey(r.qid):
		return r.s.addStoredCounts(ctx, r.tx, counts, sign, r.surveyID, r.qid, lo, hi)
	}
	return addCounts(ctx, r.tx, counts, sign, `SELECT (data::jsonb ->> $2)::numeric::int, COUNT(*) FROM responses
		WHERE survey_id = $1 AND created_at >= $3 AND created_at < $4 AND jsonb_typeof(data::jsonb -> $2) = 'number'
		AND (data::jsonb ->> $2)::numeric = trunc((data::jsonb ->> $2)::numeric) GROUP BY 1`, r.surveyID, r.qid, lo, hi)
}

// addStoredCounts adds sign times the counts under key of the responses created in [lo, hi),
// worked out from their stored answers as the writes did (store.ResponseCounts): less than a minute of
// responses at a range's edge.
func (s *Store) addStoredCounts(ctx context.Context, tx pgx.Tx, counts map[int]int64, sign int64, surveyID, key string, lo, hi int64) error {
	sv, err := s.surveyByID(ctx, surveyID)
	if err != nil {
		return err
	}
	// A segment key (store.SegmentKey) counts its inner key of the responses counted in its
	// generation under its bucket.
	gen, index, bucket, inner, segment := store.ParseSegmentKey(key)
	if segment {
		key = inner
	}
	rows, err := tx.Query(ctx, `SELECT data, finished, seg_gen, seg_buckets FROM responses WHERE survey_id = $1 AND created_at >= $2 AND created_at < $3`,
		surveyID, lo, hi)
	if err != nil {
		return err
	}
	defer rows.Close()
	var answers answerjson.Reader
	for rows.Next() {
		var (
			data, buckets string
			finished      bool
			rowGen        int64
		)
		if err := rows.Scan(&data, &finished, &rowGen, &buckets); err != nil {
			return err
		}
		if segment {
			m, err := store.DecodeMark(rowGen, buckets)
			if err != nil {
				return err
			}
			if rowGen != gen || index >= len(m.Buckets) || m.Buckets[index] == nil || *m.Buckets[index] != bucket {
				continue
			}
		}
		if err := sqlrow.AddKeyCounts(&answers, counts, sign, &sv.Definition, key, []byte(data), finished); err != nil {
			return err
		}
	}
	return rows.Err()
}

// addCounts adds sign times the (score, n) rows of query to counts.
func addCounts(ctx context.Context, tx pgx.Tx, counts map[int]int64, sign int64, query string, args ...any) error {
	rows, err := tx.Query(ctx, query, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var score int
		var n int64
		if err := rows.Scan(&score, &n); err != nil {
			return err
		}
		counts[score] += sign * n
	}
	return rows.Err()
}
