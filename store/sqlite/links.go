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
	l, err := sqlrow.ScanLinkSecrets(s.rdb.QueryRowContext(ctx, sqlrow.LinkSecretsSQL("?"), teamID))
	if errors.Is(err, sql.ErrNoRows) {
		return store.LinkSecrets{}, nil
	}
	return l, s.mapErr(err, "link secrets of team "+teamID)
}

// RotateLinkSecret implements store.Linker.
func (s *Store) RotateLinkSecret(ctx context.Context, teamID, secret string, previousUntil time.Time) (store.LinkSecrets, error) {
	var l store.LinkSecrets
	err := s.write(ctx, func(tx *sql.Tx) error {
		if err := s.teamExists(tx, teamID); err != nil {
			return err
		}
		var err error
		l, err = sqlrow.ScanLinkSecrets(tx.QueryRow(sqlrow.RotateLinkSecretSQL("?", "?", "?"), teamID, secret, sqlrow.MS(previousUntil)))
		return s.mapErr(err, "rotate link secret of team "+teamID)
	})
	return l, err
}
