package main

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"

	"github.com/svc-feedback/svc/store"
	"github.com/svc-feedback/svc/store/fixture"
)

// The fixture commands: server fixture import and export.

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
