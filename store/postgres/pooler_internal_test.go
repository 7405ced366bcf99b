package postgres

import (
	"context"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/svc-feedback/svc/store"
	"github.com/svc-feedback/svc/store/postgres/pgtest"
)

// TestPoolerKeepsNoSessionState: through a pooler (pgtest.PoolerEnv: scripts/test runs the
// package through PgBouncer in transaction mode too) the store sends no named statement and
// listens only on the ListenURL it is given, where it hears what another instance announces
// through the pooler; directly, it keeps its statements prepared and listens on its own URL.
func TestPoolerKeepsNoSessionState(t *testing.T) {
	url := pgtest.URL(t)
	pooled := os.Getenv(pgtest.PoolerEnv) != ""
	plain, _ := openAt(t, url, store.NewSurveyID(), nil)
	mode := plain.pool.Config().ConnConfig.DefaultQueryExecMode
	if want := map[bool]pgx.QueryExecMode{false: pgx.QueryExecModeCacheStatement, true: pgx.QueryExecModeCacheDescribe}[pooled]; mode != want {
		t.Errorf("pooled %v: statements sent in mode %v, want %v", pooled, mode, want)
	}
	if (plain.listenConfig == nil) != pooled {
		t.Errorf("pooled %v, without a ListenURL: listens on %v", pooled, plain.listenConfig)
	}
	if !pooled {
		return // the rest needs a pooler
	}

	listening, err := Open(t.Context(), url, &Options{ListenURL: pgtest.Direct(t, url)})
	if err != nil {
		t.Fatal(err)
	}
	defer listening.Close()
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	channel := fmt.Sprintf("svc_test_pooled_%d", os.Getpid())
	heard := make(chan string, 100)
	go func() {
		_ = listening.watch(ctx, listener{channels: []string{channel}, notify: func(_, p string) { heard <- p }})
	}()
	deadline := time.After(30 * time.Second)
	for {
		// Announced through the pooler, by the other instance.
		if _, err := plain.pool.Exec(ctx, `SELECT pg_notify($1, 'hello')`, channel); err != nil {
			t.Fatal(err)
		}
		select {
		case p := <-heard:
			if p != "hello" {
				t.Fatalf("heard %q", p)
			}
			return
		case <-time.After(50 * time.Millisecond): // it listens from a moment the test cannot see
		case <-deadline:
			t.Fatal("after 30 s the store has not heard, on its ListenURL, what was announced through the pooler")
		}
	}
}
