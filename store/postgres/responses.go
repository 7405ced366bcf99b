package postgres

import (
	"context"
	"fmt"
	"math/rand/v2"

	"github.com/jackc/pgx/v5"

	"github.com/svc-feedback/svc/internal/jsonappend"
	"github.com/svc-feedback/svc/store"
)

// PutResponse implements store.Store.
func (s *Store) PutResponse(ctx context.Context, w store.ResponseWrite) (store.Response, bool, error) {
	if w.Metadata == nil {
		w.Metadata = map[string]string{}
	}
	buf, err := w.Data.AppendJSON(make([]byte, 0, 512))
	if err != nil {
		return store.Response{}, false, fmt.Errorf("put response %s: %w", w.ID, err)
	}
	n := len(buf)
	buf = jsonappend.StringMap(buf, w.Metadata)
	data, meta := string(buf[:n]), string(buf[n:])
	at := ms(w.At)
	var (
		resp    store.Response
		created bool
	)
	err = s.tx(ctx, "put response "+w.ID, func(tx pgx.Tx) error {
		created = false
		sv, err := s.surveyByID(ctx, tx, w.SurveyID)
		if err != nil {
			return err
		}
		tag, err := tx.Exec(ctx, `INSERT INTO responses (survey_id, id, respondent, data, metadata, telemetry, created_at, updated_at)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $7) ON CONFLICT (survey_id, id) DO NOTHING`,
			w.SurveyID, w.ID, w.Respondent, data, meta, w.Telemetry, at)
		if err != nil {
			return err
		}
		if tag.RowsAffected() == 1 {
			created = true
			resp = store.Response{ID: w.ID, SurveyID: w.SurveyID, Respondent: w.Respondent, Data: []byte(data), Metadata: []byte(meta),
				Telemetry: w.Telemetry, CreatedAt: fromMS(at), UpdatedAt: fromMS(at)}
			if err := addRatings(ctx, tx, w.SurveyID, scores(w.Data, sv.Questions), at, 1); err != nil {
				return err
			}
			return s.created(ctx, tx, w, sv.WebhookURL, at)
		}
		resp, err = s.updated(ctx, tx, w, sv, data, meta, at)
		return err
	})
	if err != nil {
		return store.Response{}, false, err
	}
	return resp, created, nil
}

// created counts a new response, its respondent's first when it is, and schedules its webhook.
func (s *Store) created(ctx context.Context, tx pgx.Tx, w store.ResponseWrite, hook string, at int64) error {
	first, err := touchRespondent(ctx, tx, w.SurveyID, w.Respondent, "last_responded_at", at)
	if err != nil {
		return err
	}
	if err := addStats(ctx, tx, w.SurveyID, "responses", "unique_responders", first); err != nil {
		return err
	}
	if hook == "" || w.Imported {
		return nil
	}
	if _, err = tx.Exec(ctx, `INSERT INTO deliveries (id, survey_id, response_id, state, next_attempt_at, created_at, updated_at)
		VALUES ($1, $2, $3, 'pending', $4, $4, $4)`, "dlv_"+s.ids.New(), w.SurveyID, w.ID, at); err != nil {
		return err
	}
	return notifyDeliveries(ctx, tx)
}

