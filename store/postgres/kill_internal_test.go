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
// counts equal a recount of the stored responses, before the next fold and after it.
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
	s, err := Open(t.Context(), url, &Options{foldEvery: -1, foldAt: 1 << 40})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	killtest.Check(t, s, acked) // as the crash left it
	var logged int
	if err := s.pool.QueryRow(t.Context(), `SELECT COUNT(*) FROM count_log`).Scan(&logged); err != nil || logged == 0 {
		t.Errorf("the count log holds %d rows after the crash (%v): the fold was not cut", logged, err)
	}
	if err := s.foldAll(); err != nil {
		t.Fatal(err)
	}
	killtest.Check(t, s, acked) // then folded
}
