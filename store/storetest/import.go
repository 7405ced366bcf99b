package storetest

import (
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/svc-feedback/svc/store"
	"github.com/svc-feedback/svc/store/fixture"
	"github.com/svc-feedback/svc/survey"
)

func testImport(t *testing.T, s store.Store) {
	ctx := t.Context()
	pk := store.NewKeyPlaintext(store.Publishable)
	sk := store.NewKeyPlaintext(store.Secret)
	surveyID := ids.New()
	def, err := json.Marshal(survey.Sample())
	if err != nil {
		t.Fatal(err)
	}
	raw := fmt.Sprintf(`{"teams":[{"id":"acme","name":"Acme","publishableKeys":[%q],"secretKeys":[%q],
		"surveys":[%s]}]}`, pk, sk, string(def[:len(def)-1])+fmt.Sprintf(`,"id":%q,"status":"active","webhookUrl":"https://example.com/hook",
		"createdAt":"2026-01-01T00:00:00Z",
		"responses":[{"id":"imp1abc","respondent":"ann","data":{"nps":8},"metadata":{},"createdAt":"2026-01-02T10:00:00Z"}],
		"events":[{"respondent":"ann","type":"view","createdAt":"2026-01-02T09:59:00Z"}]}`, surveyID))
	for i := range 2 {
		f, err := fixture.Decode(strings.NewReader(raw))
		if err != nil {
			t.Fatal(err)
		}
		if err := fixture.Import(ctx, s, f, t0.Add(time.Duration(i)*time.Hour)); err != nil {
			t.Fatalf("Import #%d: %v", i+1, err)
		}
	}
	if k, err := s.LookupKey(ctx, pk); err != nil || k.TeamID != "acme" || k.Kind != store.Publishable {
		t.Errorf("imported publishable key: %+v, %v", k, err)
	}
	if k, err := s.LookupKey(ctx, sk); err != nil || k.Kind != store.Secret {
		t.Errorf("imported secret key: %+v, %v", k, err)
	}
	sv, err := s.Survey(ctx, "acme", surveyID)
	if err != nil {
		t.Fatal(err)
	}
	if want := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC); !sv.CreatedAt.Equal(want) || !sv.UpdatedAt.Equal(want) {
		t.Errorf("imported survey times %v, %v; want %v (a second import changes nothing)", sv.CreatedAt, sv.UpdatedAt, want)
	}
	st, err := s.Stats(ctx, surveyID)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(store.Stats{TotalViews: 1, UniqueViewers: 1, TotalResponses: 1, UniqueResponders: 1}, st); diff != "" {
		t.Errorf("Stats after importing twice (-want +got):\n%s", diff)
	}
	keys, err := s.Keys(ctx, "acme")
	if err != nil || len(keys) != 2 {
		t.Errorf("Keys after importing twice = %d, %v; want 2", len(keys), err)
	}

	// An undated event is dated at the survey's creation, so importing it again, at another
	// time, still records it once.
	undated := strings.Replace(raw, `{"respondent":"ann","type":"view","createdAt":"2026-01-02T09:59:00Z"}`,
		`{"respondent":"bob","type":"dismiss"}`, 1)
	if undated == raw {
		t.Fatal("the fixture's event was not replaced")
	}
	for i := range 2 {
		f, err := fixture.Decode(strings.NewReader(undated))
		if err != nil {
			t.Fatal(err)
		}
		if err := fixture.Import(ctx, s, f, t0.Add(time.Duration(i+2)*time.Hour)); err != nil {
			t.Fatalf("Import of an undated event #%d: %v", i+1, err)
		}
	}
	h, err := s.History(ctx, surveyID, "bob")
	if err != nil || h.LastDismissedAt == nil || !h.LastDismissedAt.Equal(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)) {
		t.Errorf("History of an undated imported dismissal: %+v, %v; want it at the survey's creation", h, err)
	}
	if st, err := s.Stats(ctx, surveyID); err != nil || st.TotalDismissals != 1 {
		t.Errorf("Stats after importing an undated event twice: %+v, %v; want 1 dismissal", st, err)
	}
}

// testImportConcurrent imports one fixture from several goroutines at once, as replicas
// starting together with the same file do: every import succeeds, and the data is there once.
func testImportConcurrent(t *testing.T, s store.Store) {
	ctx := t.Context()
	surveyID := ids.New()
	def, err := json.Marshal(survey.Sample())
	if err != nil {
		t.Fatal(err)
	}
	raw := fmt.Sprintf(`{"teams":[{"id":"acme","name":"Acme","publishableKeys":[%q],"surveys":[%s]}]}`,
		store.NewKeyPlaintext(store.Publishable), string(def[:len(def)-1])+fmt.Sprintf(`,"id":%q,"status":"active",
		"createdAt":"2026-01-01T00:00:00Z",
		"responses":[{"id":"imp1abc","respondent":"ann","data":{"nps":8},"metadata":{},"createdAt":"2026-01-02T10:00:00Z"}],
		"events":[{"respondent":"ann","type":"view","createdAt":"2026-01-02T09:59:00Z"}]}`, surveyID))
	var wg sync.WaitGroup
	errs := make([]error, 4)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			f, err := fixture.Decode(strings.NewReader(raw))
			if err == nil {
				err = fixture.Import(ctx, s, f, t0)
			}
			errs[i] = err
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("import %d of 4 at once: %v", i, err)
		}
	}
	st, err := s.Stats(ctx, surveyID)
	if err != nil {
		t.Fatal(err)
	}
	if st.TotalResponses != 1 || st.TotalViews != 1 || st.UniqueViewers != 1 {
		t.Errorf("stats after 4 imports at once = %+v, want the one response and one view", st)
	}
}
