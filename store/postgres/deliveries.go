package postgres

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/svc-feedback/svc/store"
	"github.com/svc-feedback/svc/store/internal/sqlrow"
)

// ClaimDeliveries implements store.Store with FOR UPDATE SKIP LOCKED: instances claiming at
// once each take deliveries the others did not lock.
func (s *Store) ClaimDeliveries(ctx context.Context, now time.Time, lease time.Duration, limit int) ([]store.Delivery, error) {
	if err := s.checkOpen("claim deliveries"); err != nil {
		return nil, err
	}
	if limit <= 0 {
		return nil, nil
	}
	at := sqlrow.MS(now)
	rows, err := s.pool.Query(ctx, `WITH claimed AS (
			UPDATE deliveries SET state = 'delivering', lease_until = $1, updated_at = $2
			WHERE id IN (SELECT id FROM deliveries
				WHERE (state = 'pending' AND next_attempt_at <= $2) OR (state = 'delivering' AND lease_until <= $2)
				ORDER BY next_attempt_at LIMIT $3 FOR UPDATE SKIP LOCKED)
			RETURNING *)
		SELECT `+sqlrow.DeliveryColumns+` FROM claimed d JOIN surveys s ON s.id = d.survey_id ORDER BY d.next_attempt_at`,
		at+lease.Milliseconds(), at, limit)
	if err != nil {
		return nil, s.mapErr(err, "claim deliveries")
	}
	claimed, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (store.Delivery, error) { return sqlrow.ScanDelivery(row) })
	return claimed, s.mapErr(err, "claim deliveries")
}

// FinishDelivery implements store.Store.
func (s *Store) FinishDelivery(ctx context.Context, r store.DeliveryResult) error {
	switch r.State {
	case store.DeliverySucceeded, store.DeliveryFailed, store.DeliveryPending:
	default:
		return fmt.Errorf("finish delivery %s: %w", r.ID, store.Invalidf("state %q", r.State))
	}
	if err := s.checkOpen("finish delivery"); err != nil {
		return err
	}
	at := sqlrow.MS(r.At)
	var delivered *int64
	if r.State == store.DeliverySucceeded {
		delivered = &at
	}
	next := sqlrow.MS(r.NextAttemptAt)
	if r.NextAttemptAt.IsZero() {
		next = at
	}
	tag, err := s.pool.Exec(ctx, `UPDATE deliveries SET state = $1, attempts = attempts + $2, round_attempts = round_attempts + $2,
		last_status = $3, last_error = $4, next_attempt_at = $5, lease_until = 0, updated_at = $6,
		delivered_at = COALESCE($7, delivered_at) WHERE id = $8 AND state = 'delivering'`,
		string(r.State), r.Attempts, r.LastStatus, r.LastError, next, at, delivered, r.ID)
	if err != nil {
		return s.mapErr(err, "finish delivery "+r.ID)
	}
	if tag.RowsAffected() == 0 {
		return fmt.Errorf("finish delivery %s: not claimed: %w", r.ID, store.ErrNotFound)
	}
	return nil
}

// Deliveries implements store.Store.
func (s *Store) Deliveries(ctx context.Context, surveyID string, after *store.Cursor, limit int) ([]store.Delivery, *store.Cursor, error) {
	if err := s.checkOpen("list deliveries"); err != nil {
		return nil, nil, err
	}
	if limit <= 0 {
		return nil, nil, fmt.Errorf("list deliveries: %w", store.Invalidf("limit must be positive"))
	}
	q := `SELECT ` + sqlrow.DeliveryColumns + ` FROM deliveries d JOIN surveys s ON s.id = d.survey_id WHERE d.survey_id = $1`
	args := []any{surveyID}
	if after != nil {
		q += ` AND (d.created_at, d.id) < ($2, $3)`
		args = append(args, sqlrow.MS(after.CreatedAt), after.ID)
	}
	q += fmt.Sprintf(` ORDER BY d.created_at DESC, d.id DESC LIMIT %d`, limit+1)
	rows, err := s.pool.Query(ctx, q, args...)
	if err != nil {
		return nil, nil, s.mapErr(err, "list deliveries")
	}
	page, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (store.Delivery, error) { return sqlrow.ScanDelivery(row) })
	if err != nil {
		return nil, nil, s.mapErr(err, "list deliveries")
	}
	page, next := sqlrow.Trim(page, limit, func(d store.Delivery) store.Cursor { return store.Cursor{CreatedAt: d.CreatedAt, ID: d.ID} })
	return page, next, nil
}

// Redeliver implements store.Store.
func (s *Store) Redeliver(ctx context.Context, surveyID, deliveryID string, at time.Time) (store.Delivery, error) {
	var d store.Delivery
	err := s.tx(ctx, "redeliver "+deliveryID, func(tx pgx.Tx) error {
		var state string
		var leaseUntil int64
		err := tx.QueryRow(ctx, `SELECT state, lease_until FROM deliveries WHERE id = $1 AND survey_id = $2 FOR UPDATE`,
			deliveryID, surveyID).Scan(&state, &leaseUntil)
		if err != nil {
			return err
		}
		// A lease that ran out belongs to a sender that stopped: nothing is sending it.
		if state == string(store.DeliveryDelivering) && leaseUntil > sqlrow.MS(at) {
			return store.Conflictf("the delivery is being sent now")
		}
		if _, err := tx.Exec(ctx, `UPDATE deliveries SET state = 'pending', round_attempts = 0, next_attempt_at = $1, lease_until = 0,
			updated_at = $1 WHERE id = $2`, sqlrow.MS(at), deliveryID); err != nil {
			return err
		}
		d, err = sqlrow.ScanDelivery(tx.QueryRow(ctx, `SELECT `+sqlrow.DeliveryColumns+` FROM deliveries d JOIN surveys s ON s.id = d.survey_id WHERE d.id = $1`, deliveryID))
		if err != nil {
			return err
		}
		return notifyDeliveries(ctx, tx)
	})
	return d, err
}

// PendingDeliveries implements store.OutboxCounter.
func (s *Store) PendingDeliveries(ctx context.Context) (int64, error) {
	if err := s.checkOpen("count pending deliveries"); err != nil {
		return 0, err
	}
	var n int64
	err := s.pool.QueryRow(ctx, `SELECT COUNT(*) FROM deliveries WHERE state IN ('pending', 'delivering')`).Scan(&n)
	return n, s.mapErr(err, "count pending deliveries")
}
