package main

import (
	"context"
	"fmt"

	"github.com/svc-feedback/svc/store"
)

// The team command: server team create.

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
