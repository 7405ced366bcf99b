package sqlite_test

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/svc-feedback/svc/internal/cuid2"
	"github.com/svc-feedback/svc/store"
	"github.com/svc-feedback/svc/store/sqlite"
	"github.com/svc-feedback/svc/store/storetest"
	"github.com/svc-feedback/svc/survey"
)

func TestConformance(t *testing.T) {
	storetest.Run(t, func(t *testing.T) store.Store {
		s, err := sqlite.Open(t.Context(), filepath.Join(t.TempDir(), "svc.db"), nil)
		if err != nil {
			t.Fatal(err)
		}
		return s
	})
}

func openStore(t *testing.T, path string) *sqlite.Store {
	t.Helper()
	s, err := sqlite.Open(t.Context(), path, nil)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func seedSurvey(t *testing.T, s store.Store) store.Survey {
	t.Helper()
	return seedSurveyTB(t, s)
}

func seedSurveyTB(t testing.TB, s store.Store) store.Survey {
	t.Helper()
	ctx := t.Context()
	if err := s.CreateTeam(ctx, store.Team{ID: "acme", Name: "Acme", CreatedAt: t0}); err != nil {
		t.Fatal(err)
	}
	sv := store.Survey{ID: cuid2.NewGenerator().New(), TeamID: "acme", Status: store.StatusActive,
		Definition: survey.Sample(), CreatedAt: t0, UpdatedAt: t0}
	if err := s.CreateSurvey(ctx, sv); err != nil {
		t.Fatal(err)
	}
	return sv
}

var t0 = time.Date(2026, 11, 21, 10, 4, 5, 123_000_000, time.UTC)

// TestAcknowledgedWritesSurviveReopen writes concurrently (so writes share transactions),
// closes, reopens the same file and finds every response that was acknowledged.
func TestAcknowledgedWritesSurviveReopen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "svc.db")
	s := openStore(t, path)
	sv := seedSurvey(t, s)
	ids := cuid2.NewGenerator()
	const n = 200
	acked := make(chan string, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			id := ids.New()
			_, _, err := s.PutResponse(context.Background(), store.ResponseWrite{SurveyID: sv.ID, ID: id, Respondent: fmt.Sprint("r", i),
				Data: survey.Answers{"nps": survey.Number(i % 11)}, At: t0.Add(time.Duration(i) * time.Millisecond)})
			if err != nil {
				t.Errorf("PutResponse: %v", err)
				return
			}
			acked <- id
		}()
	}
	wg.Wait()
	close(acked)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.PutResponse(t.Context(), store.ResponseWrite{SurveyID: sv.ID, ID: ids.New(), Respondent: "x", Data: survey.Answers{}}); !errors.Is(err, store.ErrClosed) {
		t.Errorf("PutResponse after Close: %v, want ErrClosed", err)
	}

	s = openStore(t, path)
	defer s.Close()
	page, _, err := s.Responses(t.Context(), store.ResponseQuery{SurveyID: sv.ID, Limit: 1000})
	if err != nil {
		t.Fatal(err)
	}
	stored := make(map[string]bool)
	for _, r := range page {
		stored[r.ID] = true
	}
	count := 0
	for id := range acked {
		count++
		if !stored[id] {
			t.Errorf("acknowledged response %s is missing after reopen", id)
		}
	}
	if count != n || len(stored) != n {
		t.Errorf("acknowledged %d, stored %d; want %d each", count, len(stored), n)
	}
	st, err := s.Stats(t.Context(), sv.ID)
	if err != nil || st.TotalResponses != n {
		t.Errorf("Stats after reopen = %+v, %v; want %d responses", st, err, n)
	}
}

