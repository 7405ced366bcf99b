//go:build cgo

package sqlite

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/svc-feedback/svc/store/internal/killtest"
)

// killChildEnv names the database file of the child process of TestKillMidFoldLosesNothing.
const killChildEnv = "SVC_TEST_KILL_MID_FOLD"

// TestKillMidFoldLosesNothing writes responses in a child process until a fold of the count log
// has written the rollups but not yet deleted the log rows it read, kills the child there with
// SIGKILL, and opens the database again: every acknowledged response is there, and the counts
// equal a recount of the stored responses, before and after the next fold.
func TestKillMidFoldLosesNothing(t *testing.T) {
	if path := os.Getenv(killChildEnv); path != "" {
		s, err := Open(context.Background(), path, &Options{foldAt: 3000, foldEvery: -1, foldHook: killtest.Hook()})
		if err != nil {
			t.Fatal(err)
		}
		killtest.Write(t, s)
		return
	}
	path := filepath.Join(t.TempDir(), "svc.db")
	acked := killtest.Run(t, "TestKillMidFoldLosesNothing", killChildEnv, path)
	for round := range 2 { // as the crash left it, then folded by Close
		s, err := Open(t.Context(), path, &Options{foldEvery: -1})
		if err != nil {
			t.Fatal(err)
		}
		if round == 0 {
			var logged int
			if err := s.rdb.QueryRow(`SELECT COUNT(*) FROM count_log`).Scan(&logged); err != nil || logged == 0 {
				t.Errorf("the count log holds %d rows after the crash (%v): the kill came after the fold", logged, err)
			}
		}
		killtest.Check(t, s, acked)
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
	}
}
