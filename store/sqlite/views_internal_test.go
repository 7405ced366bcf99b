package sqlite

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/svc-feedback/svc/store"
	"github.com/svc-feedback/svc/survey"
)

// TestViewsBackfill: migration 13 counts each person's views of each survey from the events
// written before it as the writes count them.
func TestViewsBackfill(t *testing.T) {
	ctx := t.Context()
	s, err := Open(ctx, filepath.Join(t.TempDir(), "svc.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.CreateTeam(ctx, store.Team{ID: "acme", Name: "Acme"}); err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 11, 25, 9, 0, 0, 0, time.UTC)
	for i := range 3 {
		sv := store.Survey{ID: store.NewSurveyID(), TeamID: "acme", Status: store.StatusActive, Definition: survey.Sample()}
		if err := s.CreateSurvey(ctx, sv); err != nil {
			t.Fatal(err)
		}
		for j := range 12 {
			typ := store.EventView
			if j%4 == 3 {
				typ = store.EventDismiss
			}
			e := store.Event{SurveyID: sv.ID, Respondent: fmt.Sprint("r", (i+j)%5), Type: typ, At: at.Add(time.Duration(j) * time.Minute)}
			if err := s.RecordEvent(ctx, e); err != nil {
				t.Fatal(err)
			}
		}
	}
	written := viewsByRow(t, s)
	body, err := migrations.ReadFile("migrations/0013_targeting.sql")
	if err != nil {
		t.Fatal(err)
	}
	count := string(body[strings.Index(string(body), "CREATE TEMP TABLE"):strings.Index(string(body), "DROP TABLE view_counts;")])
	if _, err := s.wdb.ExecContext(ctx, "UPDATE respondents SET views = 0; "+count+"DROP TABLE view_counts;"); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(written, viewsByRow(t, s)); diff != "" || len(written) < 10 {
		t.Errorf("views as the migration counts them (-written +migrated):\n%s", diff)
	}
}

func viewsByRow(t *testing.T, s *Store) map[string]int {
	t.Helper()
	rows, err := s.wdb.QueryContext(t.Context(), "SELECT survey_id, respondent, views FROM respondents")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	out := map[string]int{}
	for rows.Next() {
		var sv, who string
		var n int
		if err := rows.Scan(&sv, &who, &n); err != nil {
			t.Fatal(err)
		}
		out[sv+"/"+who] = n
	}
	return out
}
