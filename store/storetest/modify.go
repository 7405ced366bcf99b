package storetest

import (
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/svc-feedback/svc/store"
)

// testModifySurvey checks store.ModifySurvey: what fn leaves is stored, with UpdatedAt as
// stored; an error of fn changes nothing and comes back as it was; another team's survey is not
// found; and concurrent changes are applied one after the other, none lost, when the Store is a
// store.SurveyModifier (which the suite's backends are).
func testModifySurvey(t *testing.T, s store.Store) {
	ctx := t.Context()
	mustTeam(t, s, "a")
	mustTeam(t, s, "b")
	sv := newSurvey("a", t0)
	mustSurvey(t, s, sv)

	// A time older than the stored one still moves the version forward.
	got, err := store.ModifySurvey(ctx, s, "a", sv.ID, func(v *store.Survey) error {
		v.Title, v.UpdatedAt = "Renamed", t0.Add(-time.Hour)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	stored, err := s.Survey(ctx, "a", sv.ID)
	if err != nil {
		t.Fatal(err)
	}
	if stored.Title != "Renamed" || !got.UpdatedAt.Equal(stored.UpdatedAt) || !stored.UpdatedAt.After(sv.UpdatedAt) {
		t.Errorf("after ModifySurvey: returned updatedAt %v, stored %q at %v, want the title stored, after %v and returned",
			got.UpdatedAt, stored.Title, stored.UpdatedAt, sv.UpdatedAt)
	}

	refused := errors.New("refused by fn")
	_, err = store.ModifySurvey(ctx, s, "a", sv.ID, func(v *store.Survey) error {
		v.Title = "Never stored"
		return refused
	})
	if err != refused {
		t.Errorf("fn's error came back as %v, want it as it was", err)
	}
	if again, _ := s.Survey(ctx, "a", sv.ID); again.Title != "Renamed" || !again.UpdatedAt.Equal(stored.UpdatedAt) {
		t.Errorf("after fn refused: %q at %v, want it unchanged", again.Title, again.UpdatedAt)
	}
	_, err = store.ModifySurvey(ctx, s, "b", sv.ID, func(*store.Survey) error { return nil })
	wantErr(t, "ModifySurvey of another team's survey", err, store.ErrNotFound)

	if _, ok := s.(store.SurveyModifier); !ok {
		return
	}
	const n = 20
	var wg sync.WaitGroup
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := store.ModifySurvey(ctx, s, "a", sv.ID, func(v *store.Survey) error {
				v.Title += "+"
				return nil
			}); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	final, err := s.Survey(ctx, "a", sv.ID)
	if err != nil {
		t.Fatal(err)
	}
	if want := "Renamed" + strings.Repeat("+", n); final.Title != want {
		t.Errorf("after %d concurrent changes the title is %q, want %q: changes were lost", n, final.Title, want)
	}
}
