package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"time"

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
	return s.write(ctx, func(tx *sql.Tx) error {
		_, err := tx.Exec(`INSERT INTO teams (id, name, created_at) VALUES (?, ?, ?)`, t.ID, t.Name, sqlrow.MS(t.CreatedAt))
		return s.mapErr(err, "create team "+t.ID)
	})
}

// Team implements store.Store.
func (s *Store) Team(ctx context.Context, id string) (store.Team, error) {
	if err := s.checkOpen("team " + id); err != nil {
		return store.Team{}, err
	}
	t := store.Team{ID: id}
	var created int64
	err := s.rdb.QueryRowContext(ctx, `SELECT name, created_at FROM teams WHERE id = ?`, id).Scan(&t.Name, &created)
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
	defer s.cache.dropKeys()
	return s.write(ctx, func(tx *sql.Tx) error {
		_, err := tx.Exec(`INSERT INTO api_keys (id, team_id, kind, hash, hint, created_at) VALUES (?, ?, ?, ?, ?, ?)`,
			k.ID, k.TeamID, string(k.Kind), store.HashKey(plaintext), k.Hint, sqlrow.MS(k.CreatedAt))
		return s.mapErr(err, "add key")
	})
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
	row := s.rdb.QueryRowContext(ctx, `SELECT `+sqlrow.KeyColumns+` FROM api_keys WHERE hash = ? AND revoked_at IS NULL`, hash)
	k, err := sqlrow.ScanKey(row)
	if err != nil {
		return store.Key{}, s.mapErr(err, "lookup key")
	}
	s.cache.putKey(string(hash), k)
	return k, nil
}

// Keys implements store.Store.
func (s *Store) Keys(ctx context.Context, teamID string) ([]store.Key, error) {
	if err := s.checkOpen("list keys"); err != nil {
		return nil, err
	}
	rows, err := s.rdb.QueryContext(ctx, `SELECT `+sqlrow.KeyColumns+` FROM api_keys WHERE team_id = +? ORDER BY created_at, id`, teamID)
	if err != nil {
		return nil, s.mapErr(err, "list keys")
	}
	defer rows.Close()
	var keys []store.Key
	for rows.Next() {
		k, err := sqlrow.ScanKey(rows)
		if err != nil {
			return nil, s.mapErr(err, "list keys")
		}
		keys = append(keys, k)
	}
	return keys, s.mapErr(rows.Err(), "list keys")
}

// RevokeKey implements store.Store.
func (s *Store) RevokeKey(ctx context.Context, teamID, keyID string, at time.Time) error {
	defer s.cache.dropKeys()
	return s.write(ctx, func(tx *sql.Tx) error {
		res, err := tx.Exec(`UPDATE api_keys SET revoked_at = COALESCE(revoked_at, ?) WHERE id = ? AND team_id = ?`, sqlrow.MS(at), keyID, teamID)
		if err != nil {
			return s.mapErr(err, "revoke key")
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return fmt.Errorf("revoke key %s: %w", keyID, store.ErrNotFound)
		}
		return nil
	})
}

// Ping implements store.Pinger: a read on the read pool.
func (s *Store) Ping(ctx context.Context) error {
	if err := s.checkOpen("ping"); err != nil {
		return err
	}
	var one int
	return s.mapErr(s.rdb.QueryRowContext(ctx, `SELECT 1`).Scan(&one), "ping")
}
