package postgres_test

import (
	"context"
	"fmt"
	"os"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/svc-feedback/svc/store"
	"github.com/svc-feedback/svc/store/postgres"
	"github.com/svc-feedback/svc/store/storetest"
)

// testURL returns the database the tests run against, from SVC_TEST_POSTGRES (such as
// postgres://svc:svc@127.0.0.1:5432/svc_test). Without it the tests skip, except under CI
// (CI=true), where a missing database is a failure: CI must run them.
func testURL(t testing.TB) string {
	t.Helper()
	url := os.Getenv("SVC_TEST_POSTGRES")
	if url == "" {
		if os.Getenv("CI") != "" {
			t.Fatal("SVC_TEST_POSTGRES is not set under CI: the PostgreSQL tests must run")
		}
		t.Skip("SVC_TEST_POSTGRES is not set; see .ci/run for how CI starts PostgreSQL")
	}
	return url
}

var schemas atomic.Int64

// newStore returns a Store on a schema of its own, dropped when the test ends, so tests can run
// side by side on one database.
func newStore(t *testing.T) store.Store { return newStoreFor(t) }

// newStoreFor is newStore for tests and benchmarks.
func newStoreFor(t testing.TB) store.Store {
	t.Helper()
	url := testURL(t)
	ctx := context.Background()
	schema := fmt.Sprintf("svc_test_%d_%d", os.Getpid(), schemas.Add(1))
	admin, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := admin.Exec(ctx, `CREATE SCHEMA `+schema); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_, _ = admin.Exec(context.Background(), `DROP SCHEMA `+schema+` CASCADE`)
		_ = admin.Close(context.Background())
	})
	sep := "?"
	if strings.Contains(url, "?") {
		sep = "&"
	}
	s, err := postgres.Open(ctx, url+sep+"search_path="+schema, nil)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestConformance(t *testing.T) {
	storetest.Run(t, newStore)
}
