package postgres_test

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/svc-feedback/svc/store"
	"github.com/svc-feedback/svc/store/postgres"
	"github.com/svc-feedback/svc/store/postgres/pgtest"
	"github.com/svc-feedback/svc/store/storetest"
	"github.com/svc-feedback/svc/survey"
)

// newStoreFor returns a Store on a schema of its own, so tests can run side by side on one
// database.
func newStoreFor(t testing.TB) store.Store {
	t.Helper()
	s, err := postgres.Open(context.Background(), pgtest.URL(t), nil)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestConformance(t *testing.T) {
	storetest.Run(t, func(t *testing.T) store.Store { return newStoreFor(t) })
}

// A filter on finished responses is tested in the query (store.ResponseQuery.Narrow), so that
// the unfinished ones do not cross into Go to be dropped.
func TestNarrowFinishedInTheQuery(t *testing.T) {
	ctx := t.Context()
	s := newStoreFor(t)
	defer s.Close()
	t0 := time.Date(2026, 11, 26, 9, 0, 0, 0, time.UTC)
	if err := s.CreateTeam(ctx, store.Team{ID: "acme", Name: "Acme", CreatedAt: t0}); err != nil {
		t.Fatal(err)
	}
	sv := store.Survey{ID: "s1", TeamID: "acme", Status: store.StatusActive, Definition: survey.Sample(), CreatedAt: t0, UpdatedAt: t0}
	if err := s.CreateSurvey(ctx, sv); err != nil {
		t.Fatal(err)
	}
	for i := range 5 {
		if _, _, err := s.PutResponse(ctx, store.ResponseWrite{SurveyID: sv.ID, ID: fmt.Sprint("r", i), Respondent: "p",
			Data: survey.Answers{"nps": survey.Number(float64(i))}, Finished: i%2 == 0, At: t0.Add(time.Duration(i) * time.Minute)}); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		finished bool
		want     []string
	}{{true, []string{"r4", "r2", "r0"}}, {false, []string{"r3", "r1"}}} {
		if got := storetest.NarrowedIDs(t, s, sv.ID, store.Narrowing{Finished: &c.finished}); !slices.Equal(got, c.want) {
			t.Errorf("finished %v: got %v, want %v", c.finished, got, c.want)
		}
	}
}
