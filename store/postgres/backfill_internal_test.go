package postgres

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/svc-feedback/svc/internal/cuid2"
	"github.com/svc-feedback/svc/store"
	"github.com/svc-feedback/svc/store/postgres/pgtest"
	"github.com/svc-feedback/svc/survey"
)

// TestCountsBackfill rebuilds the summary's counts the way migration 4 does for a database
// written before the writes kept them, and gets the counts the writes kept, at every level.
func TestCountsBackfill(t *testing.T) {
	url := pgtest.URL(t)
	ctx := t.Context()
	s, err := Open(ctx, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	t0 := time.Date(2026, 3, 14, 9, 26, 53, 589_000_000, time.UTC)
	if err := s.CreateTeam(ctx, store.Team{ID: "a", Name: "A", CreatedAt: t0}); err != nil {
		t.Fatal(err)
	}
	sv := store.Survey{ID: store.NewSurveyID(), TeamID: "a", Status: store.StatusActive, Definition: survey.Sample(), CreatedAt: t0, UpdatedAt: t0}
	if err := s.CreateSurvey(ctx, sv); err != nil {
		t.Fatal(err)
	}
	ids := cuid2.NewGenerator()
	for i := range 60 {
		a := survey.Answers{"nps": survey.Number(i % 11)}
		if i%3 == 0 {
			a["missing"] = survey.Choices{"Speed", "Docs"}
		}
		at := t0.Add(time.Duration(i) * 23 * time.Second)
		if _, _, err := s.PutResponse(ctx, store.ResponseWrite{SurveyID: sv.ID, ID: ids.New(), Respondent: fmt.Sprint("r", i%7),
			Data: a, At: at, Finished: i%5 == 0}); err != nil {
			t.Fatal(err)
		}
		if err := s.RecordEvent(ctx, store.Event{SurveyID: sv.ID, Respondent: "r", Type: store.EventView, At: at.Add(-time.Second)}); err != nil {
			t.Fatal(err)
		}
	}
	// The writes' counts, all of them in the rollups: the log folded.
	if err := s.foldAll(); err != nil {
		t.Fatal(err)
	}
	s.Close()
	db, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close(ctx)
	tables := []string{"rating_days", "rating_hours", "rating_minutes"}
	rowsOf := func() string {
		t.Helper()
		var out []string
		q := `SELECT 'totals', question_id, 0::bigint, score, SUM(n) FROM rating_totals WHERE left(question_id, 1) = chr(31) GROUP BY 2, 4 HAVING SUM(n) <> 0`
		for _, table := range tables {
			q += ` UNION ALL SELECT '` + table + `', question_id, bucket, score, SUM(n) FROM ` + table + ` WHERE left(question_id, 1) = chr(31) GROUP BY 2, 3, 4 HAVING SUM(n) <> 0`
		}
		rows, err := db.Query(ctx, q+` ORDER BY 1, 2, 3, 4`)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		for rows.Next() {
			var table, key string
			var bucket, n int64
			var score int
			if err := rows.Scan(&table, &key, &bucket, &score, &n); err != nil {
				t.Fatal(err)
			}
			out = append(out, fmt.Sprintf("%s|%q|%d|%d|%d", table, key, bucket, score, n))
		}
		return strings.Join(out, "\n")
	}
	kept := rowsOf()
	for _, table := range append([]string{"rating_totals"}, tables...) {
		if _, err := db.Exec(ctx, `DELETE FROM `+table+` WHERE left(question_id, 1) = chr(31)`); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := db.Exec(ctx, `DELETE FROM schema_migrations WHERE version >= 4`); err != nil {
		t.Fatal(err)
	}
	s, err = Open(ctx, url, nil) // applies migration 4 again
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	if got := rowsOf(); got != kept {
		t.Errorf("backfilled counts differ from the rows the writes kept:\nbackfill %s\nwrites   %s", got, kept)
	}
	if strings.Count(kept, "\n") < 100 || !strings.Contains(kept, "events") || !strings.Contains(kept, "option") {
		t.Errorf("the kept rows are too few to tell: %s", kept)
	}
}
