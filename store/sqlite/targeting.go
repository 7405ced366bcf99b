package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/svc-feedback/svc/store"
	"github.com/svc-feedback/svc/store/internal/sqlrow"
)

var _ store.Targeter = (*Store)(nil)

// Settings implements store.Targeter.
func (s *Store) Settings(ctx context.Context, teamID string) (store.TeamSettings, error) {
	if err := s.checkOpen("settings"); err != nil {
		return store.TeamSettings{}, err
	}
	st, err := sqlrow.ScanSettings(s.rdb.QueryRowContext(ctx, sqlrow.SettingsSQL("+?"), teamID))
	return st, s.mapErr(err, "settings of team "+teamID)
}

// ModifySettings implements store.Targeter.
func (s *Store) ModifySettings(ctx context.Context, teamID string, fn func(*store.TeamSettings) error) (store.TeamSettings, error) {
	var out store.TeamSettings
	err := s.write(ctx, func(tx *sql.Tx) error {
		st, err := sqlrow.ScanSettings(tx.QueryRow(sqlrow.SettingsSQL("+?"), teamID))
		if err != nil {
			return s.mapErr(err, "settings of team "+teamID)
		}
		before := st
		before.Segments = slices.Clone(st.Segments)
		if err := fn(&st); err != nil {
			return err
		}
		segments := sqlrow.SettingsChange(before, &st)
		var at int64
		err = tx.QueryRow(`INSERT INTO team_settings (team_id, cooldown_days, segments, segments_gen, updated_at) VALUES (?, ?, ?, ?, ?)
			ON CONFLICT (team_id) DO UPDATE SET cooldown_days = excluded.cooldown_days, segments = excluded.segments,
				segments_gen = excluded.segments_gen, updated_at = MAX(excluded.updated_at, team_settings.updated_at + 1)
			RETURNING updated_at`, teamID, st.CooldownDays, segments, st.SegmentsGeneration, time.Now().UnixMilli()).Scan(&at)
		if err != nil {
			return s.mapErr(err, "settings of team "+teamID)
		}
		st.UpdatedAt = sqlrow.FromMS(at)
		out = st
		return nil
	})
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
	defer s.persons.Drop(respondent)
	return s.write(ctx, func(tx *sql.Tx) error {
		if err := s.teamExists(tx, teamID); err != nil {
			return err
		}
		var err error
		if b == nil {
			_, err = tx.Exec(`DELETE FROM person_attributes WHERE team_id = ? AND respondent = ?`, teamID, respondent)
		} else {
			_, err = tx.Exec(`INSERT INTO person_attributes (team_id, respondent, attributes) VALUES (?, ?, ?)
				ON CONFLICT (team_id, respondent) DO UPDATE SET attributes = excluded.attributes`, teamID, respondent, string(b))
		}
		return s.mapErr(err, "set attributes")
	})
}

// teamExists checks that a team exists, in tx: ErrNotFound if not.
func (s *Store) teamExists(tx *sql.Tx, teamID string) error {
	var id string
	err := tx.QueryRow(`SELECT id FROM teams WHERE id = ?`, teamID).Scan(&id)
	return s.mapErr(err, "team "+teamID)
}

// AddPrompt implements store.Targeter.
func (s *Store) AddPrompt(ctx context.Context, p store.Prompt) error {
	defer s.persons.Drop(p.Respondent)
	return s.write(ctx, func(tx *sql.Tx) error {
		var team string
		err := tx.QueryRow(`SELECT team_id FROM surveys WHERE id = ? AND status <> 'deleted'`, p.SurveyID).Scan(&team)
		if errors.Is(err, sql.ErrNoRows) || (err == nil && team != p.TeamID) {
			return fmt.Errorf("add prompt: survey %s: %w", p.SurveyID, store.ErrNotFound)
		}
		if err != nil {
			return s.mapErr(err, "add prompt")
		}
		_, err = tx.Exec(`INSERT INTO prompts (id, team_id, survey_id, respondent, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?)`,
			p.ID, p.TeamID, p.SurveyID, p.Respondent, sqlrow.MS(p.CreatedAt), sqlrow.NullMS(p.ExpiresAt))
		return s.mapErr(err, "add prompt "+p.ID)
	})
}

// Prompts implements store.Targeter.
func (s *Store) Prompts(ctx context.Context, teamID, surveyID string, limit int) ([]store.Prompt, error) {
	if err := s.checkOpen("list prompts"); err != nil {
		return nil, err
	}
	rows, err := s.rdb.QueryContext(ctx, `SELECT id, team_id, survey_id, respondent, created_at, expires_at FROM prompts
		WHERE survey_id = ? AND team_id = ? ORDER BY created_at, id LIMIT ?`, surveyID, teamID, limit)
	if err != nil {
		return nil, s.mapErr(err, "list prompts")
	}
	return scanPrompts(rows)
}

// DeletePrompt implements store.Targeter.
func (s *Store) DeletePrompt(ctx context.Context, teamID, surveyID, id string) error {
	var respondent string
	err := s.write(ctx, func(tx *sql.Tx) error {
		err := tx.QueryRow(`DELETE FROM prompts WHERE id = ? AND survey_id = ? AND team_id = ? RETURNING respondent`,
			id, surveyID, teamID).Scan(&respondent)
		if errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("delete prompt %s: %w", id, store.ErrNotFound)
		}
		return s.mapErr(err, "delete prompt "+id)
	})
	if err == nil {
		s.persons.Drop(respondent)
	}
	return err
}