// TestGroupCommitIsolatesFailures queues conflicting and valid writes together: the
// conflicting ones fail with ErrConflict and the rest commit.
func TestGroupCommitIsolatesFailures(t *testing.T) {
	s := openStore(t, filepath.Join(t.TempDir(), "svc.db"))
	defer s.Close()
	sv := seedSurvey(t, s)
	ctx := t.Context()
	ids := cuid2.NewGenerator()
	taken := ids.New()
	if _, _, err := s.PutResponse(ctx, store.ResponseWrite{SurveyID: sv.ID, ID: taken, Respondent: "owner", Data: survey.Answers{}, At: t0}); err != nil {
		t.Fatal(err)
	}
	const n = 100
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w := store.ResponseWrite{SurveyID: sv.ID, ID: ids.New(), Respondent: "ok", Data: survey.Answers{}, At: t0}
			if i%4 == 0 {
				w.ID, w.Respondent = taken, "intruder" // conflicts
			}
			_, _, errs[i] = s.PutResponse(ctx, w)
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if i%4 == 0 && !errors.Is(err, store.ErrConflict) {
			t.Errorf("write %d: %v, want ErrConflict", i, err)
		}
		if i%4 != 0 && err != nil {
			t.Errorf("write %d failed beside a conflicting write: %v", i, err)
		}
	}
	st, err := s.Stats(ctx, sv.ID)
	if err != nil {
		t.Fatal(err)
	}
	if want := int64(1 + n - n/4); st.TotalResponses != want {
		t.Errorf("TotalResponses = %d, want %d", st.TotalResponses, want)
	}
}

// TestCachedSurveyIsCallersCopy changes the questions of a survey read from the store: the
// next read, served from the read cache, is unchanged.
func TestCachedSurveyIsCallersCopy(t *testing.T) {
	s := openStore(t, filepath.Join(t.TempDir(), "svc.db"))
	defer s.Close()
	sv := seedSurvey(t, s)
	ctx := t.Context()
	if _, err := s.Survey(ctx, sv.TeamID, sv.ID); err != nil { // fills the cache
		t.Fatal(err)
	}
	first, err := s.Survey(ctx, sv.TeamID, sv.ID)
	if err != nil || len(first.Questions) == 0 {
		t.Fatalf("Survey = %+v, %v", first, err)
	}
	title := first.Questions[0].Title
	first.Questions[0].Title = "changed by the caller"
	again, err := s.Survey(ctx, sv.TeamID, sv.ID)
	if err != nil {
		t.Fatal(err)
	}
	if again.Questions[0].Title != title {
		t.Errorf("a caller's change reached the cache: title %q, want %q", again.Questions[0].Title, title)
	}
}

// TestSharedSurvey reads a survey without the copy: the same survey as Survey's, and
// ErrNotFound for another team's or an unknown id, as Survey.
func TestSharedSurvey(t *testing.T) {
	s := openStore(t, filepath.Join(t.TempDir(), "svc.db"))
	defer s.Close()
	sv := seedSurvey(t, s)
	ctx := t.Context()
	for range 2 { // read from the database, then from the cache
		shared, err := s.SharedSurvey(ctx, sv.TeamID, sv.ID)
		if err != nil {
			t.Fatal(err)
		}
		copied, err := s.Survey(ctx, sv.TeamID, sv.ID)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(copied, shared); diff != "" {
			t.Errorf("SharedSurvey differs from Survey (-Survey +SharedSurvey):\n%s", diff)
		}
	}
	for _, c := range []struct{ team, id string }{{"other-team", sv.ID}, {sv.TeamID, "nosuchsurvey"}} {
		if _, err := s.SharedSurvey(ctx, c.team, c.id); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("SharedSurvey(%q, %q) = %v, want ErrNotFound", c.team, c.id, err)
		}
	}
}

