package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/svc-feedback/svc/store"
	"github.com/svc-feedback/svc/survey"
)

const (
	hourMS = int64(time.Hour / time.Millisecond)
	dayMS  = 24 * hourMS
)

// PutResponse implements store.Store.
func (s *Store) PutResponse(ctx context.Context, w store.ResponseWrite) (store.Response, bool, error) {
	if w.Metadata == nil {
		w.Metadata = map[string]string{}
	}
	data, err := json.Marshal(w.Data)
	if err != nil {
		return store.Response{}, false, fmt.Errorf("put response %s: %w", w.ID, err)
	}
	meta, err := json.Marshal(w.Metadata)
	if err != nil {
		return store.Response{}, false, fmt.Errorf("put response %s: %w", w.ID, err)
	}
	at := ms(w.At)
	var (
		resp    store.Response
		created bool
	)
	err = s.write(ctx, func(tx *sql.Tx) error {
		var surveyUpdated int64
		var hook string
		err := s.queryRow(tx, `SELECT updated_at, webhook_url FROM surveys WHERE id = ?`, w.SurveyID).Scan(&surveyUpdated, &hook)
		if err != nil {
			return mapErr(err, "put response: survey "+w.SurveyID)
		}
		ratingIDs, err := s.ratingIDs(tx, w.SurveyID, surveyUpdated)
		if err != nil {
			return err
		}
		var (
			oldRespondent string
			oldCreated    int64
		)
		err = s.queryRow(tx, `SELECT respondent, created_at FROM responses WHERE survey_id = ? AND id = ?`,
			w.SurveyID, w.ID).Scan(&oldRespondent, &oldCreated)
		switch {
		case errors.Is(err, sql.ErrNoRows):
			created = true
			resp, err = s.createResponse(tx, w, data, meta, at, hook, ratingIDs)
			return err
		case err != nil:
			return mapErr(err, "put response "+w.ID)
		case w.Imported:
			created = false
			resp, err = readResponse(tx, w.SurveyID, w.ID)
			return err
		case oldRespondent != w.Respondent:
			return fmt.Errorf("put response %s: the id belongs to another respondent's response: %w", w.ID, store.ErrConflict)
		}
		created = false
		resp, err = s.updateResponse(tx, w, data, meta, at, oldCreated, ratingIDs)
		return err
	})
	if err != nil {
		return store.Response{}, false, err
	}
	return resp, created, nil
}

func (s *Store) createResponse(tx *sql.Tx, w store.ResponseWrite, data, meta []byte, at int64, hook string, ratingIDs map[string]bool) (store.Response, error) {
	_, err := s.exec(tx, `INSERT INTO responses (survey_id, id, respondent, data, metadata, telemetry, created_at, updated_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?)`, w.SurveyID, w.ID, w.Respondent, data, meta, w.Telemetry, at, at)
	if err != nil {
		return store.Response{}, mapErr(err, "create response "+w.ID)
	}
	if err := s.addRatings(tx, w.SurveyID, w.ID, scores(w.Data, ratingIDs), at); err != nil {
		return store.Response{}, err
	}
	first, err := s.touchRespondent(tx, w.SurveyID, w.Respondent, "last_responded_at", at)
	if err != nil {
		return store.Response{}, err
	}
	if _, err := s.exec(tx, `UPDATE survey_stats SET responses = responses + 1, unique_responders = unique_responders + ?
		WHERE survey_id = ?`, first, w.SurveyID); err != nil {
		return store.Response{}, mapErr(err, "count response")
	}
	if hook != "" && !w.Imported {
		if _, err := s.exec(tx, `INSERT INTO deliveries (id, survey_id, response_id, state, next_attempt_at, created_at, updated_at)
			VALUES (?, ?, ?, 'pending', ?, ?, ?)`, "dlv_"+s.ids.New(), w.SurveyID, w.ID, at, at, at); err != nil {
			return store.Response{}, mapErr(err, "schedule delivery")
		}
	}
	t := fromMS(at)
	return store.Response{ID: w.ID, SurveyID: w.SurveyID, Respondent: w.Respondent, Data: data, Metadata: meta,
		Telemetry: w.Telemetry, CreatedAt: t, UpdatedAt: t}, nil
}

