package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/svc-feedback/svc/internal/bench/benchdata"
	"github.com/svc-feedback/svc/store"
	"github.com/svc-feedback/svc/store/postgres"
	"github.com/svc-feedback/svc/survey"
)

// isPostgres reports whether -db names a PostgreSQL database rather than an SQLite file.
func isPostgres(db string) bool {
	return strings.HasPrefix(db, "postgres://") || strings.HasPrefix(db, "postgresql://")
}

// pgLoadTables hold what a load writes, by survey_id, and the load survey itself (by id), last.
var pgLoadTables = []string{"responses", "responders", "viewers", "dismissers", "events", "respondents",
	"survey_stats", "deliveries", "rating_minutes", "rating_hours", "rating_days", "rating_totals", "count_log", "surveys"}

// preparePostgres makes sure the database holds the benchmark survey, an empty load survey and
// an empty table for the raw INSERT ceiling. Unlike the SQLite file, a database holding the
// benchmark survey at another size is not dropped: it may be the user's; the error says so.
func preparePostgres(url string, rows int) error {
	ctx := context.Background()
	st, err := postgres.Open(ctx, url, nil)
	if err != nil {
		return err
	}
	defer st.Close()
	if err := clearPostgresLoad(ctx, st.Pool()); err != nil {
		return fmt.Errorf("clear the last runs' load: %w", err)
	}
	if !benchdata.Holds(ctx, st, rows) {
		if _, err := st.Survey(ctx, benchdata.TeamID, benchdata.SurveyID); err == nil {
			return fmt.Errorf("%s holds the benchmark survey at another size than -rows %d: give a fresh database", redactURL(url), rows)
		}
		if err := benchdata.Seed(ctx, st, rows, func(f string, a ...any) { slog.Info("benchdata: " + sprintf(f, a...)) }); err != nil {
			return err
		}
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

// clearPostgresLoad deletes the load survey with everything earlier runs wrote into it, and
// the raw ceiling's rows.
func clearPostgresLoad(ctx context.Context, pool *pgxpool.Pool) error {
	tx, err := pool.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback(ctx)
	for _, table := range pgLoadTables {
		column := "survey_id"
		if table == "surveys" {
			column = "id"
		}
		if _, err := tx.Exec(ctx, "DELETE FROM "+table+" WHERE "+column+" = $1", loadSurvey); err != nil {
			return fmt.Errorf("%s: %w", table, err)
		}
	}
	if _, err := tx.Exec(ctx, `DROP TABLE IF EXISTS loadbench_raw;
		CREATE TABLE loadbench_raw (survey_id text, id text, respondent text, data text, metadata text,
			created_at bigint, updated_at bigint, PRIMARY KEY (survey_id, id))`); err != nil {
		return fmt.Errorf("raw table: %w", err)
	}
	return tx.Commit(ctx)
}

// rawInsert returns the ceiling's work: one plain INSERT of a response's row per call, on a
// pool as large as one svc instance's, with no HTTP, no validation and no counters. Its ids
// come from the call's seq, unique in a run (runSlices offsets every slice), like the PUT
// scenario's.
func rawInsert(ctx context.Context, url string) (work func(c int, seq int64) error, closePool func(), err error) {
	pool, err := pgxpool.New(ctx, url)
	if err != nil {
		return nil, nil, err
	}
	data := `{"nps":9,"stars":4,"favourite":"Alerts","missing":["Speed","Docs"],"comments":"The new dashboard is great, but exports are slow"}`
	meta := `{"page":"/dashboard","plan":"pro","locale":"en-GB"}`
	work = func(_ int, seq int64) error {
		_, err := pool.Exec(ctx, `INSERT INTO loadbench_raw VALUES ($1, $2, $3, $4, $5, $6, $6)`,
			loadSurvey, "l"+strconv.FormatInt(seq, 10), "user"+strconv.FormatInt(seq%1000, 10), data, meta, time.Now().UnixMilli())
		return err
	}
	return work, pool.Close, nil
}

// redactURL drops the password from a database URL, for messages.
func redactURL(url string) string {
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		return "the database"
	}
	return fmt.Sprintf("database %s on %s", cfg.ConnConfig.Database, cfg.ConnConfig.Host)
}
