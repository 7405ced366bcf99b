package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/svc-feedback/svc/store"
	"github.com/svc-feedback/svc/store/internal/sqlrow"
)

var _ store.Linker = (*Store)(nil)

// LinkSurvey implements store.Linker.
func (s *Store) LinkSurvey(ctx context.Context, id string) (store.Survey, error) {
	return s.surveyByID(ctx, id)
}

// LinkSecrets implements store.Linker.
func (s *Store) LinkSecrets(ctx context.Context, teamID string) (store.LinkSecrets, error) {
	if err := s.checkOpen("link secrets"); err != nil {
		return store.LinkSecrets{}, err
	}
	var (
		l       store.LinkSecrets
		expires int64
	)
	err := s.pool.QueryRow(ctx, `SELECT secret, previous_secret, previous_expires_at FROM link_secrets WHERE team_id = $1`, teamID).
		Scan(&l.Secret, &l.Previous, &expires)
	if errors.Is(err, pgx.ErrNoRows) {
		return store.LinkSecrets{}, nil
	}
	l.PreviousExpiresAt = sqlrow.FromMS(expires)
	return l, s.mapErr(err, "link secrets of team "+teamID)
}

// RotateLinkSecret implements store.Linker.
func (s *Store) RotateLinkSecret(ctx context.Context, teamID, secret string, previousUntil time.Time) (store.LinkSecrets, error) {
	var l store.LinkSecrets
	err := s.tx(ctx, "rotate link secret of team "+teamID, func(tx pgx.Tx) error {
		var exists bool
		if err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM teams WHERE id = $1)`, teamID).Scan(&exists); err != nil {
			return err
		}
		if !exists {
			return fmt.Errorf("team %s: %w", teamID, store.ErrNotFound)
		}
		var expires int64
		err := tx.QueryRow(ctx, `INSERT INTO link_secrets (team_id, secret) VALUES ($1, $2)
			ON CONFLICT (team_id) DO UPDATE SET previous_secret = link_secrets.secret, previous_expires_at = $3, secret = excluded.secret
			RETURNING secret, previous_secret, previous_expires_at`, teamID, secret, sqlrow.MS(previousUntil)).Scan(&l.Secret, &l.Previous, &expires)
		l.PreviousExpiresAt = sqlrow.FromMS(expires)
		return err
	})
	return l, err
}
