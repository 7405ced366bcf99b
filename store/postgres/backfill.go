package postgres

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/svc-feedback/svc/internal/answerjson"
	"github.com/svc-feedback/svc/store"
	"github.com/svc-feedback/svc/store/internal/rollup"
	"github.com/svc-feedback/svc/store/internal/sqlrow"
	"github.com/svc-feedback/svc/survey"
)

// backfillChunk is how many responses the backfill counts between writes of its rollup rows, so
// its memory stays that of one chunk's buckets however long the history.
const backfillChunk = 10_000

// backfillCounts is migration 4: the summary's counts (store.ResponseCounts, and the events') of what
// was written before the writes kept them, worked out from the stored answers as the writes do.
func backfillCounts(ctx context.Context, tx pgx.Tx) error {
	rows, err := tx.Query(ctx, `SELECT id, definition FROM surveys`)
	if err != nil {
		return err
	}
	type surveyDef struct {
		id  string
		def survey.Definition
	}
	surveys, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (surveyDef, error) {
		var sd surveyDef
		var def string
		if err := r.Scan(&sd.id, &def); err != nil {
			return sd, err
		}
		if err := json.Unmarshal([]byte(def), &sd.def); err != nil {
			return sd, fmt.Errorf("survey %s: %w", sd.id, err)
		}
		sd.def.Normalize()
		return sd, nil
	})
	if err != nil {
		return err
	}
	for _, sd := range surveys {
		if err := backfillSurvey(ctx, tx, sd.id, &sd.def); err != nil {
			return fmt.Errorf("survey %s: %w", sd.id, err)
		}
	}
	return nil
}

// countRow is one count at a time, as the backfill sums them before writing.
type countRow struct {
	c  store.Count
	at int64
}

func backfillSurvey(ctx context.Context, tx pgx.Tx, surveyID string, def *survey.Definition) error {
	// The responses a page at a time (a query's rows must be read before the next statement).
	var afterAt int64 = -1 << 62
	afterID := ""
	for {
		rows, err := tx.Query(ctx, `SELECT id, data, finished, created_at FROM responses WHERE survey_id = $1 AND (created_at, id) > ($2, $3)
			ORDER BY created_at, id LIMIT `+fmt.Sprint(backfillChunk), surveyID, afterAt, afterID)
		if err != nil {
			return err
		}
		var page []countRow
		var answers answerjson.Reader
		n := 0
		for rows.Next() {
			var data string
			var finished bool
			if err := rows.Scan(&afterID, &data, &finished, &afterAt); err != nil {
				rows.Close()
				return err
			}
			n++
			counts, err := sqlrow.StoredCounts(&answers, def, []byte(data), finished)
			if err != nil {
				rows.Close()
				return err
			}
			for _, c := range counts {
				if store.IsCountKey(c.Key) {
					page = append(page, countRow{c, afterAt})
				}
			}
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		if err := writeCounts(ctx, tx, surveyID, page); err != nil {
			return err
		}
		if n < backfillChunk {
			break
		}
	}
	// The events need no Go: they are counted by type, in SQL.
	for level, table := range append([]string{"rating_totals"}, rollupTables...) {
		bucket, column := "", ""
		if level > 0 {
			size := rollup.Sizes[level-1]
			bucket, column = fmt.Sprintf("floor(created_at::numeric / %d)::bigint, ", size), "bucket, "
		}
		_, err := tx.Exec(ctx, `INSERT INTO `+table+` (survey_id, question_id, `+column+`score, shard, n)
			SELECT $1, $2, `+bucket+`CASE type WHEN 'view' THEN 0 ELSE 1 END, 0, COUNT(*) FROM events WHERE survey_id = $1
			GROUP BY `+bucket+`CASE type WHEN 'view' THEN 0 ELSE 1 END
			ON CONFLICT (survey_id, question_id, `+column+`score, shard) DO UPDATE SET n = `+table+`.n + excluded.n`, surveyID, store.EventsKey)
		if err != nil {
			return err
		}
	}
	return nil
}

// writeCounts adds counts, summed by row, to the totals and the rollups (on their first row).
func writeCounts(ctx context.Context, tx pgx.Tx, surveyID string, counts []countRow) error {
	type bucketKey struct {
		c      store.Count
		level  int // -1 for the totals
		bucket int64
	}
	sums := make(map[bucketKey]int64)
	for _, r := range counts {
		sums[bucketKey{r.c, -1, 0}]++
		for level, size := range rollup.Sizes {
			sums[bucketKey{r.c, level, rollup.FloorDiv(r.at, size)}]++
		}
	}
	var b pgx.Batch
	for k, n := range sums {
		if k.level < 0 {
			b.Queue(`INSERT INTO rating_totals (survey_id, question_id, score, shard, n) VALUES ($1, $2, $3, 0, $4)
				ON CONFLICT (survey_id, question_id, score, shard) DO UPDATE SET n = rating_totals.n + excluded.n`, surveyID, k.c.Key, k.c.N, n)
			continue
		}
		t := rollupTables[k.level]
		b.Queue(`INSERT INTO `+t+` (survey_id, question_id, bucket, score, shard, n) VALUES ($1, $2, $3, $4, 0, $5)
			ON CONFLICT (survey_id, question_id, bucket, score, shard) DO UPDATE SET n = `+t+`.n + excluded.n`, surveyID, k.c.Key, k.bucket, k.c.N, n)
	}
	return tx.SendBatch(ctx, &b).Close()
}
