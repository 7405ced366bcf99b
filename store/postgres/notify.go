package postgres

import (
	"context"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/svc-feedback/svc/store"
)

// deliveriesChannel is the NOTIFY channel on which every scheduled delivery is announced, when
// its transaction commits.
const deliveriesChannel = "svc_deliveries"

// changesChannel is the NOTIFY channel on which changes to keys ("keys") and surveys
// ("survey:ID") are announced, so that every instance drops what its read cache holds of them.
const changesChannel = "svc_changes"

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
	return s.watch(ctx, deliveriesChannel, func(string) { wake() }, wake)
}

// watchChanges drops from the read cache what other instances announce they changed, until ctx
// is done. After a reconnection it drops everything, since changes may have been missed.
func (s *Store) watchChanges(ctx context.Context) {
	_ = s.watch(ctx, changesChannel, func(payload string) {
		if id, ok := strings.CutPrefix(payload, "survey:"); ok {
			s.cache.dropSurvey(id)
		} else {
			s.cache.dropKeys()
		}
	}, s.cache.dropAll)
}

// announce tells every instance, this one included, that keys or a survey changed.
func (s *Store) announce(ctx context.Context, payload string) {
	// A failure leaves other instances on their cache's TTL, which bounds it anyway.
	_, _ = s.pool.Exec(ctx, `SELECT pg_notify($1, $2)`, changesChannel, payload)
}

// watch listens on channel with a connection of its own, outside the pool (a listening
// connection cannot serve queries), calling onNotify with each payload, and reconnecting with
// backoff after a failure, when it calls missed, until ctx is done.
func (s *Store) watch(ctx context.Context, channel string, onNotify func(payload string), missed func()) error {
	if s.listenConfig == nil {
		// No connection can listen (a pooler, and no ListenURL): the dispatcher's poll and the
		// read cache's TTL stand in for the notifications.
		<-ctx.Done()
		return ctx.Err()
	}
	backoff := 100 * time.Millisecond
	for {
		err := s.listen(ctx, channel, onNotify, func() { backoff = 100 * time.Millisecond })
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
		missed() // what was announced while no one listened
	}
}

// listen connects, listens on channel and calls onNotify per notification until the connection
// fails or ctx is done; connected is called once it listens.
func (s *Store) listen(ctx context.Context, channel string, onNotify func(string), connected func()) error {
	conn, err := pgx.ConnectConfig(ctx, s.listenConfig.Copy())
	if err != nil {
		return err
	}
	defer conn.Close(context.Background())
	if _, err := conn.Exec(ctx, `LISTEN `+channel); err != nil {
		return err
	}
	connected()
	for {
		n, err := conn.WaitForNotification(ctx)
		if err != nil {
			return err
		}
		onNotify(n.Payload)
	}
}
