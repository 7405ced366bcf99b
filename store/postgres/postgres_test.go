package postgres_test

import (
	"context"
	"slices"
	"testing"

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
	s := newStoreFor(t)
	defer s.Close()
	var answers []survey.Answers
	for i := range 5 {
		answers = append(answers, survey.Answers{"nps": survey.Number(float64(i))})
	}
	surveyID := storetest.WriteNarrowable(t, s, answers)
	for _, c := range []struct {
		finished bool
		want     []string
	}{{true, []string{"e", "c", "a"}}, {false, []string{"d", "b"}}} {
		if got := storetest.NarrowedIDs(t, s, surveyID, store.Narrowing{Finished: &c.finished}); !slices.Equal(got, c.want) {
			t.Errorf("finished %v: got %v, want %v", c.finished, got, c.want)
		}
	}
}