// TestResponsesRoundTripOddValues lists responses whose values test how a page's rows are read
// (data and metadata come as one value, split at a NUL byte): a respondent holding NUL bytes,
// answers and metadata holding escaped ones, times before 1970 and far ahead, an update, and ids
// of 1, 32 and 36 characters.
func TestResponsesRoundTripOddValues(t *testing.T) {
	s := openStore(t, filepath.Join(t.TempDir(), "svc.db"))
	defer s.Close()
	sv := seedSurvey(t, s)
	ctx := t.Context()
	writes := []store.ResponseWrite{
		{ID: "a", Respondent: "\x00nul\x00", At: time.Date(1969, 7, 20, 20, 17, 40, 0, time.UTC),
			Data: survey.Answers{"comments": survey.Text("a\x00b")}, Metadata: map[string]string{"k\x00": "v\x00"}},
		{ID: "zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz", Respondent: "ü", At: time.Date(2999, 12, 31, 23, 59, 59, 999_000_000, time.UTC),
			Data: survey.Answers{"stars": survey.Number(5)}, Metadata: map[string]string{}},
		{ID: "0b6c6f3e-7f3a-4b8e-9d2a-1c2b3d4e5f60", Respondent: "x", At: time.UnixMilli(0).UTC(),
			Data: survey.Answers{}, Metadata: map[string]string{"page": "/"}},
	}
	want := map[string]store.Response{}
	for _, w := range writes {
		w.SurveyID = sv.ID
		r, _, err := s.PutResponse(ctx, w)
		if err != nil {
			t.Fatalf("put %q: %v", w.ID, err)
		}
		want[r.ID] = r
	}
	// An update moves the update time alone.
	up := writes[0]
	up.SurveyID, up.At, up.Data = sv.ID, up.At.Add(90*time.Minute), survey.Answers{"stars": survey.Number(1)}
	r, created, err := s.PutResponse(ctx, up)
	if err != nil || created {
		t.Fatalf("update: created %v, %v", created, err)
	}
	want[r.ID] = r
	page, next, err := s.Responses(ctx, store.ResponseQuery{SurveyID: sv.ID, Limit: 10})
	if err != nil || next != nil || len(page) != len(writes) {
		t.Fatalf("Responses = %d responses, next %v, %v; want %d, nil, nil", len(page), next, err, len(writes))
	}
	for _, got := range page {
		w := want[got.ID]
		if diff := cmp.Diff(w, got); diff != "" {
			t.Errorf("response %q (-put +listed):\n%s", got.ID, diff)
		}
	}
}

// TestOpenTogether opens one new database file from three stores at once, again and again, as
// replicas started together do: every open succeeds. Before migrate tried again on a locked
// database, about one open in 45 failed with "database is locked".
func TestOpenTogether(t *testing.T) {
	for round := range 20 {
		path := filepath.Join(t.TempDir(), fmt.Sprint("svc", round, ".db"))
		var wg sync.WaitGroup
		errs := make([]error, 3)
		for i := range errs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				s, err := sqlite.Open(t.Context(), path, nil)
				if err == nil {
					err = s.Close()
				}
				errs[i] = err
			}()
		}
		wg.Wait()
		for i, err := range errs {
			if err != nil {
				t.Errorf("round %d, store %d: %v", round, i, err)
			}
		}
	}
}

// Options.OnCommit is told of every commit, with its writes: the writes it counts add up to
// those made.
func TestOnCommitCountsEveryWrite(t *testing.T) {
	var mu sync.Mutex
	commits, writes := 0, 0
	s, err := sqlite.Open(t.Context(), filepath.Join(t.TempDir(), "svc.db"), &sqlite.Options{OnCommit: func(n int, took time.Duration) {
		mu.Lock()
		defer mu.Unlock()
		commits++
		writes += n
		if took <= 0 {
			t.Errorf("a commit of %d writes took %v", n, took)
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	sv := seedSurvey(t, s)
	mu.Lock()
	commits, writes = 0, 0 // the seed's own
	mu.Unlock()
	var wg sync.WaitGroup
	for i := range 50 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, _, err := s.PutResponse(t.Context(), store.ResponseWrite{SurveyID: sv.ID, ID: fmt.Sprint("r", i), Respondent: "u",
				Data: survey.Answers{"nps": survey.Number(i % 11)}, At: t0}); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	mu.Lock()
	defer mu.Unlock()
	if writes != 50 || commits < 1 || commits > 50 {
		t.Errorf("OnCommit told of %d writes in %d commits, want 50 writes", writes, commits)
	}
}
