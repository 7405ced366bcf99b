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
	return s.watch(ctx, listener{
		channels: []string{deliveriesChannel},
		notify:   func(string, string) { wake() },
		up:       wake, // what was announced while no one listened
	})
}

// watchChanges drops from the read caches what other instances announce they changed, until
// ctx is done. Each time it listens again it drops everything, since changes may have been
// missed; while it does not listen, people are read from the database (see syncer).
func (s *Store) watchChanges(ctx context.Context) {
	_ = s.watch(ctx, listener{
		channels: []string{changesChannel, s.sync.channel},
		notify: func(channel, payload string) {
			if channel == s.sync.channel {
				s.sync.seen(payload)
				return
			}
			if id, ok := strings.CutPrefix(payload, "survey:"); ok {
				s.cache.dropSurvey(id)
			} else if list, ok := strings.CutPrefix(payload, personsPrefix); ok {
				s.dropAnnounced(list)
			} else {
				s.cache.dropKeys()
			}
		},
		up: func() {
			s.cache.dropAll()
			s.persons.DropAll()
			s.sync.listening(true)
		},
		down: func() { s.sync.listening(false) },
	})
}

// announce tells every instance, this one included, that keys or a survey changed.
func (s *Store) announce(ctx context.Context, payload string) {
	// A failure leaves other instances on their cache's TTL, which bounds it anyway.
	_, _ = s.pool.Exec(ctx, `SELECT pg_notify($1, $2)`, changesChannel, payload)
}

// listener is what watch listens for, and whom it tells.
type listener struct {
	channels []string
	notify   func(channel, payload string)
	// up, when set, is called each time the connection listens, the first time included: what
	// was announced before then was not heard. down, when set, is called when it fails.
	up, down func()
}

// watch listens on l's channels with a connection of its own, outside the pool (a listening
// connection cannot serve queries), reconnecting with backoff after a failure, until ctx is
// done.
func (s *Store) watch(ctx context.Context, l listener) error {
	if s.listenConfig == nil {
		// No connection can listen (a pooler, and no ListenURL): the dispatcher's poll and the
		// read cache's TTL stand in for the notifications.
		<-ctx.Done()
		return ctx.Err()
	}
	backoff := 100 * time.Millisecond
	for {
		err := s.listen(ctx, l, func() { backoff = 100 * time.Millisecond })
		if l.down != nil {
			l.down()
		}
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
	}
}

// listen connects, listens on l's channels and tells l of each notification until the
// connection fails or ctx is done; connected is called once it listens.
func (s *Store) listen(ctx context.Context, l listener, connected func()) error {
	conn, err := pgx.ConnectConfig(ctx, s.listenConfig.Copy())
	if err != nil {
		return err
	}
	defer conn.Close(context.Background())
	for _, channel := range l.channels {
		if _, err := conn.Exec(ctx, `LISTEN `+pgx.Identifier{channel}.Sanitize()); err != nil {
			return err
		}
	}
	connected()
	if l.up != nil {
		l.up()
	}
	for {
		n, err := conn.WaitForNotification(ctx)
		if err != nil {
			return err
		}
		l.notify(n.Channel, n.Payload)
	}
}
