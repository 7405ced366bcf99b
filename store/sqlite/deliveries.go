package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/svc-feedback/svc/store"
	"github.com/svc-feedback/svc/store/internal/sqlrow"
)

// Response implements store.Store.
func (s *Store) Response(ctx context.Context, surveyID, id string) (store.Response, error) {
	if err := s.checkOpen("read response"); err != nil {
		return store.Response{}, err
	}
	r, err := scanResponse(s.rdb.QueryRowContext(ctx, `SELECT `+responseColumns+` FROM responses WHERE survey_id = ? AND id = ?`, surveyID, id))
	if err != nil {
		return store.Response{}, s.mapErr(err, "response "+id)
	}
	return r, nil
}

const deliveryFrom = ` FROM deliveries d JOIN surveys s ON s.id = d.survey_id`

// ClaimDeliveries implements store.Store. The claim is one UPDATE in the single writer's
// transaction, so two callers never lease the same delivery.
func (s *Store) ClaimDeliveries(ctx context.Context, now time.Time, lease time.Duration, limit int) ([]store.Delivery, error) {
	if limit <= 0 {
		return nil, nil
	}
	at := sqlrow.MS(now)
	var claimed []store.Delivery
	err := s.write(ctx, func(tx *sql.Tx) error {
		claimed = claimed[:0]
		rows, err := tx.Query(`UPDATE deliveries SET state = 'delivering', lease_until = ?, updated_at = ?
			WHERE id IN (SELECT id FROM deliveries WHERE state IN ('pending', 'delivering')
				AND ((state = 'pending' AND next_attempt_at <= ?) OR (state = 'delivering' AND lease_until <= ?))
				ORDER BY next_attempt_at LIMIT +?)
			RETURNING id`, at+lease.Milliseconds(), at, at, at, limit)
		if err != nil {
			return s.mapErr(err, "claim deliveries")
		}
		var ids []any
		for rows.Next() {
			var id string
			if err := rows.Scan(&id); err != nil {
				rows.Close()
				return s.mapErr(err, "claim deliveries")
			}
			ids = append(ids, id)
		}
		rows.Close()
		if err := rows.Err(); err != nil || len(ids) == 0 {
			return s.mapErr(err, "claim deliveries")
		}
		q := `SELECT ` + sqlrow.DeliveryColumns + deliveryFrom + ` WHERE d.id IN (?` + strings.Repeat(",?", len(ids)-1) + `) ORDER BY d.next_attempt_at`
		drows, err := tx.Query(q, ids...)
		if err != nil {
			return s.mapErr(err, "claim deliveries")
		}
		defer drows.Close()
		for drows.Next() {
			d, err := sqlrow.ScanDelivery(drows)
			if err != nil {
				return s.mapErr(err, "claim deliveries")
			}
			claimed = append(claimed, d)
		}
		return s.mapErr(drows.Err(), "claim deliveries")
	})
	return claimed, err
}

// FinishDelivery implements store.Store.
func (s *Store) FinishDelivery(ctx context.Context, r store.DeliveryResult) error {
	switch r.State {
	case store.DeliverySucceeded, store.DeliveryFailed, store.DeliveryPending:
	default:
		return fmt.Errorf("finish delivery %s: %w", r.ID, store.Invalidf("state %q", r.State))
	}
	at := sqlrow.MS(r.At)
	var delivered any
	if r.State == store.DeliverySucceeded {
		delivered = at
	}
	next := sqlrow.MS(r.NextAttemptAt)
	if r.NextAttemptAt.IsZero() {
		next = at
	}
	return s.write(ctx, func(tx *sql.Tx) error {
		res, err := tx.Exec(`UPDATE deliveries SET state = ?1, attempts = attempts + ?2, round_attempts = round_attempts + ?2,
			last_status = ?3, last_error = ?4, next_attempt_at = ?5, lease_until = 0, updated_at = ?6,
			delivered_at = COALESCE(?7, delivered_at)
			WHERE id = ?8 AND state = 'delivering'`,
			string(r.State), r.Attempts, r.LastStatus, r.LastError, next, at, delivered, r.ID)
		if err != nil {
			return s.mapErr(err, "finish delivery "+r.ID)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return fmt.Errorf("finish delivery %s: not claimed: %w", r.ID, store.ErrNotFound)
		}
		return nil
	})
}

