package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/svc-feedback/svc/store"
)

// errUsage marks a command line that is wrong; main exits 2 for it, as Go's own commands do.
var errUsage = errors.New("usage")

// usageError reports a wrong command line, after its flag set printed what was wrong.
func usageError(format string, args ...any) error {
	return fmt.Errorf("%w: %s", errUsage, fmt.Sprintf(format, args...))
}

// command is a subcommand of the server program: operator tasks on the database, beside
// serving it.
type command struct {
	name, args, summary string
	run                 func(ctx context.Context, c *cli, args []string) error
}

// cli is what a subcommand runs with.
type cli struct {
	getenv         func(string) string
	stdout, stderr io.Writer
	db             string
}

var commands = []command{
	{"team create", "-id ID -name NAME", "create a team", teamCreate},
	{"key create", "-team ID -kind publishable|secret", "create a key and print it (shown only this once)", keyCreate},
	{"key list", "-team ID", "list a team's keys: id, kind, last four characters, created, revoked", keyList},
	{"key revoke", "-team ID KEY_ID", "revoke a key at once", keyRevoke},
	{"fixture import", "FILE", "import a fixture file (importing it again changes nothing)", fixtureImport},
	{"fixture export", "-team ID [-o FILE]", "write a team's surveys as a fixture, without keys, secrets or history", fixtureExport},
}

// findCommand returns the subcommand named by args' first two words, and the rest of args.
func findCommand(args []string) (*command, []string, bool) {
	if len(args) < 2 {
		return nil, nil, false
	}
	for i := range commands {
		if commands[i].name == args[0]+" "+args[1] {
			return &commands[i], args[2:], true
		}
	}
	return nil, nil, false
}

// isCommandWord reports whether a word starts a subcommand (team, key, fixture, help).
func isCommandWord(w string) bool {
	if w == "help" {
		return true
	}
	for _, c := range commands {
		if strings.HasPrefix(c.name, w+" ") {
			return true
		}
	}
	return false
}

// runCommand runs the subcommand that args name.
func runCommand(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	if args[0] == "help" {
		printUsage(stdout)
		return nil
	}
	cmd, rest, ok := findCommand(args)
	if !ok {
		printUsage(stderr)
		return usageError("unknown command %q", strings.Join(args[:min(2, len(args))], " "))
	}
	c := &cli{getenv: getenv, stdout: stdout, stderr: stderr}
	return cmd.run(ctx, c, rest)
}

func printUsage(w io.Writer) {
	fmt.Fprintf(w, "usage: server [flags] [FIXTURE]    serve svc (server -h for the flags)\n")
	for _, c := range commands {
		fmt.Fprintf(w, "       server %s %s\n%s%s\n", c.name, c.args, strings.Repeat(" ", 15), c.summary)
	}
	fmt.Fprintf(w, "Every command takes -db (SVC_DB, default svc.db) and -h.\n")
}

// flags returns the flag set of a subcommand, with its -db flag.
func (c *cli) flags(cmd string) *flag.FlagSet {
	fs := flag.NewFlagSet("server "+cmd, flag.ContinueOnError)
	fs.SetOutput(c.stderr)
	def := "svc.db"
	if v := c.getenv("SVC_DB"); v != "" {
		def = v
	}
	fs.StringVar(&c.db, "db", def, "SQLite database file, or a postgres:// URL (SVC_DB)")
	return fs
}

// parse parses a subcommand's flags, turning a bad command line into errUsage, and checks that
// it has want positional arguments and every flag named in needs.
func (c *cli) parse(fs *flag.FlagSet, args []string, want int, needs ...string) error {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return usageError("%v", err)
	}
	if fs.NArg() != want {
		fs.Usage()
		return usageError("%s takes %d argument(s), got %d", fs.Name(), want, fs.NArg())
	}
	return required(fs, needs...)
}

// withStore opens the subcommand's database, runs fn on it and closes it, reporting the close's
// error too: a command has not done its work until the store is closed.
func (c *cli) withStore(ctx context.Context, fn func(st store.Store) error) error {
	st, err := c.open(ctx)
	if err != nil {
		return err
	}
	if err := fn(st); err != nil {
		st.Close()
		return err
	}
	return st.Close()
}

// open opens the database of a subcommand.
func (c *cli) open(ctx context.Context) (store.Store, error) {
	return openStore(ctx, config{db: c.db}, nil)
}

func required(fs *flag.FlagSet, names ...string) error {
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	for _, n := range names {
		if !set[n] {
			fs.Usage()
			return usageError("-%s is required", n)
		}
	}
	return nil
}
