package sqlite

import (
	"database/sql"
	"path/filepath"
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
