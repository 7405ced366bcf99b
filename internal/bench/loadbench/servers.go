package main

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"os"
	"runtime/pprof"
	"sync/atomic"
	"time"

	"github.com/svc-feedback/svc"
	"github.com/svc-feedback/svc/internal/bench/benchdata"
	"github.com/svc-feedback/svc/logbuf"
	"github.com/svc-feedback/svc/metrics"
	"github.com/svc-feedback/svc/store"
	"github.com/svc-feedback/svc/store/postgres"
	"github.com/svc-feedback/svc/store/sqlite"
	"github.com/svc-feedback/svc/survey"
)

// loadSurvey receives the load's writes, so the benchmark survey keeps its size across runs.
const loadSurvey = "loadsurvey0001"

// prepare makes sure the database holds the benchmark survey and an empty load survey.
func prepare(db string, rows int) error {
	ctx := context.Background()
	// Opened first, the store brings the database's tables up to date for the clearing.
	st, err := benchdata.Open(ctx, db, rows, func(f string, a ...any) { slog.Info("benchdata: " + sprintf(f, a...)) })
	if err != nil {
		return err
	}
	defer st.Close()
	if err := clearLoad(ctx, db); err != nil {
		return fmt.Errorf("clear the last runs' load: %w", err)
	}
	if err := prepareTargeted(ctx, st); err != nil {
		return err
	}
	sv := store.Survey{ID: loadSurvey, TeamID: benchdata.TeamID, Status: store.StatusActive, Definition: survey.Sample(),
		CreatedAt: benchdata.Start, UpdatedAt: benchdata.Start}
	if err := st.CreateSurvey(ctx, sv); err != nil && !errors.Is(err, store.ErrConflict) {
		return err
	}
	return nil
}

// loadTables hold what a load writes, by survey_id, and the load survey itself (by id), last.
var loadTables = []string{"responses", "events", "respondents", "survey_stats", "deliveries",
	"rating_minutes", "rating_hours", "rating_days", "rating_totals", "count_log", "surveys"}

// clearLoad deletes the load survey and everything earlier runs wrote into it, so that every
// run starts from the same database. (Left to pile up, the load survey had grown to 12.6
// million responses after many runs, and each run wrote into deeper indexes than the
// one before it.) The store has no bulk delete, so this goes to the file with SQL.
func clearLoad(ctx context.Context, path string) error {
	if _, err := os.Stat(path); errors.Is(err, os.ErrNotExist) {
		return nil
	}
	dsn := url.URL{Scheme: "file", Path: path, RawQuery: "_journal_mode=WAL&_busy_timeout=10000&_txlock=immediate"}
	db, err := sql.Open("sqlite3", dsn.String())
	if err != nil {
		return err
	}
	defer db.Close()
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	for _, table := range loadTables {
		column := "survey_id"
		if table == "surveys" {
			column = "id"
		}
		if _, err := tx.ExecContext(ctx, "DELETE FROM "+table+" WHERE "+column+" = ?", loadSurvey); err != nil {
			return fmt.Errorf("%s: %w", table, err)
		}
	}
	if err := tx.Commit(); err != nil {
		return err
	}
	// The deletes went to the WAL: copy them into the database, so the servers start without
	// a long WAL to read through.
	_, err = db.ExecContext(ctx, "PRAGMA wal_checkpoint(TRUNCATE)")
	return err
}

// serveSvc serves the real handler over db at the given synchronous level, logging every
// request to accessLog, buffered, unless it is empty.
func serveSvc(db, sync, accessLog string) error {
	// SVC_LOADBENCH_CPUPROFILE names a file for a CPU profile of the svc server.
	if path := os.Getenv("SVC_LOADBENCH_CPUPROFILE"); path != "" {
		f, err := os.Create(path)
		if err != nil {
			return err
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
		defer pprof.StopCPUProfile()
	}
	// SVC_LOADBENCH_METRICS=1 turns svc's metrics on, to measure what they cost.
	var m *metrics.Metrics
	dbOpts := &sqlite.Options{Synchronous: sqlite.Synchronous(sync)}
	pgOpts := &postgres.Options{}
	// The writes per commit, told when the server stops (SVC_LOADBENCH_BATCHES=1): how far
	// group commit shares a commit's cost.
	var commits, writes atomic.Int64
	observe := func(n int, took time.Duration) {
		commits.Add(1)
		writes.Add(int64(n))
		if m != nil {
			m.ObserveCommit(n, took)
		}
	}
	if os.Getenv("SVC_LOADBENCH_METRICS") != "" {
		m = metrics.New()
	}
	if m != nil || os.Getenv("SVC_LOADBENCH_BATCHES") != "" {
		dbOpts.OnCommit, pgOpts.OnCommit = observe, observe
		defer func() {
			if c := commits.Load(); c > 0 {
				fmt.Fprintf(os.Stderr, "svc server: %d commits of %.1f writes on average\n", c, float64(writes.Load())/float64(c))
			}
		}()
	}
	var st store.Store
	var err error
	if isPostgres(db) {
		st, err = postgres.Open(context.Background(), db, pgOpts)
	} else {
		st, err = sqlite.Open(context.Background(), db, dbOpts)
	}
	if err != nil {
		return err
	}
	defer st.Close()
	o := &svc.Options{Logger: slog.New(slog.DiscardHandler)}
	if accessLog != "" {
		f, err := os.Create(accessLog)
		if err != nil {
			return err
		}
		defer f.Close()
		out := logbuf.NewHandler(f, func(w io.Writer) slog.Handler { return slog.NewTextHandler(w, nil) })
		defer out.Close()
		o.AccessLog = slog.New(out)
	}
	if m != nil {
		o.Observer = m
	}
	h, err := svc.NewHandler(st, o)
	if err != nil {
		return err
	}
	defer h.Close(context.Background())
	return listen(h)
}

// serveBaseline serves the same routes doing only the JSON work: decode the body, encode the
// reply, or write a fixed survey body.
func serveBaseline() error {
	var compact bytes.Buffer
	if err := json.Compact(&compact, survey.SampleJSON()); err != nil {
		return err
	}
	surveyBody := append(compact.Bytes(), '\n')
	reply := func(w http.ResponseWriter, v any) {
		b, err := json.Marshal(v)
		if err != nil {
			http.Error(w, err.Error(), 500)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(append(b, '\n'))
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /v1/svc/{surveyId}", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(surveyBody)
	})
	mux.HandleFunc("PUT /v1/svc/{surveyId}/response/{responseId}", func(w http.ResponseWriter, r *http.Request) {
		var body struct {
			Respondent *string            `json:"respondent"`
			Data       survey.Answers     `json:"data"`
			Metadata   *map[string]string `json:"metadata"`
			Telemetry  *string            `json:"telemetry"`
		}
		if err := json.NewDecoder(r.Body).Decode(&body); err != nil {
			http.Error(w, err.Error(), 400)
			return
		}
		reply(w, struct {
			ID        string    `json:"id"`
			CreatedAt time.Time `json:"createdAt"`
		}{r.PathValue("responseId"), time.Now().UTC()})
	})
	mux.HandleFunc("POST /v1/svc/{surveyId}/respondent/{respondent}/event", func(w http.ResponseWriter, r *http.Request) {
		var body struct {
			Type string `json:"type"`
		}
		if err := json.NewDecoder(r.Body).Decode(&body); err != nil {
			http.Error(w, err.Error(), 400)
			return
		}
		reply(w, struct {
			Type       string    `json:"type"`
			RecordedAt time.Time `json:"recordedAt"`
		}{body.Type, time.Now().UTC()})
	})
	return listen(mux)
}
