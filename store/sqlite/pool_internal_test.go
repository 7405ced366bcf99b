package sqlite

import (
	"database/sql"
	"errors"
	"fmt"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/svc-feedback/svc/store"
)

// TestPoolStats makes the read pool and the writer busy and reads what PoolStats says of them:
// reads waiting for one of the read connections, and writes queued behind the writer while
// another connection holds the database's write lock.
func TestPoolStats(t *testing.T) {
	ctx := t.Context()
	path := filepath.Join(t.TempDir(), "svc.db")
	s, err := Open(ctx, path, &Options{ReadConns: 2, BusyTimeout: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if st := s.PoolStats(); st.MaxConns != 2 || st.InUse != 0 || st.Waits != 0 || st.QueuedWrites != 0 {
		t.Fatalf("an idle store's stats: %+v", st)
	}

	// Both read connections held: a read waits for one.
	held := make([]*sql.Conn, 2)
	for i := range held {
		if held[i], err = s.rdb.Conn(ctx); err != nil {
			t.Fatal(err)
		}
	}
	read := make(chan error)
	go func() { _, err := s.Response(ctx, "no-survey", "no-response"); read <- err }()
	st := waitStats(t, s, func(st store.PoolStats) bool { return st.Waits == 1 })
	if st.InUse != 2 {
		t.Errorf("with both read connections held, InUse = %d", st.InUse)
	}
	for _, c := range held {
		c.Close()
	}
	if err := <-read; !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("the read that waited: %v", err)
	}
	if st := s.PoolStats(); st.WaitTime <= 0 || st.InUse != 0 || st.Idle != 2 {
		t.Errorf("after the wait: %+v, want its time counted, and both connections idle", st)
	}

	// Another connection holds the write lock: the writer waits, and writes queue behind it.
	other, err := sql.Open("sqlite3", "file:"+path+"?_busy_timeout=1")
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	holder, err := other.Begin()
	if err != nil {
		t.Fatal(err)
	}
	defer holder.Rollback() // lets the writes go when the test fails before it does
	if _, err := holder.Exec("INSERT INTO teams (id, name, created_at) VALUES ('holder', 'x', 0)"); err != nil {
		t.Fatal(err)
	}
	// Writes until one is seen queued: the first ones may all be taken into the batch that
	// waits on the lock, and every write after that queues.
	var wg sync.WaitGroup
	for i := 0; s.PoolStats().QueuedWrites == 0; i++ {
		if i == 100 {
			t.Fatalf("100 writes behind a held lock, and none queued: %+v", s.PoolStats())
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := s.CreateTeam(ctx, store.Team{ID: fmt.Sprint("t", i), Name: "x"}); err != nil {
				t.Errorf("write %d: %v", i, err)
			}
		}()
		time.Sleep(10 * time.Millisecond) // for the write to reach the queue, or the batch
	}
	if err := holder.Rollback(); err != nil {
		t.Fatal(err)
	}
	wg.Wait()
	if st := s.PoolStats(); st.QueuedWrites != 0 {
		t.Errorf("every write done, QueuedWrites = %d", st.QueuedWrites)
	}
}

// waitStats polls s's stats until ok, for at most 30 s: what is counted happens on goroutines
// the test cannot see into.
func waitStats(t *testing.T, s *Store, ok func(store.PoolStats) bool) store.PoolStats {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		st := s.PoolStats()
		if ok(st) {
			return st
		}
		if time.Now().After(deadline) {
			t.Fatalf("after 30 s the stats are %+v", st)
		}
		time.Sleep(time.Millisecond)
	}
}
