package postgres

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/svc-feedback/svc/store"
	"github.com/svc-feedback/svc/store/internal/sqlrow"
)

// PutResponse implements store.Store: the write joins a writer's next batch (see puts.go); a
// created response's transaction takes two round trips, an update's three. The survey comes
// from the read cache.
func (s *Store) PutResponse(ctx context.Context, w store.ResponseWrite) (store.Response, bool, error) {
	op, err := s.newPutOp(ctx, w)
	if err != nil {
		return store.Response{}, false, err
	}
	s.put(ctx, op)
	if op.err != nil {
		return store.Response{}, false, op.err
	}
	return op.resp, op.created, nil
}

// newPutOp prepares a write: its survey, from the read cache, and its encoded answers.
func (s *Store) newPutOp(ctx context.Context, w store.ResponseWrite) (*putOp, error) {
	if err := s.checkOpen("put response"); err != nil {
		return nil, err
	}
	sv, err := s.surveyByID(ctx, w.SurveyID)
	if err != nil {
		return nil, fmt.Errorf("put response: %w", err)
	}
	// Passed as bytes: pgx writes a []byte into a text parameter as it is, where a string
	// conversion would copy a screenshot's 10 MiB once more.
	data, meta, err := sqlrow.EncodeWrite(w)
	if err != nil {
		return nil, fmt.Errorf("put response: %w", err)
	}
	return &putOp{w: w, sv: sv, data: data, meta: meta, at: sqlrow.MS(w.At)}, nil
}

// rowOf picks, for a write on conn, which of a key's counter and rollup rows it adds to: the
// connection's server process id, so that a connection never waits on a row another of the
// pool's connections holds until its commit (a pool's connections, started one after another,
// have consecutive ids), where rows picked at random collided, for most writes, under load.
func rowOf(conn interface{ PgConn() *pgconn.PgConn }) int { return int(conn.PgConn().PID()) }

// querier is a connection the write paths send to: a pooled connection inside a transaction.
type querier interface {
	PgConn() *pgconn.PgConn
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
	SendBatch(ctx context.Context, b *pgx.Batch) pgx.BatchResults
}

// pipelined runs fn on a pooled connection, for a transaction that fn begins and commits inside
// its batches, so that BEGIN and COMMIT cost no round trips of their own. After an error it
// rolls back whatever fn left open.
func (s *Store) pipelined(ctx context.Context, what string, fn func(conn querier) error) error {
	if err := s.checkOpen(what); err != nil {
		return err
	}
	conn, err := s.pool.Acquire(ctx)
	if err != nil {
		return s.mapErr(err, what)
	}
	defer conn.Release()
	if err := fn(conn.Conn()); err != nil {
		if _, rerr := conn.Exec(context.Background(), `ROLLBACK`); rerr != nil {
			conn.Conn().Close(context.Background()) // in no known state: not back into the pool
		}
		return s.mapErr(err, what)
	}
	return nil
}

// interaction is a kind of interaction a respondent has with a survey: the table of who ever
// had it (for the unique counter), the time column of respondents, and the counters.
type interaction struct {
	firsts, column, total, uniques string
}

var (
	responded = interaction{"responders", "last_responded_at", "responses", "unique_responders"}
	viewed    = interaction{"viewers", "last_viewed_at", "views", "unique_viewers"}
	dismissed = interaction{"dismissers", "last_dismissed_at", "dismissals", "unique_dismissers"}
)

// countInteraction queues what an interaction changes: its counter and, when it is the
// respondent's first of its kind, the unique counter; and the respondent's last time of that
// kind.
func countInteraction(b *pgx.Batch, row int, surveyID, respondent string, kind interaction, at int64) {
	countFirsts(b, row, surveyID, kind, []string{respondent}, 1, 0)
	t := touches{}
	t.add(surveyID, respondent, at)
	t.queue(b, kind.column)
}

// countFirsts queues adding total interactions of a kind, and finished responses, to the
// survey's counter row that row picks (see rowOf), with the unique counter growing by those of
// respondents (sorted, distinct) having their first of that kind: one insert into the kind's
// table tells, however many writes race.
func countFirsts(b *pgx.Batch, row int, surveyID string, kind interaction, respondents []string, total, finished int64) {
	b.Queue(`WITH first AS (INSERT INTO `+kind.firsts+` (survey_id, respondent) SELECT $1, r FROM unnest($2::text[]) AS r ORDER BY r
			ON CONFLICT DO NOTHING RETURNING 1)
		UPDATE survey_stats SET `+kind.total+` = `+kind.total+` + $3, `+kind.uniques+` = `+kind.uniques+` + (SELECT COUNT(*) FROM first),
			finished = finished + $4
		WHERE survey_id = $1 AND shard = $5`, surveyID, respondents, total, finished, row%statsShards)
}

