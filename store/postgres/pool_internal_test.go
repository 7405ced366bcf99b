package postgres

import (
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/svc-feedback/svc/store"
	"github.com/svc-feedback/svc/store/postgres/pgtest"
	"github.com/svc-feedback/svc/survey"
)

// TestPoolStats makes the pool and the writer busy and reads what PoolStats says of them: a
// read that waited for a connection while every one was held, and writes queued behind a
// batch that waits on a row another transaction holds.
func TestPoolStats(t *testing.T) {
	ctx := t.Context()
	url := pgtest.URL(t)
	s, sv := openAt(t, url, store.NewSurveyID(), &Options{MaxConns: 2})
	if st := s.PoolStats(); st.MaxConns != 2 || st.InUse != 0 || st.QueuedWrites != 0 {
		t.Fatalf("an idle store's stats: %+v", st)
	}

	// PostgreSQL's pool counts a wait once it is over; the read may also come after the
	// release, so the test tries again until one has waited.
	for try := 0; ; try++ {
		before := s.PoolStats()
		held := holdAll(t, s)
		if st := s.PoolStats(); st.InUse != 2 || st.Idle != 0 {
			t.Errorf("with every connection held: %+v", st)
		}
		read := make(chan error)
		go func() { _, err := s.Response(ctx, sv.ID, "no-response"); read <- err }()
		time.Sleep(time.Duration(try+1) * 10 * time.Millisecond) // for the read to start waiting
		for _, c := range held {
			c.Release()
		}
		if err := <-read; !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("the read: %v", err)
		}
		after := s.PoolStats()
		if after.Waits == before.Waits+1 && after.WaitTime > before.WaitTime {
			break
		}
		if try == 10 {
			t.Fatalf("a read with every connection held did not count a wait: before %+v, after %+v", before, after)
		}
	}

	// Another transaction holds the survey's stats row: the writer's batch waits on it, and the
	// writes after it queue.
	other, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close(ctx)
	holder, err := other.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer holder.Rollback(ctx) // lets the writes go when the test fails before it does
	if _, err := holder.Exec(ctx, `SELECT 1 FROM survey_stats WHERE survey_id = $1 FOR UPDATE`, sv.ID); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for i := 0; s.PoolStats().QueuedWrites == 0; i++ {
		if i == 100 {
			t.Fatalf("100 writes behind a held row, and none queued: %+v", s.PoolStats())
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			w := store.ResponseWrite{SurveyID: sv.ID, ID: fmt.Sprint("r", i), Respondent: "u", Data: survey.Answers{}, At: t0}
			if _, _, err := s.PutResponse(ctx, w); err != nil {
				t.Errorf("write %d: %v", i, err)
			}
		}()
		time.Sleep(10 * time.Millisecond) // for the write to reach the queue, or the batch
	}
	if err := holder.Rollback(ctx); err != nil {
		t.Fatal(err)
	}
	wg.Wait()
	if st := s.PoolStats(); st.QueuedWrites != 0 || st.InUse != 0 {
		t.Errorf("every write done: %+v, want nothing queued or in use", st)
	}
}

// holdAll takes every connection of s's pool.
func holdAll(t *testing.T, s *Store) []*pgxpool.Conn {
	t.Helper()
	held := make([]*pgxpool.Conn, s.pool.Config().MaxConns)
	for i := range held {
		c, err := s.pool.Acquire(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		held[i] = c
	}
	return held
}
