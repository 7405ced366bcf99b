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
	l, err := sqlrow.ScanLinkSecrets(s.pool.QueryRow(ctx, sqlrow.LinkSecretsSQL("$1"), teamID))
	if errors.Is(err, pgx.ErrNoRows) {
		return store.LinkSecrets{}, nil
	}
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
		var err error
		l, err = sqlrow.ScanLinkSecrets(tx.QueryRow(ctx, sqlrow.RotateLinkSecretSQL("$1", "$2", "$3"), teamID, secret, sqlrow.MS(previousUntil)))
		return err
	})
	return l, err
}
