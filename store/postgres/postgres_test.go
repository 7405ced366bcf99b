package postgres_test

import (
	"context"
	"testing"

	"github.com/svc-feedback/svc/store"
	"github.com/svc-feedback/svc/store/postgres"
	"github.com/svc-feedback/svc/store/postgres/pgtest"
	"github.com/svc-feedback/svc/store/storetest"
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

// TestNarrowLeavesOutInTheQuery: PostgreSQL tests a query's Narrow itself, the answers' terms
// with one SQL/JSON path (answersPath).
func TestNarrowLeavesOutInTheQuery(t *testing.T) {
	s := newStoreFor(t)
	defer s.Close()
	storetest.NarrowsInTheQuery(t, s)
}