// Deliveries implements store.Store.
func (s *Store) Deliveries(ctx context.Context, surveyID string, after *store.Cursor, limit int) ([]store.Delivery, *store.Cursor, error) {
	if err := s.checkOpen("list deliveries"); err != nil {
		return nil, nil, err
	}
	if limit <= 0 {
		return nil, nil, fmt.Errorf("list deliveries: %w", store.Invalidf("limit must be positive"))
	}
	q := `SELECT ` + sqlrow.DeliveryColumns + deliveryFrom + ` WHERE d.survey_id = +?`
	args := []any{surveyID}
	if after != nil {
		q += ` AND (d.created_at, d.id) < (?, ?)`
		args = append(args, sqlrow.MS(after.CreatedAt), after.ID)
	}
	q += ` ORDER BY d.created_at DESC, d.id DESC LIMIT +?`
	args = append(args, limit+1)
	rows, err := s.rdb.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, nil, s.mapErr(err, "list deliveries")
	}
	defer rows.Close()
	var page []store.Delivery
	for rows.Next() {
		d, err := sqlrow.ScanDelivery(rows)
		if err != nil {
			return nil, nil, s.mapErr(err, "list deliveries")
		}
		page = append(page, d)
	}
	if err := rows.Err(); err != nil {
		return nil, nil, s.mapErr(err, "list deliveries")
	}
	page, next := sqlrow.Trim(page, limit, func(d store.Delivery) store.Cursor { return store.Cursor{CreatedAt: d.CreatedAt, ID: d.ID} })
	return page, next, nil
}

// Redeliver implements store.Store.
func (s *Store) Redeliver(ctx context.Context, surveyID, deliveryID string, at time.Time) (store.Delivery, error) {
	var d store.Delivery
	err := s.write(ctx, func(tx *sql.Tx) error {
		var state string
		var leaseUntil int64
		err := tx.QueryRow(`SELECT state, lease_until FROM deliveries WHERE id = +? AND survey_id = +?`, deliveryID, surveyID).
			Scan(&state, &leaseUntil)
		if errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("redeliver %s: %w", deliveryID, store.ErrNotFound)
		}
		if err != nil {
			return s.mapErr(err, "redeliver "+deliveryID)
		}
		// A lease that ran out belongs to a sender that stopped: nothing is sending it.
		if state == string(store.DeliveryDelivering) && leaseUntil > sqlrow.MS(at) {
			return fmt.Errorf("redeliver %s: %w", deliveryID, store.Conflictf("the delivery is being sent now"))
		}
		if _, err := tx.Exec(`UPDATE deliveries SET state = 'pending', round_attempts = 0, next_attempt_at = ?, lease_until = 0, updated_at = ? WHERE id = ?`,
			sqlrow.MS(at), sqlrow.MS(at), deliveryID); err != nil {
			return s.mapErr(err, "redeliver "+deliveryID)
		}
		d, err = sqlrow.ScanDelivery(tx.QueryRow(`SELECT `+sqlrow.DeliveryColumns+deliveryFrom+` WHERE d.id = +?`, deliveryID))
		return s.mapErr(err, "redeliver "+deliveryID)
	})
	return d, err
}

// PendingDeliveries implements store.OutboxCounter, from the index of due deliveries.
func (s *Store) PendingDeliveries(ctx context.Context) (int64, error) {
	if err := s.checkOpen("count pending deliveries"); err != nil {
		return 0, err
	}
	var n int64
	err := s.rdb.QueryRowContext(ctx, `SELECT COUNT(*) FROM deliveries WHERE state IN ('pending', 'delivering')`).Scan(&n)
	return n, s.mapErr(err, "count pending deliveries")
}
