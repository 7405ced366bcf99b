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
	"time"

	neturl "net/url"

	"github.com/jackc/pgx/v5"
)

// Env names the variable holding the test server's URL.
const Env = "SVC_TEST_POSTGRES"

// PoolerEnv names the variable holding the URL of a pooler in transaction mode (PgBouncer) in
// front of Env's server (scripts/pgbouncer starts one). When it is set, URL gives each test a
// database of its own, made on the server directly, and a URL to it through the pooler: a
// pooler passes no search_path, so the tests cannot have a schema each.
const PoolerEnv = "SVC_TEST_PGBOUNCER"

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
	if pooler := os.Getenv(PoolerEnv); pooler != "" {
		return pooledURL(t, url, pooler)
	}
	schema := Schema(t, url)
	sep := "?"
	if strings.Contains(url, "?") {
		sep = "&"
	}
	return url + sep + "search_path=" + schema
}

// pooledURL makes a database on the server at direct, dropped when t ends, and returns the URL
// of that database through the pooler.
func pooledURL(t testing.TB, direct, pooler string) string {
	// FORCE: the pooler still holds server connections to it.
	name := scratch(t, direct, "DATABASE", " WITH (FORCE)")
	u, err := neturl.Parse(pooler)
	if err != nil {
		t.Fatal(err)
	}
	u.Path = "/" + name
	return u.String()
}

// Schema makes a new, empty schema on the server at url, dropped when t ends, and returns its
// name.
func Schema(t testing.TB, url string) string {
	t.Helper()
	return scratch(t, url, "SCHEMA", " CASCADE")
}

// scratch makes an object of kind (SCHEMA, DATABASE) with a name of its own on the server at
// url, and drops it with dropOptions when t ends. The drop connects afresh: a test may have
// stopped or restarted the server's connections meanwhile, and one held open for the whole test
// would be a connection the test did not ask for.
func scratch(t testing.TB, url, kind, dropOptions string) string {
	t.Helper()
	name := fmt.Sprintf("svc_test_%d_%d", os.Getpid(), schemas.Add(1))
	if err := adminExec(url, `CREATE `+kind+` `+name); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := adminExec(url, `DROP `+kind+` `+name+dropOptions); err != nil {
			// Left behind rather than failing a test that passed: the name says whose it was.
			t.Logf("pgtest: %v", err)
		}
	})
	return name
}

// adminExec runs one statement on a connection of its own to the server at url.
func adminExec(url, sql string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		return fmt.Errorf("connect to run %q: %w", sql, err)
	}
	defer func() { _ = conn.Close(context.Background()) }()
	if _, err := conn.Exec(ctx, sql); err != nil {
		return fmt.Errorf("%s: %w", sql, err)
	}
	return nil
}

// Direct returns the URL of the same database as url, not through the pooler of PoolerEnv;
// without a pooler, url itself.
func Direct(t testing.TB, url string) string {
	t.Helper()
	if os.Getenv(PoolerEnv) == "" {
		return url
	}
	u, err := neturl.Parse(url)
	if err != nil {
		t.Fatal(err)
	}
	d, err := neturl.Parse(os.Getenv(Env))
	if err != nil {
		t.Fatal(err)
	}
	u.Host, u.User = d.Host, d.User
	return u.String()
}
