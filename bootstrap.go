package svc

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/svc-feedback/svc/store"
)

// Version is this release of svc, as the CHANGELOG dates it.
const Version = "0.3.0"

// FirstKeys are the keys Bootstrap made. svc stores keys hashed, so this is the only time their
// plaintext is seen: print them, or put them where the app keeps its secrets.
type FirstKeys struct {
	// Publishable is the widget's key (svc_pk_...), safe in a page.
	Publishable string
	// Secret is the backend's key (svc_sk_...), for the protected API and the client.
	Secret string
}

// Bootstrap prepares a store for an app's first start: it makes the team (teamID, name) and,
// for a team that never had them, a publishable and a secret key, and returns the keys it made. On
// every later start it changes nothing and returns nil: call it on each start. Two instances
// starting at once make one team; a start that failed after making the team makes its keys
// the next time. A team's later keys are made with store.CreateKey, or the example server's
// "key create" command.
func Bootstrap(ctx context.Context, s store.Store, teamID, name string) (*FirstKeys, error) {
	if err := storeError("Bootstrap", s); err != nil {
		return nil, err
	}
	if teamID == "" || name == "" {
		return nil, errors.New("svc: Bootstrap needs a team id and a name")
	}
	now := time.Now().UTC()
	err := s.CreateTeam(ctx, store.Team{ID: teamID, Name: name, CreatedAt: now})
	if err != nil && !errors.Is(err, store.ErrConflict) {
		return nil, fmt.Errorf("svc: bootstrap team %s: %w", teamID, err)
	}
	keys, err := s.Keys(ctx, teamID)
	if err != nil {
		return nil, fmt.Errorf("svc: bootstrap team %s: %w", teamID, err)
	}
	// A kind the team ever had, revoked or not, is not made again: an operator who revoked a
	// leaked key makes its successor on purpose, and it is not printed at the next start.
	has := map[store.KeyKind]bool{}
	for _, k := range keys {
		has[k.Kind] = true
	}
	var made FirstKeys
	for _, want := range []struct {
		kind store.KeyKind
		into *string
	}{{store.Publishable, &made.Publishable}, {store.Secret, &made.Secret}} {
		if has[want.kind] {
			continue
		}
		if *want.into, _, err = store.CreateKey(ctx, s, teamID, want.kind, now); err != nil {
			return nil, fmt.Errorf("svc: bootstrap team %s: %w", teamID, err)
		}
	}
	if made == (FirstKeys{}) {
		return nil, nil
	}
	return &made, nil
}