// updated replaces the answers of an existing response of the same respondent; an imported
// write changes nothing.
func (s *Store) updated(ctx context.Context, tx pgx.Tx, w store.ResponseWrite, sv store.Survey, data, meta string, at int64) (store.Response, error) {
	old, err := scanResponse(tx.QueryRow(ctx, `SELECT `+responseColumns+` FROM responses WHERE survey_id = $1 AND id = $2 FOR UPDATE`,
		w.SurveyID, w.ID))
	switch {
	case err != nil:
		return store.Response{}, err
	case w.Imported:
		return old, nil
	case old.Respondent != w.Respondent:
		return store.Response{}, store.Conflictf("the id belongs to another respondent's response")
	}
	if _, err := tx.Exec(ctx, `UPDATE responses SET data = $1, metadata = $2, telemetry = $3, updated_at = $4 WHERE survey_id = $5 AND id = $6`,
		data, meta, w.Telemetry, at, w.SurveyID, w.ID); err != nil {
		return store.Response{}, err
	}
	// The scores move in the rollups, which stay on the response's creation time.
	old2, err := storedScores(old.Data, sv.Questions)
	if err != nil {
		return store.Response{}, err
	}
	if err := addRatings(ctx, tx, w.SurveyID, old2, ms(old.CreatedAt), -1); err != nil {
		return store.Response{}, err
	}
	if err := addRatings(ctx, tx, w.SurveyID, scores(w.Data, sv.Questions), ms(old.CreatedAt), 1); err != nil {
		return store.Response{}, err
	}
	if _, err := touchRespondent(ctx, tx, w.SurveyID, w.Respondent, "last_responded_at", at); err != nil {
		return store.Response{}, err
	}
	return store.Response{ID: w.ID, SurveyID: w.SurveyID, Respondent: w.Respondent, Data: []byte(data), Metadata: []byte(meta),
		Telemetry: w.Telemetry, CreatedAt: old.CreatedAt, UpdatedAt: fromMS(at)}, nil
}

// touchRespondent moves one of a respondent's last-interaction times forward to at, and reports
// whether it was the respondent's first interaction of that kind. The row is locked while it is
// read, so two concurrent first interactions count once.
func touchRespondent(ctx context.Context, tx pgx.Tx, surveyID, respondent, column string, at int64) (bool, error) {
	if _, err := tx.Exec(ctx, `INSERT INTO respondents (survey_id, respondent) VALUES ($1, $2) ON CONFLICT DO NOTHING`,
		surveyID, respondent); err != nil {
		return false, err
	}
	var before *int64
	if err := tx.QueryRow(ctx, `SELECT `+column+` FROM respondents WHERE survey_id = $1 AND respondent = $2 FOR UPDATE`,
		surveyID, respondent).Scan(&before); err != nil {
		return false, err
	}
	_, err := tx.Exec(ctx, `UPDATE respondents SET `+column+` = GREATEST(COALESCE(`+column+`, $3), $3)
		WHERE survey_id = $1 AND respondent = $2`, surveyID, respondent, at)
	return before == nil, err
}

// addStats adds one to a counter of the survey, and one to its unique counterpart when unique,
// on one of the survey's counter rows, picked at random.
func addStats(ctx context.Context, tx pgx.Tx, surveyID, total, uniques string, unique bool) error {
	u := 0
	if unique {
		u = 1
	}
	_, err := tx.Exec(ctx, `UPDATE survey_stats SET `+total+` = `+total+` + 1, `+uniques+` = `+uniques+` + $3
		WHERE survey_id = $1 AND shard = $2`, surveyID, rand.IntN(statsShards), u)
	return err
}

const responseColumns = `id, survey_id, respondent, data, metadata, telemetry, created_at, updated_at`

func scanResponse(row pgx.Row) (store.Response, error) {
	var (
		r                 store.Response
		data, meta        string
		created, modified int64
	)
	if err := row.Scan(&r.ID, &r.SurveyID, &r.Respondent, &data, &meta, &r.Telemetry, &created, &modified); err != nil {
		return store.Response{}, err
	}
	r.Data, r.Metadata = []byte(data), []byte(meta)
	r.CreatedAt, r.UpdatedAt = fromMS(created), fromMS(modified)
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
		sql += ` AND created_at >= ` + arg(ms(q.After))
	}
	if !q.Before.IsZero() {
		sql += ` AND created_at <= ` + arg(ms(q.Before))
	}
	if q.Cursor != nil {
		sql += ` AND (created_at, id) < (` + arg(ms(q.Cursor.CreatedAt)) + `, ` + arg(q.Cursor.ID) + `)`
	}
	sql += fmt.Sprintf(` ORDER BY created_at DESC, id DESC LIMIT %d`, q.Limit+1)
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
	page, next := trim(page, limit, func(r store.Response) store.Cursor { return store.Cursor{CreatedAt: r.CreatedAt, ID: r.ID} })
	return page, next, nil
}