func (s *Store) updateResponse(tx *sql.Tx, w store.ResponseWrite, data, meta []byte, at, createdAt int64, ratingIDs map[string]bool) (store.Response, error) {
	_, err := s.exec(tx, `UPDATE responses SET data = ?, metadata = ?, telemetry = ?, updated_at = ? WHERE survey_id = ? AND id = ?`,
		data, meta, w.Telemetry, at, w.SurveyID, w.ID)
	if err != nil {
		return store.Response{}, mapErr(err, "update response "+w.ID)
	}
	if err := s.removeRatings(tx, w.SurveyID, w.ID); err != nil {
		return store.Response{}, err
	}
	if err := s.addRatings(tx, w.SurveyID, w.ID, scores(w.Data, ratingIDs), createdAt); err != nil {
		return store.Response{}, err
	}
	if _, err := s.touchRespondent(tx, w.SurveyID, w.Respondent, "last_responded_at", at); err != nil {
		return store.Response{}, err
	}
	return store.Response{ID: w.ID, SurveyID: w.SurveyID, Respondent: w.Respondent, Data: data, Metadata: meta,
		Telemetry: w.Telemetry, CreatedAt: fromMS(createdAt), UpdatedAt: fromMS(at)}, nil
}

const responseColumns = `id, survey_id, respondent, data, metadata, telemetry, created_at, updated_at`

func scanResponse(row interface{ Scan(...any) error }) (store.Response, error) {
	var (
		r                 store.Response
		data, meta        []byte
		telemetry         sql.NullString
		created, modified int64
	)
	if err := row.Scan(&r.ID, &r.SurveyID, &r.Respondent, &data, &meta, &telemetry, &created, &modified); err != nil {
		return store.Response{}, err
	}
	r.Data, r.Metadata = data, meta
	if telemetry.Valid {
		r.Telemetry = &telemetry.String
	}
	r.CreatedAt, r.UpdatedAt = fromMS(created), fromMS(modified)
	return r, nil
}

func readResponse(tx *sql.Tx, surveyID, id string) (store.Response, error) {
	r, err := scanResponse(tx.QueryRow(`SELECT `+responseColumns+` FROM responses WHERE survey_id = ? AND id = ?`, surveyID, id))
	return r, mapErr(err, "read response "+id)
}

// Responses implements store.Store.
func (s *Store) Responses(ctx context.Context, q store.ResponseQuery) ([]store.Response, *store.Cursor, error) {
	if q.Limit <= 0 {
		return nil, nil, fmt.Errorf("list responses: %w: limit must be positive", store.ErrInvalid)
	}
	sqlq := `SELECT ` + responseColumns + ` FROM responses WHERE survey_id = ?`
	args := []any{q.SurveyID}
	if q.Respondent != "" {
		sqlq += ` AND respondent = ?`
		args = append(args, q.Respondent)
	}
	if !q.After.IsZero() {
		sqlq += ` AND created_at >= ?`
		args = append(args, ms(q.After))
	}
	if !q.Before.IsZero() {
		sqlq += ` AND created_at <= ?`
		args = append(args, ms(q.Before))
	}
	if q.Cursor != nil {
		sqlq += ` AND (created_at, id) < (?, ?)`
		args = append(args, ms(q.Cursor.CreatedAt), q.Cursor.ID)
	}
	sqlq += ` ORDER BY created_at DESC, id DESC LIMIT ?`
	args = append(args, q.Limit+1)
	rows, err := s.rdb.QueryContext(ctx, sqlq, args...)
	if err != nil {
		return nil, nil, mapErr(err, "list responses")
	}
	defer rows.Close()
	page := make([]store.Response, 0, min(q.Limit+1, 101))
	for rows.Next() {
		r, err := scanResponse(rows)
		if err != nil {
			return nil, nil, mapErr(err, "list responses")
		}
		page = append(page, r)
	}
	if err := rows.Err(); err != nil {
		return nil, nil, mapErr(err, "list responses")
	}
	page, next := trim(page, q.Limit, func(r store.Response) store.Cursor {
		return store.Cursor{CreatedAt: r.CreatedAt, ID: r.ID}
	})
	return page, next, nil
}

// ratingIDs returns the survey's rating question ids, decoding its definition only when it
// changed since the last call.
func (s *Store) ratingIDs(tx *sql.Tx, surveyID string, updatedAt int64) (map[string]bool, error) {
	s.ratingMu.Lock()
	c, ok := s.ratingQuestions[surveyID]
	s.ratingMu.Unlock()
	if ok && c.updatedAt == updatedAt {
		return c.ids, nil
	}
	var raw []byte
	if err := tx.QueryRow(`SELECT definition FROM surveys WHERE id = ?`, surveyID).Scan(&raw); err != nil {
		return nil, mapErr(err, "survey "+surveyID)
	}
	var def survey.Definition
	if err := json.Unmarshal(raw, &def); err != nil {
		return nil, fmt.Errorf("survey %s: stored definition: %w", surveyID, err)
	}
	ids := make(map[string]bool)
	for _, q := range def.Questions {
		if q.Type() == survey.TypeRating {
			ids[q.ID] = true
		}
	}
	s.ratingMu.Lock()
	s.ratingQuestions[surveyID] = ratingSet{updatedAt: updatedAt, ids: ids}
	s.ratingMu.Unlock()
	return ids, nil
}

