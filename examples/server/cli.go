package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/svc-feedback/svc/store"
	"github.com/svc-feedback/svc/store/fixture"
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

func teamCreate(ctx context.Context, c *cli, args []string) error {
	fs := c.flags("team create")
	id := fs.String("id", "", "the team's id (required)")
	name := fs.String("name", "", "the team's name (required)")
	if err := c.parse(fs, args, 0, "id", "name"); err != nil {
		return err
	}
	return c.withStore(ctx, func(st store.Store) error {
		if err := st.CreateTeam(ctx, store.Team{ID: *id, Name: *name}); err != nil {
			return fmt.Errorf("create team %s: %w", *id, err)
		}
		fmt.Fprintf(c.stdout, "created team %s\n", *id)
		return nil
	})
}

func keyCreate(ctx context.Context, c *cli, args []string) error {
	fs := c.flags("key create")
	team := fs.String("team", "", "the team's id (required)")
	kind := fs.String("kind", "", "publishable (for the widget) or secret (for backends) (required)")
	if err := c.parse(fs, args, 0, "team", "kind"); err != nil {
		return err
	}
	k := store.KeyKind(*kind)
	if k != store.Publishable && k != store.Secret {
		fs.Usage()
		return usageError("-kind must be publishable or secret, not %q", *kind)
	}
	return c.withStore(ctx, func(st store.Store) error {
		plaintext, key, err := store.CreateKey(ctx, st, *team, k, time.Now())
		if err != nil {
			return err
		}
		// The key alone on stdout, for scripts; what it is on stderr.
		fmt.Fprintln(c.stdout, plaintext)
		fmt.Fprintf(c.stderr, "created %s key %s for team %s; it is shown only this once\n", k, key.ID, *team)
		return nil
	})
}

func keyList(ctx context.Context, c *cli, args []string) error {
	fs := c.flags("key list")
	team := fs.String("team", "", "the team's id (required)")
	if err := c.parse(fs, args, 0, "team"); err != nil {
		return err
	}
	return c.withStore(ctx, func(st store.Store) error {
		if _, err := st.Team(ctx, *team); err != nil {
			return fmt.Errorf("team %s: %w", *team, err)
		}
		keys, err := st.Keys(ctx, *team)
		if err != nil {
			return err
		}
		tw := tabwriter.NewWriter(c.stdout, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "ID\tKIND\tENDS WITH\tCREATED\tREVOKED")
		for _, k := range keys {
			revoked := "-"
			if k.RevokedAt != nil {
				revoked = k.RevokedAt.UTC().Format(time.RFC3339)
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", k.ID, k.Kind, k.Hint, k.CreatedAt.UTC().Format(time.RFC3339), revoked)
		}
		return tw.Flush()
	})
}

func keyRevoke(ctx context.Context, c *cli, args []string) error {
	fs := c.flags("key revoke")
	team := fs.String("team", "", "the team's id (required)")
	if err := c.parse(fs, args, 1, "team"); err != nil {
		return err
	}
	return c.withStore(ctx, func(st store.Store) error {
		if err := st.RevokeKey(ctx, *team, fs.Arg(0), time.Now()); err != nil {
			return fmt.Errorf("revoke key %s: %w", fs.Arg(0), err)
		}
		fmt.Fprintf(c.stdout, "revoked key %s of team %s\n", fs.Arg(0), *team)
		return nil
	})
}

func fixtureImport(ctx context.Context, c *cli, args []string) error {
	fs := c.flags("fixture import")
	if err := c.parse(fs, args, 1); err != nil {
		return err
	}
	return c.withStore(ctx, func(st store.Store) error {
		if _, err := importFile(ctx, st, fs.Arg(0), slog.New(slog.NewTextHandler(c.stderr, nil))); err != nil {
			return err
		}
		fmt.Fprintf(c.stdout, "imported %s\n", fs.Arg(0))
		return nil
	})
}

func fixtureExport(ctx context.Context, c *cli, args []string) error {
	fs := c.flags("fixture export")
	team := fs.String("team", "", "the team's id (required)")
	out := fs.String("o", "", "the file to write; standard output when absent")
	if err := c.parse(fs, args, 0, "team"); err != nil {
		return err
	}
	return c.withStore(ctx, func(st store.Store) error {
		ft, err := fixture.Export(ctx, st, *team)
		if err != nil {
			return err
		}
		b, err := json.MarshalIndent(fixture.File{Teams: []fixture.Team{ft}}, "", "  ")
		if err != nil {
			return err
		}
		b = append(b, '\n')
		if *out == "" {
			_, err = c.stdout.Write(b)
			return err
		}
		return os.WriteFile(*out, b, 0o644)
	})
}
