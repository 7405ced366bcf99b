package storetest

import (
	"errors"
	"testing"
	"time"

	"github.com/svc-feedback/svc/store"
)

// testClosed checks the Store interface's promise that every call after Close fails with
// ErrClosed, reads included, and those answered from a cache too.
func testClosed(t *testing.T, s store.Store) {
	ctx := t.Context()
	mustTeam(t, s, "acme")
	sv := mustSurvey(t, s, newSurvey("acme", t0))
	pk, _, err := store.CreateKey(ctx, s, "acme", store.Publishable, t0)
	if err != nil {
		t.Fatal(err)
	}
	// Warm any cache, so that the reads below would be answered from it.
	if _, err := s.Survey(ctx, "acme", sv.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := s.LookupKey(ctx, pk); err != nil {
		t.Fatal(err)
	}
	pinger, canPing := s.(store.Pinger)
	if canPing {
		if err := pinger.Ping(ctx); err != nil {
			t.Fatalf("Ping of an open store: %v", err)
		}
	}
	if err := s.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	if canPing {
		if err := pinger.Ping(ctx); !errors.Is(err, store.ErrClosed) {
			t.Errorf("Ping after Close: %v, want ErrClosed", err)
		}
	}
	calls := map[string]func() error{
		"Team":      func() error { _, err := s.Team(ctx, "acme"); return err },
		"LookupKey": func() error { _, err := s.LookupKey(ctx, pk); return err },
		"Keys":      func() error { _, err := s.Keys(ctx, "acme"); return err },
		"Survey":    func() error { _, err := s.Survey(ctx, "acme", sv.ID); return err },
		"Surveys":   func() error { _, _, err := s.Surveys(ctx, "acme", nil, 10); return err },
		"Responses": func() error {
			_, _, err := s.Responses(ctx, store.ResponseQuery{SurveyID: sv.ID, Limit: 10})
			return err
		},
		"Response":   func() error { _, err := s.Response(ctx, sv.ID, "r1"); return err },
		"History":    func() error { _, err := s.History(ctx, sv.ID, "ann"); return err },
		"Stats":      func() error { _, err := s.Stats(ctx, sv.ID); return err },
		"Counts":     func() error { _, err := s.Counts(ctx, sv.ID, nil, t0, t0.Add(time.Hour)); return err },
		"Deliveries": func() error { _, _, err := s.Deliveries(ctx, sv.ID, nil, 10); return err },
		"CreateTeam": func() error { return s.CreateTeam(ctx, store.Team{ID: "other", Name: "Other", CreatedAt: t0}) },
		"RecordEvent": func() error {
			return s.RecordEvent(ctx, store.Event{SurveyID: sv.ID, Respondent: "ann", Type: store.EventView, At: t0})
		},
		"ClaimDeliveries": func() error { _, err := s.ClaimDeliveries(ctx, t0, time.Minute, 10); return err },
	}
	for name, call := range calls {
		if err := call(); !errors.Is(err, store.ErrClosed) {
			t.Errorf("%s after Close: error = %v, want ErrClosed", name, err)
		}
	}
}

// testZeroTimes checks that a team or survey created without CreatedAt is dated now, not at
// the year 1, and a survey without UpdatedAt was updated when created.
func testZeroTimes(t *testing.T, s store.Store) {
	ctx := t.Context()
	before := time.Now().Add(-time.Second)
	if err := s.CreateTeam(ctx, store.Team{ID: "acme", Name: "Acme"}); err != nil {
		t.Fatal(err)
	}
	sv := newSurvey("acme", time.Time{})
	if err := s.CreateSurvey(ctx, sv); err != nil {
		t.Fatal(err)
	}
	after := time.Now().Add(time.Second)
	team, err := s.Team(ctx, "acme")
	if err != nil {
		t.Fatal(err)
	}
	got, err := s.Survey(ctx, "acme", sv.ID)
	if err != nil {
		t.Fatal(err)
	}
	for what, at := range map[string]time.Time{"team CreatedAt": team.CreatedAt, "survey CreatedAt": got.CreatedAt} {
		if at.Before(before) || at.After(after) {
			t.Errorf("%s given as zero = %v, want now (%v to %v)", what, at, before, after)
		}
	}
	if !got.UpdatedAt.Equal(got.CreatedAt) {
		t.Errorf("survey UpdatedAt given as zero = %v, want its CreatedAt %v", got.UpdatedAt, got.CreatedAt)
	}
}
