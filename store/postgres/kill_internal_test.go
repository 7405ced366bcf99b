package postgres

import (
	"context"
	"os"
	"testing"

	"github.com/svc-feedback/svc/store/internal/killtest"
	"github.com/svc-feedback/svc/store/postgres/pgtest"
)

// killChildEnv holds the database URL of the child process of TestKillMidFoldLosesNothing.
const killChildEnv = "SVC_TEST_KILL_MID_FOLD_URL"

// TestKillMidFoldLosesNothing writes responses in a child process until its folder has deleted
// log rows in its transaction but not yet added them to the rollups, kills the child there
// with SIGKILL, and opens the database again: every acknowledged response is there, and the
// counts equal a recount of the stored responses, before and after the next fold.
func TestKillMidFoldLosesNothing(t *testing.T) {
	if url := os.Getenv(killChildEnv); url != "" {
		s, err := Open(context.Background(), url, &Options{foldAt: 3000, foldEvery: -1, foldHook: killtest.Hook()})
		if err != nil {
			t.Fatal(err)
		}
		killtest.Write(t, s)
		return
	}
	url := pgtest.URL(t)
	acked := killtest.Run(t, "TestKillMidFoldLosesNothing", killChildEnv, url)
	for range 2 { // as the crash left it, then folded by Close
		s, err := Open(t.Context(), url, &Options{foldEvery: -1, foldAt: 1 << 40})
		if err != nil {
			t.Fatal(err)
		}
		killtest.Check(t, s, acked)
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
	}
}
