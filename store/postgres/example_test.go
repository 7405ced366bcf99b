package postgres_test

import (
	"context"
	"log"
	"net/http"
	"os"

	"github.com/svc-feedback/svc"
	"github.com/svc-feedback/svc/metrics"
	"github.com/svc-feedback/svc/store/postgres"
)

// ExampleOpen runs svc on PostgreSQL, as each replica of an app would: the schema is migrated at
// Open (replicas starting together take turns), and the writer's batches are counted in svc's
// metrics. It needs a database, so it is compiled but not run by go test.
func ExampleOpen() {
	ctx := context.Background()
	m := metrics.New()
	st, err := postgres.Open(ctx, os.Getenv("DATABASE_URL"), &postgres.Options{
		MaxConns: 16,              // the pool; the writer takes one connection while a batch runs
		OnCommit: m.ObserveCommit, // svc_store_commit_writes and svc_store_commit_duration_seconds
	})
	if err != nil {
		log.Fatal(err)
	}
	defer st.Close()
	h, err := svc.NewHandler(st, &svc.Options{Observer: m})
	if err != nil {
		log.Fatal(err)
	}
	defer h.Close(ctx)
	mux := http.NewServeMux()
	mux.Handle("/v1/", h)
	mux.Handle("GET /metrics", m) // behind your own access control
	log.Fatal(http.ListenAndServe(":8080", mux))
}
