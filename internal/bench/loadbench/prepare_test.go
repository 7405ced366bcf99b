package main

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/svc-feedback/svc/internal/bench/benchdata"
	"github.com/svc-feedback/svc/store"
	"github.com/svc-feedback/svc/store/postgres"
	"github.com/svc-feedback/svc/store/postgres/pgtest"
	"github.com/svc-feedback/svc/store/sqlite"
	"github.com/svc-feedback/svc/survey"
)

// TestPrepareClearsTheLastLoad: every run starts from an empty load survey, whatever earlier
// runs wrote into it, and keeps the benchmark survey as it was seeded.
func TestPrepareClearsTheLastLoad(t *testing.T) {
	// A folder name that means something in a URI: the file must still be the one cleared.
	dir := filepath.Join(t.TempDir(), "odd?dir#%20")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(dir, "bench.db")
	checkPrepareClears(t, db, prepare, func() (store.Store, error) { return sqlite.Open(context.Background(), db, nil) })
}

// TestPreparePostgresClearsTheLastLoad is the same on PostgreSQL, with the raw INSERT ceiling's
// table emptied too.
func TestPreparePostgresClearsTheLastLoad(t *testing.T) {
	ctx := context.Background()
	url := pgtest.URL(t)
	open := func() (store.Store, error) { return postgres.Open(ctx, url, nil) }
	checkPrepareClears(t, url, preparePostgres, open)
	work, closePool, err := rawInsert(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer closePool()
	if err := work(0, 1); err != nil {
		t.Fatal(err)
	}
	if err := preparePostgres(url, 20); err != nil {
		t.Fatal(err)
	}
	st, err := postgres.Open(ctx, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var n int
	if err := st.Pool().QueryRow(ctx, "SELECT count(*) FROM loadbench_raw").Scan(&n); err != nil || n != 0 {
		t.Errorf("the raw ceiling's rows after prepare: %d, %v; want 0", n, err)
	}
	if err := preparePostgres(url, 30); err == nil || !strings.Contains(err.Error(), "another size") {
		t.Errorf("prepare at another size: %v, want an error naming it", err)
	}
}

func checkPrepareClears(t *testing.T, db string, prep func(string, int) error, open func() (store.Store, error)) {
	ctx := context.Background()
	const rows = 20
	if err := prep(db, rows); err != nil {
		t.Fatal(err)
	}
	st, err := open()
	if err != nil {
		t.Fatal(err)
	}
	at := benchdata.End(rows)
	if _, _, err := st.PutResponse(ctx, store.ResponseWrite{SurveyID: loadSurvey, ID: "l1", Respondent: "u1",
		Data: survey.Answers{"nps": survey.Number(9)}, At: at}); err != nil {
		t.Fatal(err)
	}
	if err := st.RecordEvent(ctx, store.Event{SurveyID: loadSurvey, Respondent: "u2", Type: store.EventView, At: at}); err != nil {
		t.Fatal(err)
	}
	if s, err := st.Stats(ctx, loadSurvey); err != nil || s.TotalResponses != 1 || s.TotalViews != 1 {
		t.Fatalf("the load survey's stats after writing to it: %+v, %v", s, err)
	}
	st.Close()

	if err := prep(db, rows); err != nil {
		t.Fatal(err)
	}
	if st, err = open(); err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if _, err := st.Response(ctx, loadSurvey, "l1"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("the last run's response: %v, want ErrNotFound", err)
	}
	if h, err := st.History(ctx, loadSurvey, "u2"); err != nil || h != (store.History{}) {
		t.Errorf("the last run's respondent: %+v, %v, want no history", h, err)
	}
	s, err := st.Stats(ctx, loadSurvey)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(store.Stats{}, s); diff != "" {
		t.Errorf("the load survey's stats (-want +got):\n%s", diff)
	}
	counts, err := st.Counts(ctx, loadSurvey, []string{"nps"}, benchdata.Start, at.Add(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	if len(counts["nps"]) != 0 {
		t.Errorf("the last run's ratings are still counted: %v", counts)
	}
	if s, err := st.Stats(ctx, benchdata.SurveyID); err != nil || s.TotalResponses != rows {
		t.Errorf("the benchmark survey's stats: %+v, %v, want %d responses", s, err, rows)
	}
}

// Each size has a file of its own by default: a run at -rows 10000 must not seed over the
// 1,000,000 responses another run took minutes to write.
func TestDefaultDBPerSize(t *testing.T) {
	dir := t.TempDir()
	small, large := defaultDB(dir, 10_000), defaultDB(dir, 1_000_000)
	if small == large || filepath.Dir(small) != dir || !strings.Contains(filepath.Base(small), "10000") {
		t.Errorf("defaultDB: %s and %s", small, large)
	}
}
