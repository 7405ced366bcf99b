package main

import (
	"context"
	"fmt"
	"text/tabwriter"
	"time"

	"github.com/svc-feedback/svc/store"
)

// The key commands: server key create, list and revoke. Keys are stored hashed and printed
// only when made.

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
