package postgres

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/svc-feedback/svc/store"
)

// TestViewsBackfill: migration 7 counts each person's views of each survey from the events
// written before it as the writes count them.
func TestViewsBackfill(t *testing.T) {
	ctx := context.Background()
	s, sv := openWithSurvey(t, store.NewSurveyID(), nil)
	for j := range 20 {
		typ := store.EventView
		if j%4 == 3 {
			typ = store.EventDismiss
		}
		e := store.Event{SurveyID: sv.ID, Respondent: fmt.Sprint("r", j%6), Type: typ, At: t0.Add(time.Duration(j) * time.Minute)}
		if err := s.RecordEvent(ctx, e); err != nil {
			t.Fatal(err)
		}
	}
	views := func() map[string]int {
		rows, err := s.pool.Query(ctx, "SELECT respondent, views FROM respondents WHERE survey_id = $1", sv.ID)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		out := map[string]int{}
		for rows.Next() {
			var who string
			var n int
			if err := rows.Scan(&who, &n); err != nil {
				t.Fatal(err)
			}
			out[who] = n
		}
		return out
	}
	written := views()
	body, err := migrations.ReadFile("migrations/0007_targeting.sql")
	if err != nil {
		t.Fatal(err)
	}
	update := string(body[strings.Index(string(body), "UPDATE respondents"):strings.Index(string(body), "-- A person's rows")])
	if _, err := s.pool.Exec(ctx, "UPDATE respondents SET views = 0"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.pool.Exec(ctx, update); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(written, views()); diff != "" || len(written) != 6 || written["r0"] != 4 {
		t.Errorf("views as the migration counts them (-written +migrated), written %v:\n%s", written, diff)
	}
}
