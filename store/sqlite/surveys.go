package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/svc-feedback/svc/store"
	"github.com/svc-feedback/svc/store/internal/sqlrow"
)

// CreateSurvey implements store.Store.
func (s *Store) CreateSurvey(ctx context.Context, sv store.Survey) error {
	if sv.CreatedAt.IsZero() {
		sv.CreatedAt = time.Now()
	}
	if sv.UpdatedAt.IsZero() {
		sv.UpdatedAt = sv.CreatedAt
	}
	def, err := sqlrow.EncodeSurvey(&sv)
	if err != nil {
		return fmt.Errorf("create survey: %w", err)
	}
	defer s.cache.dropSurvey(sv.ID)
	return s.write(ctx, func(tx *sql.Tx) error {
		_, err := tx.Exec(`INSERT INTO surveys (id, team_id, status, definition, webhook_url, webhook_secret,
			previous_secret, previous_secret_expiry, webhook_wait_seconds, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			sv.ID, sv.TeamID, string(sv.Status), def, sv.WebhookURL, sv.WebhookSecret,
			sv.PreviousWebhookSecret, sqlrow.MS(sv.PreviousSecretExpiresAt), sv.WebhookWaitSeconds, sqlrow.MS(sv.CreatedAt), sqlrow.MS(sv.UpdatedAt))
		if err != nil {
			return s.mapErr(err, "create survey "+sv.ID)
		}
		_, err = tx.Exec(`INSERT INTO survey_stats (survey_id) VALUES (?)`, sv.ID)
		return s.mapErr(err, "create survey "+sv.ID)
	})
}

// UpdateSurvey implements store.Store.
func (s *Store) UpdateSurvey(ctx context.Context, sv store.Survey) error {
	def, err := sqlrow.EncodeSurvey(&sv)
	if err != nil {
		return fmt.Errorf("update survey: %w", err)
	}
	defer s.cache.dropSurvey(sv.ID)
	return s.write(ctx, func(tx *sql.Tx) error { return s.storeSurvey(tx, &sv, def) })
}

// ModifySurvey implements store.SurveyModifier: the read and the write are one of the writer's
// transactions, which hold the database's write lock from their start (BEGIN IMMEDIATE), so no
// other write, of this process or another sharing the file, comes between them.
func (s *Store) ModifySurvey(ctx context.Context, teamID, id string, fn func(*store.Survey) error) (store.Survey, error) {
	var out store.Survey
	defer s.cache.dropSurvey(id)
	err := s.write(ctx, func(tx *sql.Tx) error {
		sv, err := sqlrow.ScanSurvey(tx.QueryRow(`SELECT `+sqlrow.SurveyColumns+` FROM surveys WHERE id = ?`, id))
		if sv, err = sqlrow.OfTeam(sv, err, teamID); err != nil {
			return s.mapErr(err, "survey "+id)
		}
		before, _ := json.Marshal(sv.Definition) // as stored, to tell whether fn changed it
		if err := fn(&sv); err != nil {
			return err
		}
		sv.ID, sv.TeamID = id, teamID
		def, err := sqlrow.EncodeChange(&sv, before)
		if err != nil {
			return fmt.Errorf("update survey: %w", err)
		}
		if err := s.storeSurvey(tx, &sv, def); err != nil {
			return err
		}
		out = sv
		return nil
	})
	return out, err
}

// storeSurvey writes a survey's changeable columns and sets sv.UpdatedAt as stored: updated_at
// only moves forward, so it identifies a version of the survey (caches of encoded surveys and
// ETags key on it) even for two updates within one millisecond.
func (s *Store) storeSurvey(tx *sql.Tx, sv *store.Survey, def []byte) error {
	var at int64
	err := tx.QueryRow(`UPDATE surveys SET status = ?, definition = ?, webhook_url = ?, webhook_secret = ?,
		previous_secret = ?, previous_secret_expiry = ?, webhook_wait_seconds = ?, updated_at = MAX(?, updated_at + 1) WHERE id = ? AND team_id = ?
		RETURNING updated_at`,
		string(sv.Status), def, sv.WebhookURL, sv.WebhookSecret, sv.PreviousWebhookSecret,
		sqlrow.MS(sv.PreviousSecretExpiresAt), sv.WebhookWaitSeconds, sqlrow.MS(sv.UpdatedAt), sv.ID, sv.TeamID).Scan(&at)
	if err != nil {
		return s.mapErr(err, "update survey "+sv.ID)
	}
	sv.UpdatedAt = sqlrow.FromMS(at)
	return nil
}

// Survey implements store.Store.
func (s *Store) Survey(ctx context.Context, teamID, id string) (store.Survey, error) {
	sv, err := s.SharedSurvey(ctx, teamID, id)
	if err != nil {
		return store.Survey{}, err
	}
	// The caller's own questions slice, so changing it does not change the cached survey.
	sv.Questions = slices.Clone(sv.Questions)
	return sv, nil
}

// SharedSurvey implements store.SharedSurveyReader: the survey as the read cache holds it.
func (s *Store) SharedSurvey(ctx context.Context, teamID, id string) (store.Survey, error) {
	sv, err := s.surveyByID(ctx, id)
	return sqlrow.OfTeam(sv, err, teamID)
}

// surveyByID returns a survey of any team, from the read cache when it is fresh. It may be
// shared with the cache: treat it as read-only.
func (s *Store) surveyByID(ctx context.Context, id string) (store.Survey, error) {
	if err := s.checkOpen("survey " + id); err != nil {
		return store.Survey{}, err
	}
	if sv, ok := s.cache.survey(id); ok {
		return sv, nil
	}
	sv, err := sqlrow.ScanSurvey(s.rdb.QueryRowContext(ctx, `SELECT `+sqlrow.SurveyColumns+` FROM surveys WHERE id = ?`, id))
	if err != nil {
		return store.Survey{}, s.mapErr(err, "survey "+id)
	}
	s.cache.putSurvey(sv)
	return sv, nil
}

// Surveys implements store.Store.
func (s *Store) Surveys(ctx context.Context, teamID string, after *store.Cursor, limit int) ([]store.Survey, *store.Cursor, error) {
	if err := s.checkOpen("list surveys"); err != nil {
		return nil, nil, err
	}
	if limit <= 0 {
		return nil, nil, fmt.Errorf("list surveys: %w", store.Invalidf("limit must be positive"))
	}
	q := `SELECT ` + sqlrow.SurveyColumns + ` FROM surveys WHERE team_id = +? AND status <> 'deleted'`
	args := []any{teamID}
	if after != nil {
		q += ` AND (created_at, id) < (?, ?)`
		args = append(args, sqlrow.MS(after.CreatedAt), after.ID)
	}
	q += ` ORDER BY created_at DESC, id DESC LIMIT +?`
	args = append(args, limit+1)
	rows, err := s.rdb.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, nil, s.mapErr(err, "list surveys")
	}
	defer rows.Close()
	page := make([]store.Survey, 0, limit)
	for rows.Next() {
		sv, err := sqlrow.ScanSurvey(rows)
		if err != nil {
			return nil, nil, s.mapErr(err, "list surveys")
		}
		page = append(page, sv)
	}
	if err := rows.Err(); err != nil {
		return nil, nil, s.mapErr(err, "list surveys")
	}
	page, next := sqlrow.Trim(page, limit, func(sv store.Survey) store.Cursor {
		return store.Cursor{CreatedAt: sv.CreatedAt, ID: sv.ID}
	})
	return page, next, nil
}
