package storetest

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/svc-feedback/svc/store"
	"github.com/svc-feedback/svc/survey"
)

// testResponseTexts checks store.TextReader, for a Store that has it: each response's
// SummaryTexts as written and as updated, nil for none, in the list's order, filters and pages,
// a long text cut, and nothing of the other answers (a bug report's screenshot).
func testResponseTexts(t *testing.T, s store.Store) {
	tr := optional[store.TextReader](t, s, "store.TextReader: it keeps no texts apart")
	ctx := t.Context()
	mustTeam(t, s, "acme")
	sv := mustSurvey(t, s, newSurvey("acme", t0))
	long := strings.Repeat("é", store.MaxSummaryText+20)
	shot := "data:image/png;base64," + strings.Repeat("A", 1<<20)
	writes := []struct {
		id, who string
		data    survey.Answers
	}{
		{"r1", "ann", survey.Answers{"comments": survey.Text("Great"), "nps": survey.Number(9)}},
		{"r2", "bob", survey.Answers{"nps": survey.Number(2), "bug": survey.BugReportAnswer{Title: "Crash", Metadata: "{}",
			ScreenshotDataURL: &shot}}},
		{"r3", "ann", survey.Answers{"missing": survey.Choices{"Speed", "Something else"}, "comments": survey.Text(long)}},
		{"r4", "cat", survey.Answers{"favourite": survey.Text("Reports")}},
	}
	for i, w := range writes {
		if _, _, err := s.PutResponse(ctx, store.ResponseWrite{SurveyID: sv.ID, ID: w.id, Respondent: w.who, Data: w.data, At: t0.Add(time.Duration(i) * time.Second)}); err != nil {
			t.Fatal(err)
		}
	}
	// An update changes the texts too.
	if _, _, err := s.PutResponse(ctx, store.ResponseWrite{SurveyID: sv.ID, ID: "r4", Respondent: "cat",
		Data: survey.Answers{"favourite": survey.Text("Alerts"), "comments": survey.Text("Changed my mind")}, At: t0.Add(time.Minute)}); err != nil {
		t.Fatal(err)
	}
	want := map[string]map[string]any{
		"r1": {"comments": "Great"},
		"r2": nil,
		"r3": {"missing": []any{"Speed", "Something else"}, "comments": strings.Repeat("é", store.MaxSummaryText)},
		"r4": {"favourite": "Alerts", "comments": "Changed my mind"},
	}
	read := func(q store.ResponseQuery) (ids []string, texts map[string]map[string]any, next *store.Cursor) {
		t.Helper()
		q.SurveyID = sv.ID
		page, next, err := tr.ResponseTexts(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		texts = map[string]map[string]any{}
		for _, r := range page {
			ids = append(ids, r.ID)
			var m map[string]any
			if r.Texts != nil {
				if err := json.Unmarshal(r.Texts, &m); err != nil {
					t.Fatalf("%s: texts %q: %v", r.ID, r.Texts, err)
				}
			}
			texts[r.ID] = m
			if !r.CreatedAt.Equal(t0.Add(time.Duration(r.ID[1]-'1') * time.Second)) {
				t.Errorf("%s: created at %v", r.ID, r.CreatedAt)
			}
		}
		return ids, texts, next
	}
	ids, texts, next := read(store.ResponseQuery{Limit: 10})
	if diff := cmp.Diff([]string{"r4", "r3", "r2", "r1"}, ids); diff != "" || next != nil {
		t.Errorf("order (-want +got):\n%s (next %v)", diff, next)
	}
	if diff := cmp.Diff(want, texts); diff != "" {
		t.Errorf("texts (-want +got):\n%s", diff)
	}
	// Pages, the range, a respondent and the oldest first, as Responses.
	ids, _, next = read(store.ResponseQuery{Limit: 3})
	if next == nil || len(ids) != 3 {
		t.Fatalf("a page of 3 of 4: %v, next %v", ids, next)
	}
	if ids, _, next = read(store.ResponseQuery{Limit: 3, Cursor: next}); len(ids) != 1 || ids[0] != "r1" || next != nil {
		t.Errorf("the second page: %v, next %v", ids, next)
	}
	if ids, _, _ = read(store.ResponseQuery{Limit: 10, After: t0.Add(time.Second), Before: t0.Add(2 * time.Second)}); !cmp.Equal(ids, []string{"r3", "r2"}) {
		t.Errorf("within [1s, 2s]: %v", ids)
	}
	if ids, _, _ = read(store.ResponseQuery{Limit: 10, Respondent: "ann", Oldest: true}); !cmp.Equal(ids, []string{"r1", "r3"}) {
		t.Errorf("ann's, oldest first: %v", ids)
	}
}
