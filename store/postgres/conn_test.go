package postgres_test

import (
	"net"
	"net/url"
	"strings"
	"testing"

	"github.com/svc-feedback/svc/store/postgres"
	"github.com/svc-feedback/svc/store/postgres/pgtest"
)

// TestOpenSaysWhyItCannotConnect: a wrong password, a missing database and a closed port are
// each said in words naming the server, the user and the database, never the password, and
// none of them as a failed migration.
func TestOpenSaysWhyItCannotConnect(t *testing.T) {
	good, err := url.Parse(pgtest.URL(t))
	if err != nil {
		t.Fatal(err)
	}
	with := func(change func(u *url.URL)) string {
		u := *good
		change(&u)
		return u.String()
	}
	closed, err := net.Listen("tcp", "127.0.0.1:0") // a port that refuses once closed
	if err != nil {
		t.Fatal(err)
	}
	closedAddr := closed.Addr().String()
	closed.Close()
	tests := []struct{ name, url, want string }{
		{"wrong password", with(func(u *url.URL) { u.User = url.UserPassword(u.User.Username(), "not-the-password") }),
			"the server refused the login to database"},
		{"no such database", with(func(u *url.URL) { u.Path = "/svc_no_such_database" }),
			`the database "svc_no_such_database" on`},
		{"closed port", with(func(u *url.URL) { u.Host = closedAddr }),
			"nothing answers at " + closedAddr},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st, err := postgres.Open(t.Context(), tt.url, nil)
			if err == nil {
				st.Close()
				t.Fatal("Open succeeded")
			}
			msg := err.Error()
			if !strings.Contains(msg, tt.want) || strings.Contains(msg, "migrate") || strings.Contains(msg, "not-the-password") {
				t.Errorf("Open = %q, want it to say %q, without the password", msg, tt.want)
			}
		})
	}
}
