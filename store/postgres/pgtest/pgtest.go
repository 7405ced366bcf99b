// Package pgtest gives tests a PostgreSQL database of their own: a fresh schema on the server
// that SVC_TEST_POSTGRES names, dropped when the test ends. scripts/test starts a server and
// sets the variable. Without it a test skips, except under CI (CI=true), where it fails: CI
// must run the PostgreSQL tests.
package pgtest

import (
	"context"
	"fmt"
	"os"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/jackc/pgx/v5"
)

// Env names the variable holding the test server's URL.
const Env = "SVC_TEST_POSTGRES"

var schemas atomic.Int64

// URL returns a URL of the test database whose search_path is a new, empty schema, dropped
// when t ends; it skips t without a test database (fails it under CI).
func URL(t testing.TB) string {
	t.Helper()
	url := os.Getenv(Env)
	if url == "" {
		if os.Getenv("CI") != "" {
			t.Fatal(Env + " is not set under CI: the PostgreSQL tests must run")
		}
		t.Skip(Env + " is not set; scripts/test starts PostgreSQL and sets it")
	}
	ctx := context.Background()
	admin, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	schema := fmt.Sprintf("svc_test_%d_%d", os.Getpid(), schemas.Add(1))
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
	return url + sep + "search_path=" + schema
}
