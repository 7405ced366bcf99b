package postgres

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/svc-feedback/svc/store"
	"github.com/svc-feedback/svc/store/internal/sqlrow"
)

// PutResponse implements store.Store. A created response takes two round trips: BEGIN with
// the insert, then one batch of what follows it (counters, history, rollups, the delivery) with
// the COMMIT; the survey comes from the read cache.
func (s *Store) PutResponse(ctx context.Context, w store.ResponseWrite) (store.Response, bool, error) {
	sv, err := s.surveyByID(ctx, w.SurveyID)
	if err != nil {
		return store.Response{}, false, fmt.Errorf("put response: %w", err)
	}
	dataJSON, metaJSON, err := sqlrow.EncodeWrite(w)
	if err != nil {
		return store.Response{}, false, fmt.Errorf("put response: %w", err)
	}
	// Passed as bytes: pgx writes a []byte into a text parameter as it is, where a string
	// conversion would copy a screenshot's 10 MiB once more.
	data, meta := dataJSON, metaJSON
	at := sqlrow.MS(w.At)
	var (
		resp    store.Response
		created bool
	)
	err = s.pipelined(ctx, "put response "+w.ID, func(conn querier) error {
		// First round trip: BEGIN and the insert, which tells whether the response is new.
		var b1 pgx.Batch
		b1.Queue(`BEGIN`)
		b1.Queue(`INSERT INTO responses (survey_id, id, respondent, data, metadata, telemetry, created_at, updated_at, finished)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $7, $8) ON CONFLICT (survey_id, id) DO NOTHING RETURNING true`,
			w.SurveyID, w.ID, w.Respondent, data, meta, w.Telemetry, at, w.Finished)
		br := conn.SendBatch(ctx, &b1)
		_, err := br.Exec()
		if err == nil {
			err = br.QueryRow().Scan(&created)
		}
		cerr := br.Close()
		switch {
		case errors.Is(err, pgx.ErrNoRows) && cerr == nil: // the id is taken: an update
			resp, err = s.updated(ctx, conn, w, sv, data, meta, at)
			return err
		case err != nil:
			return err
		case cerr != nil:
			return cerr
		}
		// Second: everything that follows from a new response, and the commit.
		resp = store.Response{ID: w.ID, SurveyID: w.SurveyID, Respondent: w.Respondent, Data: data, Metadata: meta,
			Telemetry: w.Telemetry, Finished: w.Finished, CreatedAt: sqlrow.FromMS(at), UpdatedAt: sqlrow.FromMS(at)}
		var b pgx.Batch
		countInteraction(&b, rowOf(conn), w.SurveyID, w.Respondent, responded, at)
		if w.Finished {
			queueFinished(&b, rowOf(conn), w.SurveyID)
		}
		queueRatings(&b, rowOf(conn), w.SurveyID, store.Counts(&sv.Definition, w.Data, w.Finished), at, 1)
		if sv.WebhookURL != "" && !w.Imported {
			b.Queue(`INSERT INTO deliveries (id, survey_id, response_id, state, next_attempt_at, created_at, updated_at)
				VALUES ($1, $2, $3, 'pending', $5, $4, $4)`, "dlv_"+s.ids.New(), w.SurveyID, w.ID, at, sqlrow.MS(sv.DeliveryDue(sqlrow.FromMS(at), w.Finished)))
			b.Queue(`SELECT pg_notify($1, '')`, deliveriesChannel)
		}
		b.Queue(`COMMIT`)
		return conn.SendBatch(ctx, &b).Close()
	})
	if err != nil {
		return store.Response{}, false, err
	}
	return resp, created, nil
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

// updated replaces the answers of an existing response of the same respondent; an imported
// write changes nothing.
func (s *Store) updated(ctx context.Context, tx querier, w store.ResponseWrite, sv store.Survey, data, meta []byte, at int64) (store.Response, error) {
	old, err := scanResponse(tx.QueryRow(ctx, `SELECT `+responseColumns+` FROM responses WHERE survey_id = $1 AND id = $2 FOR UPDATE`,
		w.SurveyID, w.ID))
	switch {
	case err != nil:
		return store.Response{}, err
	case w.Imported:
		return old, tx.SendBatch(ctx, commitBatch()).Close()
	case old.Respondent != w.Respondent:
		return store.Response{}, store.Conflictf("the id belongs to another respondent's response")
	}
	oldCounts, err := sqlrow.StoredCounts(&sv.Definition, old.Data, old.Finished)
	if err != nil {
		return store.Response{}, err
	}
	finished := old.Finished || w.Finished // a finished response stays finished
	var b pgx.Batch
	b.Queue(`UPDATE responses SET data = $1, metadata = $2, telemetry = $3, updated_at = $4, finished = $5 WHERE survey_id = $6 AND id = $7`,
		data, meta, w.Telemetry, at, finished, w.SurveyID, w.ID)
	if finished && !old.Finished {
		queueFinished(&b, rowOf(tx), w.SurveyID)
	}
	queueTouch(&b, w.SurveyID, w.Respondent, responded.column, at)
	// The scores move in the rollups, which stay on the response's creation time.
	gone, added := sqlrow.Changed(oldCounts, store.Counts(&sv.Definition, w.Data, finished))
	queueRatings(&b, rowOf(tx), w.SurveyID, gone, sqlrow.MS(old.CreatedAt), -1)
	queueRatings(&b, rowOf(tx), w.SurveyID, added, sqlrow.MS(old.CreatedAt), 1)
	if sv.WebhookURL != "" && sv.WebhookWaitSeconds > 0 {
		// Not yet attempted: due the wait after this write, or now once finished.
		b.Queue(`UPDATE deliveries SET next_attempt_at = $1, updated_at = $2
			WHERE survey_id = $3 AND response_id = $4 AND state = 'pending' AND attempts = 0`,
			sqlrow.MS(sv.DeliveryDue(sqlrow.FromMS(at), finished)), at, w.SurveyID, w.ID)
	}
	b.Queue(`COMMIT`)
	if err := tx.SendBatch(ctx, &b).Close(); err != nil {
		return store.Response{}, err
	}
	return store.Response{ID: w.ID, SurveyID: w.SurveyID, Respondent: w.Respondent, Data: data, Metadata: meta,
		Telemetry: w.Telemetry, Finished: finished, CreatedAt: old.CreatedAt, UpdatedAt: sqlrow.FromMS(at)}, nil
}

// commitBatch is a batch of COMMIT alone.
func commitBatch() *pgx.Batch {
	var b pgx.Batch
	b.Queue(`COMMIT`)
	return &b
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
// respondent's first of its kind, the unique counter (one insert into the kind's table tells,
// however many writes race), on the survey's counter row that row picks (see rowOf); and the
// respondent's last time of that kind.
func countInteraction(b *pgx.Batch, row int, surveyID, respondent string, kind interaction, at int64) {
	b.Queue(`WITH first AS (INSERT INTO `+kind.firsts+` (survey_id, respondent) VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING 1)
		UPDATE survey_stats SET `+kind.total+` = `+kind.total+` + 1, `+kind.uniques+` = `+kind.uniques+` + (SELECT COUNT(*) FROM first)
		WHERE survey_id = $1 AND shard = $3`, surveyID, respondent, row%statsShards)
	queueTouch(b, surveyID, respondent, kind.column, at)
}

// queueFinished queues counting a response finished, on the counter row that row picks.
func queueFinished(b *pgx.Batch, row int, surveyID string) {
	b.Queue(`UPDATE survey_stats SET finished = finished + 1 WHERE survey_id = $1 AND shard = $2`, surveyID, row%statsShards)
}

// queueTouch queues moving one of a respondent's last-interaction times forward to at.
func queueTouch(b *pgx.Batch, surveyID, respondent, column string, at int64) {
	b.Queue(`INSERT INTO respondents (survey_id, respondent, `+column+`) VALUES ($1, $2, $3)
		ON CONFLICT (survey_id, respondent) DO UPDATE SET `+column+` = GREATEST(COALESCE(respondents.`+column+`, $3), $3)`,
		surveyID, respondent, at)
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