// scores picks the rating answers out of a response's data.
func scores(data survey.Answers, ratingIDs map[string]bool) map[string]int {
	out := make(map[string]int)
	for id, a := range data {
		if n, ok := a.(survey.Number); ok && ratingIDs[id] {
			out[id] = int(n)
		}
	}
	return out
}

// floorDiv is the bucket (day or hour) of a time in milliseconds.
func floorDiv(at, size int64) int64 {
	d := at / size
	if at%size < 0 {
		d--
	}
	return d
}

func day(at int64) int64 { return floorDiv(at, dayMS) }

// rollups are the per-bucket rating count tables, largest bucket first.
var rollups = []struct {
	table, column string
	size          int64
}{
	{"rating_days", "day", dayMS},
	{"rating_hours", "hour", hourMS},
}

func (s *Store) addRatings(tx *sql.Tx, surveyID, responseID string, sc map[string]int, createdAt int64) error {
	for qid, score := range sc {
		if _, err := s.exec(tx, `INSERT INTO ratings (survey_id, response_id, question_id, score, created_at) VALUES (?, ?, ?, ?, ?)`,
			surveyID, responseID, qid, score, createdAt); err != nil {
			return mapErr(err, "record rating")
		}
		if err := s.countRating(tx, surveyID, qid, score, createdAt, 1); err != nil {
			return err
		}
	}
	return nil
}

// countRating adds delta to the lifetime total and the rollups of a score given at createdAt.
func (s *Store) countRating(tx *sql.Tx, surveyID, qid string, score int, createdAt, delta int64) error {
	if _, err := s.exec(tx, `INSERT INTO rating_totals (survey_id, question_id, score, n) VALUES (?, ?, ?, ?)
		ON CONFLICT (survey_id, question_id, score) DO UPDATE SET n = n + excluded.n`, surveyID, qid, score, delta); err != nil {
		return mapErr(err, "count rating")
	}
	for _, r := range rollups {
		_, err := s.exec(tx, `INSERT INTO `+r.table+` (survey_id, question_id, `+r.column+`, score, n) VALUES (?, ?, ?, ?, ?)
			ON CONFLICT (survey_id, question_id, `+r.column+`, score) DO UPDATE SET n = n + excluded.n`,
			surveyID, qid, floorDiv(createdAt, r.size), score, delta)
		if err != nil {
			return mapErr(err, "count rating")
		}
	}
	return nil
}

func (s *Store) removeRatings(tx *sql.Tx, surveyID, responseID string) error {
	rows, err := s.stmt(tx, `DELETE FROM ratings WHERE survey_id = ? AND response_id = ? RETURNING question_id, score, created_at`).Query(
		surveyID, responseID)
	if err != nil {
		return mapErr(err, "remove ratings")
	}
	type old struct {
		qid       string
		score     int
		createdAt int64
	}
	var olds []old
	for rows.Next() {
		var o old
		if err := rows.Scan(&o.qid, &o.score, &o.createdAt); err != nil {
			rows.Close()
			return mapErr(err, "remove ratings")
		}
		olds = append(olds, o)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return mapErr(err, "remove ratings")
	}
	for _, o := range olds {
		if err := s.countRating(tx, surveyID, o.qid, o.score, o.createdAt, -1); err != nil {
			return err
		}
	}
	return nil
}

// touchRespondent moves one of a respondent's last-interaction times forward to at, and
// reports whether it was the first interaction of that kind.
func (s *Store) touchRespondent(tx *sql.Tx, surveyID, respondent, column string, at int64) (bool, error) {
	var prev sql.NullInt64
	err := s.queryRow(tx, `SELECT `+column+` FROM respondents WHERE survey_id = ? AND respondent = ?`, surveyID, respondent).Scan(&prev)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return false, mapErr(err, "respondent history")
	}
	_, err = s.exec(tx, `INSERT INTO respondents (survey_id, respondent, `+column+`) VALUES (?, ?, ?)
		ON CONFLICT (survey_id, respondent) DO UPDATE SET `+column+` = MAX(COALESCE(`+column+`, excluded.`+column+`), excluded.`+column+`)`,
		surveyID, respondent, at)
	if err != nil {
		return false, mapErr(err, "respondent history")
	}
	return !prev.Valid, nil
}
