package postgres

import (
	"errors"
	"fmt"
	"net"
	"strconv"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// connectError says in words why the first connection failed, naming the server, the user and
// the database (never the password), with the driver's error after it for the detail.
func connectError(cfg *pgx.ConnConfig, err error) error {
	where := fmt.Sprintf("database %q on %s as user %q", cfg.Database, net.JoinHostPort(cfg.Host, strconv.Itoa(int(cfg.Port))), cfg.User)
	why := "cannot connect to " + where
	var pgErr *pgconn.PgError
	var netErr *net.OpError
	switch {
	case errors.As(err, &pgErr) && (pgErr.Code == "28P01" || pgErr.Code == "28000"):
		why = "the server refused the login to " + where + " (a wrong password, or pg_hba.conf does not allow it)"
	case errors.As(err, &pgErr) && pgErr.Code == "3D000":
		why = "the " + where + " does not exist (createdb it first)"
	case errors.As(err, &pgErr) && pgErr.Code == "53300":
		why = "the server has no connection left for " + where + " (too many clients)"
	case errors.As(err, &netErr):
		why = "nothing answers at " + net.JoinHostPort(cfg.Host, strconv.Itoa(int(cfg.Port))) + " (is PostgreSQL running there?)"
	}
	return fmt.Errorf("postgres: %s: %w", why, err)
}
