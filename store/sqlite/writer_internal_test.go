package sqlite

import (
	"database/sql"
	"errors"
	"fmt"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/svc-feedback/svc/store"
)

// TestPanickingWriteFailsAlone runs a write that panics beside ordinary writes in one batch:
// it gets an error, the others commit, and the writer keeps serving.
func TestPanickingWriteFailsAlone(t *testing.T) {
	s, err := Open(t.Context(), filepath.Join(t.TempDir(), "svc.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var wg sync.WaitGroup
	errs := make([]error, 20)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if i == 7 {
				errs[i] = s.write(t.Context(), func(tx *sql.Tx) error { panic("bug in a write") })
				return
			}
			errs[i] = s.CreateTeam(t.Context(), store.Team{ID: "t" + string(rune('a'+i)), Name: "x", CreatedAt: time.Now()})
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if i == 7 {
			if err == nil || !strings.Contains(err.Error(), "panicked") {
				t.Errorf("the panicking write returned %v", err)
			}
		} else if err != nil {
			t.Errorf("write %d beside a panicking one: %v", i, err)
		}
	}
	if err := s.CreateTeam(t.Context(), store.Team{ID: "after", CreatedAt: time.Now()}); err != nil {
		t.Errorf("a write after the panic: %v", err)
	}
}

// TestFailedWriteRollsBackAloneInBatch queues, while a write holds the writer, writes of which
// one changes the database and then fails; they join the holder's batch. The failed write's
// change is undone, the others commit, and every caller gets its own outcome.
func TestFailedWriteRollsBackAloneInBatch(t *testing.T) {
	s, err := Open(t.Context(), filepath.Join(t.TempDir(), "svc.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	const n = 10
	started, release := make(chan struct{}), make(chan struct{})
	held := make(chan error, 1)
	go func() {
		// Writes may run twice (see write), so the holder closes started only once.
		var once sync.Once
		held <- s.write(t.Context(), func(*sql.Tx) error { once.Do(func() { close(started) }); <-release; return nil })
	}()
	<-started
	errFailed := errors.New("this write fails after its insert")
	var wg sync.WaitGroup
	errs := make([]error, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = s.write(t.Context(), func(tx *sql.Tx) error {
				if _, err := tx.Exec(`INSERT INTO teams (id, name, created_at) VALUES (?, '', 0)`, fmt.Sprintf("t%d", i)); err != nil {
					return err
				}
				if i == 3 {
					return errFailed
				}
				return nil
			})
		}()
	}
	// All n writes wait in the queue, so the writer takes them into the running batch.
	for len(s.ops) < n {
		runtime.Gosched()
	}
	close(release)
	wg.Wait()
	if err := <-held; err != nil {
		t.Fatal(err)
	}
	for i, err := range errs {
		want := error(nil)
		if i == 3 {
			want = errFailed
		}
		if !errors.Is(err, want) {
			t.Errorf("write %d returned %v, want %v", i, err, want)
		}
		_, terr := s.Team(t.Context(), fmt.Sprintf("t%d", i))
		if stored := terr == nil; stored != (want == nil) {
			t.Errorf("team t%d stored = %v (%v), want %v", i, stored, terr, want == nil)
		}
	}
}

// TestLockedDatabaseFailsQueuedWritesTogether holds the database's write lock from another
// connection, as another process would, while writes queue. The first batch waits out the busy
// timeout; every write queued behind it then fails at once with store.ErrUnavailable, instead
// of each waiting the timeout again in turn. Once the lock is gone, writes succeed.
func TestLockedDatabaseFailsQueuedWritesTogether(t *testing.T) {
	path := filepath.Join(t.TempDir(), "svc.db")
	s, err := Open(t.Context(), path, &Options{BusyTimeout: 300 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	other, err := sql.Open("sqlite3", "file:"+path+"?_busy_timeout=1")
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	other.SetMaxOpenConns(1)
	holder, err := other.Begin()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := holder.Exec("INSERT INTO teams (id, name, created_at) VALUES ('holder', 'x', 0)"); err != nil {
		t.Fatal(err) // the first write takes the lock
	}

	const writes = 8
	errs := make([]error, writes)
	var wg sync.WaitGroup
	for i := range writes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = s.CreateTeam(t.Context(), store.Team{ID: fmt.Sprint("t", i), Name: "x"})
		}()
	}
	wg.Wait()
	untried := 0
	for i, err := range errs {
		if !errors.Is(err, store.ErrUnavailable) {
			t.Errorf("write %d while locked: %v, want ErrUnavailable", i, err)
		}
		if errors.Is(err, errQueuedBehindLock) {
			untried++
		}
	}
	// All were queued within the first batch's wait: at most one or two waited out the timeout.
	if untried < writes-2 {
		t.Errorf("%d of %d writes failed with the locked batch, want all but one or two; the rest waited the busy timeout in turn", untried, writes)
	}

	if err := holder.Rollback(); err != nil {
		t.Fatal(err)
	}
	if err := s.CreateTeam(t.Context(), store.Team{ID: "after", Name: "x"}); err != nil {
		t.Errorf("write after the lock was let go: %v", err)
	}
}