// Person implements store.Targeter: the person's attributes, prompts and history with the team's
// surveys, in one statement (a snapshot of its own), the lists as JSON arrays, or from memory
// when read a moment ago and not changed since (personcache).
func (s *Store) Person(ctx context.Context, teamID, respondent string, asked []string) (store.Person, error) {
	if err := s.checkOpen("read person"); err != nil {
		return store.Person{}, err
	}
	return s.persons.Person(teamID, respondent, asked, func() (store.Person, error) {
		return s.readPerson(ctx, teamID, respondent, asked)
	})
}

// readPerson reads what Person returns from the database.
func (s *Store) readPerson(ctx context.Context, teamID, respondent string, asked []string) (store.Person, error) {
	ids, err := json.Marshal(asked)
	if err != nil {
		return store.Person{}, err
	}
	var attrs, prompts, seen, responded []byte
	// A read of a few index entries: without the request's cancellation, database/sql starts no
	// goroutine to watch for it.
	err = s.rdb.QueryRowContext(context.WithoutCancel(ctx), `SELECT
		(SELECT attributes FROM person_attributes WHERE team_id = +?1 AND respondent = +?2),
		(SELECT json_group_array(json_array(id, survey_id, created_at, expires_at)) FROM
			(SELECT id, survey_id, created_at, expires_at FROM prompts WHERE team_id = +?1 AND respondent = +?2 ORDER BY created_at, id)),
		(SELECT json_group_array(json_array(r.survey_id, r.views, r.last_viewed_at, r.last_dismissed_at))
			FROM respondents AS r JOIN surveys AS s ON s.id = r.survey_id
			WHERE r.respondent = +?2 AND s.team_id = +?1 AND (r.last_viewed_at IS NOT NULL OR r.last_dismissed_at IS NOT NULL)),
		(SELECT json_group_array(a.value) FROM json_each(?3) AS a
			WHERE EXISTS (SELECT 1 FROM responses WHERE survey_id = a.value AND respondent = +?2))`,
		teamID, respondent, string(ids)).Scan(&attrs, &prompts, &seen, &responded)
	if err != nil {
		return store.Person{}, s.mapErr(err, "read person")
	}
	p, err := sqlrow.DecodePerson(teamID, respondent, attrs, prompts, seen, responded)
	return p, s.mapErr(err, "read person")
}

// Responded implements store.Targeter, through the respondent index of responses.
func (s *Store) Responded(ctx context.Context, surveyID, respondent string) (bool, error) {
	if err := s.checkOpen("read history"); err != nil {
		return false, err
	}
	var yes bool
	err := s.rdb.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM responses WHERE survey_id = +?1 AND respondent = +?2)`,
		surveyID, respondent).Scan(&yes)
	return yes, s.mapErr(err, "read history")
}

func scanPrompts(rows *sql.Rows) ([]store.Prompt, error) {
	defer rows.Close()
	var out []store.Prompt
	for rows.Next() {
		var p store.Prompt
		var created int64
		var expires *int64
		if err := rows.Scan(&p.ID, &p.TeamID, &p.SurveyID, &p.Respondent, &created, &expires); err != nil {
			return nil, mapErr(err, "read prompts")
		}
		p.CreatedAt, p.ExpiresAt = sqlrow.FromMS(created), sqlrow.FromNullMS(expires)
		out = append(out, p)
	}
	return out, mapErr(rows.Err(), "read prompts")
}

var _ store.RulesVersioner = (*Store)(nil)

// RulesVersion implements store.RulesVersioner from the team's surveys' rows, without reading
// their definitions.
func (s *Store) RulesVersion(ctx context.Context, teamID string) (string, error) {
	if err := s.checkOpen("read display rules"); err != nil {
		return "", err
	}
	v, err := sqlrow.ScanRulesVersion(s.rdb.QueryRowContext(ctx, sqlrow.RulesVersionSQL("?"), teamID))
	return v, s.mapErr(err, "read display rules")
}

// ActiveRules implements store.Targeter: SQLite takes the display rules out of the stored
// definition, so that only they are decoded.
func (s *Store) ActiveRules(ctx context.Context, teamID string) ([]store.SurveyRules, error) {
	if err := s.checkOpen("read display rules"); err != nil {
		return nil, err
	}
	rows, err := s.rdb.QueryContext(ctx, `SELECT id, created_at, updated_at, json_extract(definition, '$.display')
		FROM surveys WHERE team_id = +? AND status = 'active' AND status <> 'deleted'`, teamID)
	if err != nil {
		return nil, s.mapErr(err, "read display rules")
	}
	defer rows.Close()
	var out []store.SurveyRules
	for rows.Next() {
		r, err := sqlrow.ScanSurveyRules(rows)
		if err != nil {
			return nil, s.mapErr(err, "read display rules")
		}
		out = append(out, r)
	}
	return out, s.mapErr(rows.Err(), "read display rules")
}
