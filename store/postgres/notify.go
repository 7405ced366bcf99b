package postgres

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/svc-feedback/svc/store"
)

// deliveriesChannel is the NOTIFY channel on which every scheduled delivery is announced, when
// its transaction commits.
const deliveriesChannel = "svc_deliveries"

var _ store.DeliveryWatcher = (*Store)(nil)

// notifyDeliveries announces, when tx commits, that a delivery is due: PostgreSQL delivers
// notifications only on commit, and merges identical ones of one transaction.
func notifyDeliveries(ctx context.Context, tx pgx.Tx) error {
	_, err := tx.Exec(ctx, `SELECT pg_notify($1, '')`, deliveriesChannel)
	return err
}

// WatchDeliveries implements store.DeliveryWatcher with LISTEN on a connection of its own,
// outside the pool (a listening connection cannot serve queries), reconnecting with backoff
// after a failure until ctx is done. While it waits it costs the database nothing.
func (s *Store) WatchDeliveries(ctx context.Context, wake func()) error {
	backoff := 100 * time.Millisecond
	for {
		err := s.listen(ctx, wake, func() { backoff = 100 * time.Millisecond })
		if ctx.Err() != nil || s.closed.Load() {
			return ctx.Err()
		}
		_ = err // the connection failed: try again after a while, as the database comes back
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(backoff):
		}
		backoff = min(2*backoff, 10*time.Second)
		// Deliveries announced while no one listened would wait for the poll: wake once.
		wake()
	}
}

// listen connects, listens and calls wake per notification until the connection fails or ctx
// is done; connected is called once it listens.
func (s *Store) listen(ctx context.Context, wake, connected func()) error {
	conn, err := pgx.ConnectConfig(ctx, s.pool.Config().ConnConfig.Copy())
	if err != nil {
		return err
	}
	defer conn.Close(context.Background())
	if _, err := conn.Exec(ctx, `LISTEN `+deliveriesChannel); err != nil {
		return err
	}
	connected()
	for {
		if _, err := conn.WaitForNotification(ctx); err != nil {
			return err
		}
		wake()
	}
}
