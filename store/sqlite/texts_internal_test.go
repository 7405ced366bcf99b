package sqlite

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/svc-feedback/svc/store"
	"github.com/svc-feedback/svc/survey"
)

// TestTextsBackfill: migration 11 works out the texts of the responses written before it as
// the writes do (store.SummaryTexts).
func TestTextsBackfill(t *testing.T) {
	ctx := t.Context()
	s, err := Open(ctx, filepath.Join(t.TempDir(), "svc.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.CreateTeam(ctx, store.Team{ID: "acme", Name: "Acme"}); err != nil {
		t.Fatal(err)
	}
	sv := store.Survey{ID: store.NewSurveyID(), TeamID: "acme", Status: store.StatusActive, Definition: survey.Sample()}
	if err := s.CreateSurvey(ctx, sv); err != nil {
		t.Fatal(err)
	}
	for i, a := range []survey.Answers{
		{"comments": survey.Text("Great"), "nps": survey.Number(9), "bug": survey.BugReportAnswer{Title: "x", Metadata: "{}"}},
		{"nps": survey.Number(1)},
		{"missing": survey.Choices{"Speed", "Docs"}, "comments": survey.Text(strings.Repeat("ü", 600))},
	} {
		if _, _, err := s.PutResponse(ctx, store.ResponseWrite{SurveyID: sv.ID, ID: string(rune('a' + i)), Respondent: "r", Data: a}); err != nil {
			t.Fatal(err)
		}
	}
	written := textsByID(t, s)
	body, err := migrations.ReadFile("migrations/0011_response_texts.sql")
	if err != nil {
		t.Fatal(err)
	}
	update := string(body[strings.Index(string(body), "UPDATE"):strings.Index(string(body), "DROP INDEX")])
	if _, err := s.wdb.ExecContext(ctx, "UPDATE responses SET texts = NULL"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.wdb.ExecContext(ctx, update); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(written, textsByID(t, s)); diff != "" || len(written) != 3 {
		t.Errorf("texts as the migration works them out (-written +migrated):\n%s", diff)
	}
}

func textsByID(t *testing.T, s *Store) map[string]any {
	t.Helper()
	rows, err := s.wdb.QueryContext(t.Context(), "SELECT id, texts FROM responses")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	out := map[string]any{}
	for rows.Next() {
		var id string
		var texts []byte
		if err := rows.Scan(&id, &texts); err != nil {
			t.Fatal(err)
		}
		var v any
		if texts != nil {
			if err := json.Unmarshal(texts, &v); err != nil {
				t.Fatal(err)
			}
		}
		out[id] = v
	}
	return out
}