// touches are respondents' latest interactions of one kind, by survey and respondent.
type touches map[[2]string]int64

// add records an interaction at at.
func (t touches) add(surveyID, respondent string, at int64) {
	k := [2]string{surveyID, respondent}
	if old, ok := t[k]; !ok || at > old {
		t[k] = at
	}
}

// queue queues moving each respondent's last time of the column's kind forward to theirs, in one
// statement taking the rows in one order.
func (t touches) queue(b *pgx.Batch, column string) {
	if len(t) == 0 {
		return
	}
	surveys, respondents, ats := make([]string, 0, len(t)), make([]string, 0, len(t)), make([]int64, 0, len(t))
	for k, at := range t {
		surveys, respondents, ats = append(surveys, k[0]), append(respondents, k[1]), append(ats, at)
	}
	b.Queue(`INSERT INTO respondents (survey_id, respondent, `+column+`)
		SELECT * FROM unnest($1::text[], $2::text[], $3::bigint[]) ORDER BY 1, 2
		ON CONFLICT (survey_id, respondent) DO UPDATE
		SET `+column+` = GREATEST(COALESCE(respondents.`+column+`, excluded.`+column+`), excluded.`+column+`)`,
		surveys, respondents, ats)
}

const responseColumns = `id, survey_id, respondent, data, metadata, telemetry, finished, created_at, updated_at`

func scanResponse(row pgx.Row) (store.Response, error) {
	var (
		r                 store.Response
		data, meta        string
		created, modified int64
	)
	if err := row.Scan(&r.ID, &r.SurveyID, &r.Respondent, &data, &meta, &r.Telemetry, &r.Finished, &created, &modified); err != nil {
		return store.Response{}, err
	}
	r.Data, r.Metadata = []byte(data), []byte(meta)
	r.CreatedAt, r.UpdatedAt = sqlrow.FromMS(created), sqlrow.FromMS(modified)
	return r, nil
}

// Response implements store.Store.
func (s *Store) Response(ctx context.Context, surveyID, id string) (store.Response, error) {
	if err := s.checkOpen("read response"); err != nil {
		return store.Response{}, err
	}
	r, err := scanResponse(s.pool.QueryRow(ctx, `SELECT `+responseColumns+` FROM responses WHERE survey_id = $1 AND id = $2`, surveyID, id))
	return r, s.mapErr(err, "response "+id)
}

// Responses implements store.Store.
func (s *Store) Responses(ctx context.Context, q store.ResponseQuery) ([]store.Response, *store.Cursor, error) {
	if err := s.checkOpen("list responses"); err != nil {
		return nil, nil, err
	}
	if q.Limit <= 0 {
		return nil, nil, fmt.Errorf("list responses: %w", store.Invalidf("limit must be positive"))
	}
	sql := `SELECT ` + responseColumns + ` FROM responses WHERE survey_id = $1`
	args := []any{q.SurveyID}
	arg := func(v any) string { args = append(args, v); return fmt.Sprintf("$%d", len(args)) }
	if q.Respondent != "" {
		sql += ` AND respondent = ` + arg(q.Respondent)
	}
	if !q.After.IsZero() {
		sql += ` AND created_at >= ` + arg(sqlrow.MS(q.After))
	}
	if !q.Before.IsZero() {
		sql += ` AND created_at <= ` + arg(sqlrow.MS(q.Before))
	}
	cmp, order := "<", "DESC"
	if q.Oldest {
		cmp, order = ">", "ASC"
	}
	if q.Cursor != nil {
		sql += ` AND (created_at, id) ` + cmp + ` (` + arg(sqlrow.MS(q.Cursor.CreatedAt)) + `, ` + arg(q.Cursor.ID) + `)`
	}
	sql += fmt.Sprintf(` ORDER BY created_at %s, id %s LIMIT %d`, order, order, q.Limit+1)
	rows, err := s.pool.Query(ctx, sql, args...)
	if err != nil {
		return nil, nil, s.mapErr(err, "list responses")
	}
	defer rows.Close()
	var page []store.Response
	limit, size := q.Limit, 0
	for len(page) <= limit && rows.Next() {
		r, err := scanResponse(rows)
		if err != nil {
			return nil, nil, s.mapErr(err, "list responses")
		}
		r.Telemetry = nil // lists leave it out; Response returns it
		page = append(page, r)
		if size += len(r.Data) + len(r.Metadata); q.MaxBytes > 0 && size >= q.MaxBytes && len(page) < limit {
			limit = len(page) // full by size: one more row tells whether more follow
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, nil, s.mapErr(err, "list responses")
	}
	page, next := sqlrow.Trim(page, limit, func(r store.Response) store.Cursor { return store.Cursor{CreatedAt: r.CreatedAt, ID: r.ID} })
	return page, next, nil
}
