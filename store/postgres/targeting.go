package postgres

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/svc-feedback/svc/store"
	"github.com/svc-feedback/svc/store/internal/sqlrow"
)

var _ store.Targeter = (*Store)(nil)

// Settings implements store.Targeter.
func (s *Store) Settings(ctx context.Context, teamID string) (store.TeamSettings, error) {
	if err := s.checkOpen("settings"); err != nil {
		return store.TeamSettings{}, err
	}
	st, err := sqlrow.ScanSettings(s.pool.QueryRow(ctx, sqlrow.SettingsSQL("$1"), teamID))
	return st, s.mapErr(err, "settings of team "+teamID)
}

// ModifySettings implements store.Targeter: the team's row is locked while fn decides.
func (s *Store) ModifySettings(ctx context.Context, teamID string, fn func(*store.TeamSettings) error) (store.TeamSettings, error) {
	var (
		out   store.TeamSettings
		fnErr error
	)
	err := s.tx(ctx, "settings of team "+teamID, func(tx pgx.Tx) error {
		st, err := sqlrow.ScanSettings(tx.QueryRow(ctx, sqlrow.SettingsSQL("$1")+` FOR UPDATE OF t`, teamID))
		if err != nil {
			return err
		}
		before := st
		before.Segments = slices.Clone(st.Segments)
		if fnErr = fn(&st); fnErr != nil {
			return fnErr
		}
		segments := sqlrow.SettingsChange(before, &st)
		var at int64
		err = tx.QueryRow(ctx, `INSERT INTO team_settings (team_id, cooldown_days, segments, segments_gen, updated_at) VALUES ($1, $2, $3, $4, $5)
			ON CONFLICT (team_id) DO UPDATE SET cooldown_days = excluded.cooldown_days, segments = excluded.segments,
				segments_gen = excluded.segments_gen, updated_at = GREATEST(excluded.updated_at, team_settings.updated_at + 1)
			RETURNING updated_at`, teamID, st.CooldownDays, segments, st.SegmentsGeneration, time.Now().UnixMilli()).Scan(&at)
		if err != nil {
			return err
		}
		st.UpdatedAt = sqlrow.FromMS(at)
		out = st
		return nil
	})
	if fnErr != nil {
		return store.TeamSettings{}, fnErr // as fn gave it
	}
	return out, err
}

