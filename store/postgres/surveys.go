package postgres

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/svc-feedback/svc/store"
	"github.com/svc-feedback/svc/store/internal/sqlrow"
)

// statsShards is how many rows a survey's counters are spread over.
const statsShards = 8

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
	return s.tx(ctx, "create survey "+sv.ID, func(tx pgx.Tx) error {
		_, err := tx.Exec(ctx, `INSERT INTO surveys (id, team_id, status, definition, webhook_url, webhook_secret,
			previous_secret, previous_secret_expiry, webhook_wait_seconds, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
			sv.ID, sv.TeamID, string(sv.Status), def, sv.WebhookURL, sv.WebhookSecret,
			sv.PreviousWebhookSecret, expiry(sv), sv.WebhookWaitSeconds, sqlrow.MS(sv.CreatedAt), sqlrow.MS(sv.UpdatedAt))
		if err != nil {
			return err
		}
		_, err = tx.Exec(ctx, `INSERT INTO survey_stats (survey_id, shard) SELECT $1, g FROM generate_series(0, $2 - 1) g`,
			sv.ID, statsShards)
		return err
	})
}

func expiry(sv store.Survey) int64 {
	if sv.PreviousSecretExpiresAt.IsZero() {
		return 0
	}
	return sqlrow.MS(sv.PreviousSecretExpiresAt)
}

// UpdateSurvey implements store.Store.
func (s *Store) UpdateSurvey(ctx context.Context, sv store.Survey) error {
	def, err := sqlrow.EncodeSurvey(&sv)
	if err != nil {
		return fmt.Errorf("update survey: %w", err)
	}
	if err := s.checkOpen("update survey"); err != nil {
		return err
	}
	defer s.announce(ctx, "survey:"+sv.ID)
	defer s.cache.dropSurvey(sv.ID)
	return s.mapErr(storeSurvey(ctx, s.pool, &sv, def), "update survey "+sv.ID)
}

// ModifySurvey implements store.SurveyModifier: the survey's row is locked (FOR UPDATE) from
// the read to the write's commit, so a change by another instance waits for this one and then
// reads what it wrote.
func (s *Store) ModifySurvey(ctx context.Context, teamID, id string, fn func(*store.Survey) error) (store.Survey, error) {
	var (
		out   store.Survey
		fnErr error
	)
	defer s.announce(ctx, "survey:"+id)
	defer s.cache.dropSurvey(id)
	err := s.tx(ctx, "update survey "+id, func(tx pgx.Tx) error {
		sv, err := sqlrow.ScanSurvey(tx.QueryRow(ctx, `SELECT `+sqlrow.SurveyColumns+` FROM surveys WHERE id = $1 FOR UPDATE`, id))
		if sv, err = sqlrow.OfTeam(sv, err, teamID); err != nil {
			return err
		}
		before, _ := json.Marshal(sv.Definition) // as stored, to tell whether fn changed it
		if fnErr = fn(&sv); fnErr != nil {
			return fnErr
		}
		sv.ID, sv.TeamID = id, teamID
		def, err := sqlrow.EncodeChange(&sv, before)
		if err != nil {
			return err
		}
		if err := storeSurvey(ctx, tx, &sv, def); err != nil {
			return err
		}
		out = sv
		return nil
	})
	if fnErr != nil {
		return store.Survey{}, fnErr // as fn gave it
	}
	return out, err
}

// storeSurvey writes a survey's changeable columns and sets sv.UpdatedAt as stored: updated_at
// only moves forward, so it identifies a version of the survey (ETags key on it) even for two
// updates within one millisecond.
func storeSurvey(ctx context.Context, q interface {
	QueryRow(context.Context, string, ...any) pgx.Row
}, sv *store.Survey, def []byte) error {
	var at int64
	err := q.QueryRow(ctx, `UPDATE surveys SET status = $1, definition = $2, webhook_url = $3, webhook_secret = $4,
		previous_secret = $5, previous_secret_expiry = $6, webhook_wait_seconds = $10, updated_at = GREATEST($7, updated_at + 1)
		WHERE id = $8 AND team_id = $9 RETURNING updated_at`,
		string(sv.Status), def, sv.WebhookURL, sv.WebhookSecret, sv.PreviousWebhookSecret, expiry(*sv), sqlrow.MS(sv.UpdatedAt),
		sv.ID, sv.TeamID, sv.WebhookWaitSeconds).Scan(&at)
	if err != nil {
		return err
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

// surveyByID returns a survey of any team, from the read cache while it is fresh. It may be
// shared with the cache: treat it as read-only.
func (s *Store) surveyByID(ctx context.Context, id string) (store.Survey, error) {
	if err := s.checkOpen("survey " + id); err != nil {
		return store.Survey{}, err
	}
	if sv, ok := s.cache.survey(id); ok {
		return sv, nil
	}
	sv, err := sqlrow.ScanSurvey(s.pool.QueryRow(ctx, `SELECT `+sqlrow.SurveyColumns+` FROM surveys WHERE id = $1`, id))
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
	q := `SELECT ` + sqlrow.SurveyColumns + ` FROM surveys WHERE team_id = $1 AND status <> 'deleted'`
	args := []any{teamID}
	if after != nil {
		q += ` AND (created_at, id) < ($2, $3)`
		args = append(args, sqlrow.MS(after.CreatedAt), after.ID)
	}
	q += fmt.Sprintf(` ORDER BY created_at DESC, id DESC LIMIT %d`, limit+1)
	var page []store.Survey
	err := s.read("", func(pool *pgxpool.Pool) error {
		rows, err := pool.Query(ctx, q, args...)
		if err == nil {
			page, err = pgx.CollectRows(rows, func(row pgx.CollectableRow) (store.Survey, error) { return sqlrow.ScanSurvey(row) })
		}
		return err
	})
	if err != nil {
		return nil, nil, s.mapErr(err, "list surveys")
	}
	page, next := sqlrow.Trim(page, limit, func(sv store.Survey) store.Cursor { return store.Cursor{CreatedAt: sv.CreatedAt, ID: sv.ID} })
	return page, next, nil
}
