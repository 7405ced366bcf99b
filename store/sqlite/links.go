package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"time"

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
	err := s.rdb.QueryRowContext(ctx, `SELECT secret, previous_secret, previous_expires_at FROM link_secrets WHERE team_id = ?`, teamID).
		Scan(&l.Secret, &l.Previous, &expires)
	if errors.Is(err, sql.ErrNoRows) {
		return store.LinkSecrets{}, nil
	}
	l.PreviousExpiresAt = sqlrow.FromMS(expires)
	return l, s.mapErr(err, "link secrets of team "+teamID)
}

// RotateLinkSecret implements store.Linker.
func (s *Store) RotateLinkSecret(ctx context.Context, teamID, secret string, previousUntil time.Time) (store.LinkSecrets, error) {
	var l store.LinkSecrets
	err := s.write(ctx, func(tx *sql.Tx) error {
		if err := s.teamExists(tx, teamID); err != nil {
			return err
		}
		var expires int64
		err := tx.QueryRow(`INSERT INTO link_secrets (team_id, secret) VALUES (?, ?)
			ON CONFLICT (team_id) DO UPDATE SET previous_secret = link_secrets.secret, previous_expires_at = ?, secret = excluded.secret
			RETURNING secret, previous_secret, previous_expires_at`, teamID, secret, sqlrow.MS(previousUntil)).Scan(&l.Secret, &l.Previous, &expires)
		l.PreviousExpiresAt = sqlrow.FromMS(expires)
		return s.mapErr(err, "rotate link secret of team "+teamID)
	})
	return l, err
}
