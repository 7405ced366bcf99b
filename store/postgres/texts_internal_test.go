package postgres

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/svc-feedback/svc/store"
	"github.com/svc-feedback/svc/survey"
)

// TestTextsBackfill: migration 5 works out the texts of the responses written before it as the
// writes do (store.SummaryTexts).
func TestTextsBackfill(t *testing.T) {
	ctx := context.Background()
	s, sv := openWithSurvey(t, store.NewSurveyID(), nil)
	for i, a := range []survey.Answers{
		{"comments": survey.Text("Great"), "nps": survey.Number(9), "bug": survey.BugReportAnswer{Title: "x", Metadata: "{}"}},
		{"nps": survey.Number(1)},
		{"missing": survey.Choices{"Speed", "Docs"}, "comments": survey.Text(strings.Repeat("ü", 600))},
	} {
		if _, _, err := s.PutResponse(ctx, store.ResponseWrite{SurveyID: sv.ID, ID: string(rune('a' + i)), Respondent: "r", Data: a, At: t0}); err != nil {
			t.Fatal(err)
		}
	}
	written := textsByID(t, s)
	body, err := migrations.ReadFile("migrations/0005_response_texts.sql")
	if err != nil {
		t.Fatal(err)
	}
	update := string(body[strings.Index(string(body), "UPDATE"):])
	if _, err := s.pool.Exec(ctx, "UPDATE responses SET texts = NULL"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.pool.Exec(ctx, update); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(written, textsByID(t, s)); diff != "" || len(written) != 3 {
		t.Errorf("texts as the migration works them out (-written +migrated):\n%s", diff)
	}
}

func textsByID(t *testing.T, s *Store) map[string]any {
	t.Helper()
	rows, err := s.pool.Query(context.Background(), "SELECT id, texts FROM responses")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	out := map[string]any{}
	for rows.Next() {
		var id string
		var texts *string
		if err := rows.Scan(&id, &texts); err != nil {
			t.Fatal(err)
		}
		var v any
		if texts != nil {
			if err := json.Unmarshal([]byte(*texts), &v); err != nil {
				t.Fatal(err)
			}
		}
		out[id] = v
	}
	return out
}
