package postgres

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/svc-feedback/svc/store"
	"github.com/svc-feedback/svc/store/internal/sqlrow"
)

// PutResponse implements store.Store: the write joins a writer's next batch (see writer.go); a
// created response's transaction takes two round trips, an update's three. The survey comes
// from the read cache.
func (s *Store) PutResponse(ctx context.Context, w store.ResponseWrite) (store.Response, bool, error) {
	op, err := s.newPutOp(ctx, w)
	if err != nil {
		return store.Response{}, false, err
	}
	s.write(ctx, op)
	if op.err != nil {
		return store.Response{}, false, op.err
	}
	return op.resp, op.created, nil
}

// newPutOp prepares a write: its survey, from the read cache, and its encoded answers.
func (s *Store) newPutOp(ctx context.Context, w store.ResponseWrite) (*writeOp, error) {
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
	return &writeOp{w: w, sv: sv, data: data, meta: meta, texts: store.SummaryTexts(w.Data), at: sqlrow.MS(w.At)}, nil
}

// rowOf picks, for a write on conn, which of a key's counter and rollup rows it adds to: the
// connection's server process id, so that a connection never waits on a row another of the
// pool's connections holds until its commit (a pool's connections, started one after another,
// have consecutive ids), where rows picked at random collided, for most writes, under load.
func rowOf(conn interface{ PgConn() *pgconn.PgConn }) int { return int(conn.PgConn().PID()) }

// recovered runs fn, turning a panic into its error.
func recovered(fn func() error) (err error) {
	defer func() {
		if v := recover(); v != nil {
			err = fmt.Errorf("postgres: write panicked: %v", v)
		}
	}()
	return fn()
}

// querier is a connection the write paths send to: a pooled connection inside a transaction.
type querier interface {
	PgConn() *pgconn.PgConn
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
	SendBatch(ctx context.Context, b *pgx.Batch) pgx.BatchResults
}

// pipelined runs fn on a pooled connection, for a transaction that fn begins and commits inside
// its batches, so that BEGIN and COMMIT cost no round trips of their own. After an error, or a
// panic (which becomes the error: fn may run on a writer goroutine, where a panic would end the
// process), it rolls back whatever fn left open.
func (s *Store) pipelined(ctx context.Context, what string, fn func(conn querier) error) error {
	if err := s.checkOpen(what); err != nil {
		return err
	}
	conn, err := s.pool.Acquire(ctx)
	if err != nil {
		return s.mapErr(err, what)
	}
	defer conn.Release()
	if err := recovered(func() error { return fn(conn.Conn()) }); err != nil {
		if _, rerr := conn.Exec(context.Background(), `ROLLBACK`); rerr != nil {
			conn.Conn().Close(context.Background()) // in no known state: not back into the pool
		}
		return s.mapErr(err, what)
	}
	return nil
}

const responseColumns = `id, survey_id, respondent, data, metadata, telemetry, language, finished, created_at, updated_at`