// SetAttributes implements store.Targeter.
func (s *Store) SetAttributes(ctx context.Context, teamID, respondent string, attrs map[string]any) error {
	var b []byte
	if len(attrs) > 0 {
		var err error
		if b, err = json.Marshal(attrs); err != nil {
			return fmt.Errorf("set attributes: %w", store.Invalidf("attributes: %v", err))
		}
	}
	return s.tx(ctx, "set attributes", func(tx pgx.Tx) error {
		var exists bool
		if err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM teams WHERE id = $1)`, teamID).Scan(&exists); err != nil {
			return err
		}
		if !exists {
			return fmt.Errorf("team %s: %w", teamID, store.ErrNotFound)
		}
		var err error
		if b == nil {
			_, err = tx.Exec(ctx, `DELETE FROM person_attributes WHERE team_id = $1 AND respondent = $2`, teamID, respondent)
		} else {
			_, err = tx.Exec(ctx, `INSERT INTO person_attributes (team_id, respondent, attributes) VALUES ($1, $2, $3)
				ON CONFLICT (team_id, respondent) DO UPDATE SET attributes = excluded.attributes`, teamID, respondent, string(b))
		}
		if err != nil {
			return err
		}
		return notifyPersons(ctx, tx, respondent)
	})
}

// AddPrompt implements store.Targeter.
func (s *Store) AddPrompt(ctx context.Context, p store.Prompt) error {
	return s.tx(ctx, "add prompt "+p.ID, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, `INSERT INTO prompts (id, team_id, survey_id, respondent, created_at, expires_at)
			SELECT $1, $2, $3, $4, $5, $6 FROM surveys WHERE id = $3 AND team_id = $2 AND status <> 'deleted'`,
			p.ID, p.TeamID, p.SurveyID, p.Respondent, sqlrow.MS(p.CreatedAt), sqlrow.NullMS(p.ExpiresAt))
		if err != nil {
			return err
		}
		if tag.RowsAffected() == 0 {
			return fmt.Errorf("survey %s: %w", p.SurveyID, store.ErrNotFound)
		}
		return notifyPersons(ctx, tx, p.Respondent)
	})
}

// Prompts implements store.Targeter.
func (s *Store) Prompts(ctx context.Context, teamID, surveyID string, limit int) ([]store.Prompt, error) {
	if err := s.checkOpen("list prompts"); err != nil {
		return nil, err
	}
	rows, err := s.pool.Query(ctx, `SELECT `+promptColumns+` FROM prompts WHERE survey_id = $1 AND team_id = $2
		ORDER BY created_at, id LIMIT $3`, surveyID, teamID, limit)
	if err != nil {
		return nil, s.mapErr(err, "list prompts")
	}
	out, err := pgx.CollectRows(rows, scanPrompt)
	return out, s.mapErr(err, "list prompts")
}

// DeletePrompt implements store.Targeter.
func (s *Store) DeletePrompt(ctx context.Context, teamID, surveyID, id string) error {
	return s.tx(ctx, "delete prompt "+id, func(tx pgx.Tx) error {
		var respondent string
		err := tx.QueryRow(ctx, `DELETE FROM prompts WHERE id = $1 AND survey_id = $2 AND team_id = $3 RETURNING respondent`,
			id, surveyID, teamID).Scan(&respondent)
		if errors.Is(err, pgx.ErrNoRows) {
			return fmt.Errorf("prompt %s: %w", id, store.ErrNotFound)
		}
		if err != nil {
			return err
		}
		return notifyPersons(ctx, tx, respondent)
	})
}

// readPerson reads what Person returns: the person's attributes, prompts and history with the
// team's surveys, in one statement (so one snapshot, and one round trip without a transaction
// around it), each part aggregated as JSON for sqlrow.DecodePerson.
func (s *Store) readPerson(ctx context.Context, teamID, respondent string, asked []string) (store.Person, error) {
	var attrs, prompts, seen, responded []byte
	err := s.pool.QueryRow(ctx, `SELECT
		(SELECT attributes FROM person_attributes WHERE team_id = $1 AND respondent = $2),
		(SELECT json_agg(json_build_array(id, survey_id, created_at, expires_at) ORDER BY created_at, id)
			FROM prompts WHERE team_id = $1 AND respondent = $2),
		(SELECT json_agg(json_build_array(r.survey_id, r.views, r.last_viewed_at, r.last_dismissed_at))
			FROM respondents AS r JOIN surveys AS s ON s.id = r.survey_id
			WHERE r.respondent = $2 AND s.team_id = $1 AND (r.last_viewed_at IS NOT NULL OR r.last_dismissed_at IS NOT NULL)),
		(SELECT json_agg(DISTINCT survey_id) FROM responses WHERE survey_id = ANY($3::text[]) AND respondent = $2)`,
		teamID, respondent, asked).Scan(&attrs, &prompts, &seen, &responded)
	if err != nil {
		return store.Person{}, s.mapErr(err, "read person")
	}
	p, err := sqlrow.DecodePerson(teamID, respondent, attrs, prompts, seen, responded)
	return p, s.mapErr(err, "read person")
}

// Responded implements store.Targeter.
func (s *Store) Responded(ctx context.Context, surveyID, respondent string) (bool, error) {
	if err := s.checkOpen("read history"); err != nil {
		return false, err
	}
	var yes bool
	err := s.pool.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM responses WHERE survey_id = $1 AND respondent = $2)`, surveyID, respondent).Scan(&yes)
	return yes, s.mapErr(err, "read history")
}

const promptColumns = `id, team_id, survey_id, respondent, created_at, expires_at`

func scanPrompt(row pgx.CollectableRow) (store.Prompt, error) {
	var p store.Prompt
	var created int64
	var expires *int64
	if err := row.Scan(&p.ID, &p.TeamID, &p.SurveyID, &p.Respondent, &created, &expires); err != nil {
		return store.Prompt{}, err
	}
	p.CreatedAt, p.ExpiresAt = sqlrow.FromMS(created), sqlrow.FromNullMS(expires)
	return p, nil
}

var _ store.RulesVersioner = (*Store)(nil)

// RulesVersion implements store.RulesVersioner from the team's surveys' rows, without reading
// their definitions.
func (s *Store) RulesVersion(ctx context.Context, teamID string) (string, error) {
	if err := s.checkOpen("read display rules"); err != nil {
		return "", err
	}
	v, err := sqlrow.ScanRulesVersion(s.pool.QueryRow(ctx, sqlrow.RulesVersionSQL("$1"), teamID))
	return v, s.mapErr(err, "read display rules")
}

// ActiveRules implements store.Targeter: PostgreSQL takes the display rules out of the stored
// definition, so that only they travel and are decoded.
func (s *Store) ActiveRules(ctx context.Context, teamID string) ([]store.SurveyRules, error) {
	if err := s.checkOpen("read display rules"); err != nil {
		return nil, err
	}
	rows, err := s.pool.Query(ctx, `SELECT id, created_at, updated_at, definition::json -> 'display'
		FROM surveys WHERE team_id = $1 AND status = 'active' AND status <> 'deleted'`, teamID)
	if err != nil {
		return nil, s.mapErr(err, "read display rules")
	}
	out, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (store.SurveyRules, error) {
		return sqlrow.ScanSurveyRules(row)
	})
	return out, s.mapErr(err, "read display rules")
}
