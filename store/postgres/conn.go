package postgres

import (
	"context"
	"errors"
	"fmt"
	"net"
	"slices"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
)

// connectError says in words why the first connection failed, naming the server, the user and
// the database (never the password), with the driver's error after it for the detail.
func connectError(cfg *pgx.ConnConfig, err error) error {
	where := fmt.Sprintf("database %q on %s as user %q", cfg.Database, net.JoinHostPort(cfg.Host, strconv.Itoa(int(cfg.Port))), cfg.User)
	why := "cannot connect to " + where
	var pgErr *pgconn.PgError
	var netErr *net.OpError
	// PgBouncer says these with SQLSTATE 08P01 and the server's words, or words of its own.
	pooler := func(words ...string) bool {
		return pgErr.Code == "08P01" && slices.ContainsFunc(words, func(w string) bool { return strings.Contains(pgErr.Message, w) })
	}
	switch {
	case errors.As(err, &pgErr) && (pgErr.Code == "28P01" || pgErr.Code == "28000" || pooler("authentication failed")):
		why = "the server refused the login to " + where + " (a wrong password, or pg_hba.conf does not allow it)"
	case errors.As(err, &pgErr) && (pgErr.Code == "3D000" || pooler("no such database", `" does not exist`)):
		why = "the " + where + " does not exist (createdb it first)"
	case errors.As(err, &pgErr) && pgErr.Code == "53300":
		why = "the server has no connection left for " + where + " (too many clients)"
	case errors.As(err, &netErr):
		why = "nothing answers at " + net.JoinHostPort(cfg.Host, strconv.Itoa(int(cfg.Port))) + " (is PostgreSQL running there?)"
	}
	return fmt.Errorf("postgres: %s: %w", why, err)
}

// connect opens the pool and checks that the database answers. It reports whether the URL
// goes through a connection pooler (PgBouncer, say): a pooler answers the client's connection
// itself, with a backend process id of its own making, which the server's pg_backend_pid()
// then differs from. Through a pooler in transaction mode consecutive transactions may run on
// different server sessions, so the pool is made again with no session state: statements are
// sent unnamed with their descriptions cached (pgx's cache_describe), unless the URL chose a
// default_query_exec_mode itself. Named prepared statements are kept on a direct connection,
// where they save the server's planning (PUT measured 26% slower without them).
func connect(ctx context.Context, url string, maxConns int32) (*pgxpool.Pool, bool, error) {
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		return nil, false, fmt.Errorf("postgres: %w", err)
	}
	if maxConns > 0 {
		cfg.MaxConns = maxConns
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, false, fmt.Errorf("postgres: %w", err)
	}
	pooled, err := behindPooler(ctx, pool)
	if err != nil {
		pool.Close()
		return nil, false, connectError(cfg.ConnConfig, err)
	}
	if !pooled || strings.Contains(url, "default_query_exec_mode") {
		return pool, pooled, nil
	}
	pool.Close()
	cfg.ConnConfig.DefaultQueryExecMode = pgx.QueryExecModeCacheDescribe
	if pool, err = pgxpool.NewWithConfig(ctx, cfg); err != nil {
		return nil, false, fmt.Errorf("postgres: %w", err)
	}
	return pool, true, nil
}

// behindPooler reports whether the pool's connections reach the server through a pooler: the
// backend process id the connection was given is not the server's.
func behindPooler(ctx context.Context, pool *pgxpool.Pool) (bool, error) {
	conn, err := pool.Acquire(ctx)
	if err != nil {
		return false, err
	}
	defer conn.Release()
	var pid uint32
	// The simple protocol: nothing is prepared on a session this may not keep.
	if err := conn.QueryRow(ctx, `SELECT pg_backend_pid()`, pgx.QueryExecModeSimpleProtocol).Scan(&pid); err != nil {
		return false, err
	}
	return pid != conn.Conn().PgConn().PID(), nil
}

// listenConfig is the connection LISTEN uses: listenURL's when given, else the pool's own
// when it reaches the server directly, else none.
func listenConfig(listenURL string, pool *pgxpool.Pool, pooled bool) (*pgx.ConnConfig, error) {
	if listenURL != "" {
		cfg, err := pgx.ParseConfig(listenURL)
		if err != nil {
			return nil, fmt.Errorf("postgres: the LISTEN URL: %w", err)
		}
		return cfg, nil
	}
	if pooled {
		return nil, nil
	}
	return pool.Config().ConnConfig.Copy(), nil
}
