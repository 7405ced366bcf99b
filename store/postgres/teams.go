package postgres

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/svc-feedback/svc/store"
	"github.com/svc-feedback/svc/store/internal/sqlrow"
)

// CreateTeam implements store.Store.
func (s *Store) CreateTeam(ctx context.Context, t store.Team) error {
	if t.ID == "" {
		return fmt.Errorf("create team: %w", store.Invalidf("id is required"))
	}
	if t.CreatedAt.IsZero() {
		t.CreatedAt = time.Now()
	}
	if err := s.checkOpen("create team"); err != nil {
		return err
	}
	_, err := s.pool.Exec(ctx, `INSERT INTO teams (id, name, created_at) VALUES ($1, $2, $3)`, t.ID, t.Name, sqlrow.MS(t.CreatedAt))
	return s.mapErr(err, "create team "+t.ID)
}

// Team implements store.Store.
func (s *Store) Team(ctx context.Context, id string) (store.Team, error) {
	if err := s.checkOpen("team " + id); err != nil {
		return store.Team{}, err
	}
	t := store.Team{ID: id}
	var created int64
	err := s.pool.QueryRow(ctx, `SELECT name, created_at FROM teams WHERE id = $1`, id).Scan(&t.Name, &created)
	if err != nil {
		return store.Team{}, s.mapErr(err, "team "+id)
	}
	t.CreatedAt = sqlrow.FromMS(created)
	return t, nil
}

// AddKey implements store.Store.
func (s *Store) AddKey(ctx context.Context, k store.Key, plaintext string) error {
	if k.Kind != store.Publishable && k.Kind != store.Secret {
		return fmt.Errorf("add key: %w", store.Invalidf("unknown kind %q", k.Kind))
	}
	if err := s.checkOpen("add key"); err != nil {
		return err
	}
	defer s.cache.dropKeys()
	_, err := s.pool.Exec(ctx, `INSERT INTO api_keys (id, team_id, kind, hash, hint, created_at) VALUES ($1, $2, $3, $4, $5, $6)`,
		k.ID, k.TeamID, string(k.Kind), store.HashKey(plaintext), k.Hint, sqlrow.MS(k.CreatedAt))
	return s.mapErr(err, "add key")
}

// LookupKey implements store.Store.
func (s *Store) LookupKey(ctx context.Context, plaintext string) (store.Key, error) {
	if err := s.checkOpen("look up key"); err != nil {
		return store.Key{}, err
	}
	hash := store.HashKey(plaintext)
	if k, ok := s.cache.key(string(hash)); ok {
		return k, nil
	}
	k, err := sqlrow.ScanKey(s.pool.QueryRow(ctx, `SELECT `+sqlrow.KeyColumns+` FROM api_keys WHERE hash = $1 AND revoked_at IS NULL`, hash))
	if err != nil {
		return store.Key{}, s.mapErr(err, "look up key")
	}
	s.cache.putKey(string(hash), k)
	return k, nil
}

// Keys implements store.Store.
func (s *Store) Keys(ctx context.Context, teamID string) ([]store.Key, error) {
	if err := s.checkOpen("list keys"); err != nil {
		return nil, err
	}
	rows, err := s.pool.Query(ctx, `SELECT `+sqlrow.KeyColumns+` FROM api_keys WHERE team_id = $1 ORDER BY created_at, id`, teamID)
	if err != nil {
		return nil, s.mapErr(err, "list keys")
	}
	keys, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (store.Key, error) { return sqlrow.ScanKey(row) })
	return keys, s.mapErr(err, "list keys")
}

// RevokeKey implements store.Store.
func (s *Store) RevokeKey(ctx context.Context, teamID, keyID string, at time.Time) error {
	if err := s.checkOpen("revoke key"); err != nil {
		return err
	}
	defer s.announce(ctx, "keys")
	defer s.cache.dropKeys()
	tag, err := s.pool.Exec(ctx, `UPDATE api_keys SET revoked_at = COALESCE(revoked_at, $1) WHERE id = $2 AND team_id = $3`,
		sqlrow.MS(at), keyID, teamID)
	if err != nil {
		return s.mapErr(err, "revoke key")
	}
	if tag.RowsAffected() == 0 {
		return fmt.Errorf("revoke key %s: %w", keyID, store.ErrNotFound)
	}
	return nil
}
