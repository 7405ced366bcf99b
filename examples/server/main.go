// Command server runs svc over an SQLite file, or a PostgreSQL database given as a postgres://
// URL: the main way to try svc, and the program the service is checked against.
//
//	go run ./examples/server                       # SQLite in ./svc.db
//	go run ./examples/server -db postgres://...    # PostgreSQL, shared by as many as run
//
// With a fixture file (go run ./examples/server -seed fixture.json, or simply
// go run ./examples/server fixture.json) it imports that instead of demo data.
// On first start without a fixture it creates a demo team, keys and a survey that uses every
// question type, and prints the keys (shown only once) with curl lines to try. Each flag has an
// SVC_* environment equivalent (-db and SVC_DB, -allow-private-webhooks and
// SVC_ALLOW_PRIVATE_WEBHOOKS, ...); a flag given on the command line wins.
//
// Beside serving (serve.go) it has commands for operators, each in its file: team create
// (team.go), key create, list and revoke (key.go), fixture import and export (fixture.go).
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	// The first SIGINT or SIGTERM stops the server gracefully; a second one (Ctrl-C again,
	// by someone who will not wait for the grace period) stops it at once.
	signals := make(chan os.Signal, 2)
	signal.Notify(signals, os.Interrupt, syscall.SIGTERM)
	go func() {
		<-signals
		cancel()
		<-signals
		fmt.Fprintln(os.Stderr, "server: a second signal: stopping at once (webhook deliveries being sent are sent again once their lease runs out)")
		os.Exit(1)
	}()
	err := run(ctx, os.Args[1:], os.Getenv, os.Stdout, os.Stderr)
	switch {
	case err == nil, errors.Is(err, flag.ErrHelp):
	case errors.Is(err, errUsage):
		fmt.Fprintln(os.Stderr, "server:", err)
		os.Exit(2)
	default:
		fmt.Fprintln(os.Stderr, "server:", err)
		os.Exit(1)
	}
}