func scanResponse(row pgx.Row) (store.Response, error) {
	var (
		r                 store.Response
		data, meta        string
		created, modified int64
	)
	if err := row.Scan(&r.ID, &r.SurveyID, &r.Respondent, &data, &meta, &r.Telemetry, &r.Language, &r.Finished, &created, &modified); err != nil {
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

var _ store.TextReader = (*Store)(nil)

// ResponseTexts implements store.TextReader: the texts column alone, which leaves the answers'
// TOAST, where large ones are kept, unread.
func (s *Store) ResponseTexts(ctx context.Context, q store.ResponseQuery) ([]store.ResponseTexts, *store.Cursor, error) {
	if err := s.checkOpen("list response texts"); err != nil {
		return nil, nil, err
	}
	if q.Limit <= 0 {
		return nil, nil, fmt.Errorf("list response texts: %w", store.Invalidf("limit must be positive"))
	}
	var (
		page []store.ResponseTexts
		next *store.Cursor
	)
	err := s.read(q.SurveyID, func(pool *pgxpool.Pool) (err error) {
		page, next, err = readNarrowed(q, func(q store.ResponseQuery) ([]store.ResponseTexts, *store.Cursor, error) {
			return s.responseTexts(ctx, pool, q)
		})
		return s.mapErr(err, "list response texts")
	})
	return page, next, err
}

func (s *Store) responseTexts(ctx context.Context, pool *pgxpool.Pool, q store.ResponseQuery) ([]store.ResponseTexts, *store.Cursor, error) {
	sql, args := pageQuery(`SELECT id, created_at, texts FROM responses`, q)
	rows, err := pool.Query(ctx, sql, args...)
	if err != nil {
		return nil, nil, err
	}
	defer rows.Close()
	var page []store.ResponseTexts
	for rows.Next() {
		var (
			t       store.ResponseTexts
			created int64
			texts   *string
		)
		if err := rows.Scan(&t.ID, &created, &texts); err != nil {
			return nil, nil, err
		}
		t.CreatedAt = sqlrow.FromMS(created)
		if texts != nil {
			t.Texts = []byte(*texts)
		}
		page = append(page, t)
	}
	if err := rows.Err(); err != nil {
		return nil, nil, err
	}
	page, next := sqlrow.Trim(page, q.Limit, func(t store.ResponseTexts) store.Cursor { return store.Cursor{CreatedAt: t.CreatedAt, ID: t.ID} })
	return page, next, nil
}

// pageQuery completes a selection of responses with q's conditions, order and limit (one more
// than q.Limit, which tells whether more follow).
func pageQuery(selection string, q store.ResponseQuery) (string, []any) {
	sql := selection + ` WHERE survey_id = $1`
	args := []any{q.SurveyID}
	arg := func(v any) string { args = append(args, v); return fmt.Sprintf("$%d", len(args)) }
	if q.Respondent != "" {
		sql += ` AND respondent = ` + arg(q.Respondent)
	}
	after, before := sqlrow.TimeBounds(q)
	if !after.IsZero() {
		sql += ` AND created_at >= ` + arg(sqlrow.MS(after))
	}
	if !before.IsZero() {
		sql += ` AND created_at <= ` + arg(sqlrow.MS(before))
	}
	if n := q.Narrow; n != nil && n.Finished != nil {
		sql += ` AND finished = ` + arg(*n.Finished)
	}
	if path, vars := answersPath(q.Narrow); path != "" {
		sql += ` AND jsonb_path_exists(data::jsonb, ` + arg(path) + `::jsonpath, ` + arg(string(vars)) + `::jsonb, true)`
	}
	cmp, order := "<", "DESC"
	if q.Oldest {
		cmp, order = ">", "ASC"
	}
	if q.Cursor != nil {
		sql += ` AND (created_at, id) ` + cmp + ` (` + arg(sqlrow.MS(q.Cursor.CreatedAt)) + `, ` + arg(q.Cursor.ID) + `)`
	}
	return sql + fmt.Sprintf(` ORDER BY created_at %s, id %s LIMIT %d`, order, order, q.Limit+1), args
}

// Responses implements store.Store.
func (s *Store) Responses(ctx context.Context, q store.ResponseQuery) ([]store.Response, *store.Cursor, error) {
	if err := s.checkOpen("list responses"); err != nil {
		return nil, nil, err
	}
	if q.Limit <= 0 {
		return nil, nil, fmt.Errorf("list responses: %w", store.Invalidf("limit must be positive"))
	}
	var (
		page []store.Response
		next *store.Cursor
	)
	err := s.read(q.SurveyID, func(pool *pgxpool.Pool) (err error) {
		page, next, err = readNarrowed(q, func(q store.ResponseQuery) ([]store.Response, *store.Cursor, error) {
			return s.responses(ctx, pool, q)
		})
		return s.mapErr(err, "list responses")
	})
	return page, next, err
}

func (s *Store) responses(ctx context.Context, pool *pgxpool.Pool, q store.ResponseQuery) ([]store.Response, *store.Cursor, error) {
	sql, args := pageQuery(`SELECT `+responseColumns+` FROM responses`, q)
	rows, err := pool.Query(ctx, sql, args...)
	if err != nil {
		return nil, nil, err
	}
	defer rows.Close()
	var page []store.Response
	limit, size := q.Limit, 0
	for len(page) <= limit && rows.Next() {
		r, err := scanResponse(rows)
		if err != nil {
			return nil, nil, err
		}
		r.Telemetry = nil // lists leave it out; Response returns it
		page = append(page, r)
		if size += len(r.Data) + len(r.Metadata); q.MaxBytes > 0 && size >= q.MaxBytes && len(page) < limit {
			limit = len(page) // full by size: one more row tells whether more follow
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, nil, err
	}
	page, next := sqlrow.Trim(page, limit, func(r store.Response) store.Cursor { return store.Cursor{CreatedAt: r.CreatedAt, ID: r.ID} })
	return page, next, nil
}
