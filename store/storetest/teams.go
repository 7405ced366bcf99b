package storetest

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/svc-feedback/svc/store"
)

func testTeams(t *testing.T, s store.Store) {
	ctx := t.Context()
	mustTeam(t, s, "acme")
	got, err := s.Team(ctx, "acme")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(store.Team{ID: "acme", Name: "Team acme", CreatedAt: t0}, got); diff != "" {
		t.Errorf("Team (-want +got):\n%s", diff)
	}
	wantErr(t, "CreateTeam twice", s.CreateTeam(ctx, store.Team{ID: "acme", CreatedAt: t0}), store.ErrConflict)
	_, err = s.Team(ctx, "nobody")
	wantErr(t, "Team(unknown)", err, store.ErrNotFound)
}

func testKeys(t *testing.T, s store.Store) {
	ctx := t.Context()
	mustTeam(t, s, "a")
	mustTeam(t, s, "b")
	pk, key, err := store.CreateKey(ctx, s, "a", store.Publishable, t0)
	if err != nil {
		t.Fatal(err)
	}
	if err := store.ValidateKey(store.Publishable, pk); err != nil {
		t.Errorf("CreateKey made %q: %v", pk, err)
	}
	got, err := s.LookupKey(ctx, pk)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(key, got); diff != "" {
		t.Errorf("LookupKey (-want +got):\n%s", diff)
	}
	sk, _, err := store.CreateKey(ctx, s, "a", store.Secret, t0.Add(time.Second))
	if err != nil {
		t.Fatal(err)
	}
	wantErr(t, "AddKey twice", s.AddKey(ctx, store.NewKey("b", store.Secret, sk, t0), sk), store.ErrConflict)
	wantErr(t, "AddKey unknown team", s.AddKey(ctx, store.NewKey("zz", store.Secret, store.NewKeyPlaintext(store.Secret), t0), "x"), store.ErrNotFound)
	_, err = s.LookupKey(ctx, store.NewKeyPlaintext(store.Secret))
	wantErr(t, "LookupKey(unknown)", err, store.ErrNotFound)

	wantErr(t, "RevokeKey of another team", s.RevokeKey(ctx, "b", key.ID, t0), store.ErrNotFound)
	if err := s.RevokeKey(ctx, "a", key.ID, t0.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	_, err = s.LookupKey(ctx, pk)
	wantErr(t, "LookupKey(revoked)", err, store.ErrNotFound)
	if _, err := s.LookupKey(ctx, sk); err != nil {
		t.Errorf("the other key stopped working after a revoke: %v", err)
	}
	keys, err := s.Keys(ctx, "a")
	if err != nil {
		t.Fatal(err)
	}
	if len(keys) != 2 || keys[0].ID != key.ID || keys[0].RevokedAt == nil || !keys[0].RevokedAt.Equal(t0.Add(time.Minute)) || keys[1].RevokedAt != nil {
		t.Errorf("Keys = %+v, want the revoked publishable key then the live secret key", keys)
	}
}
