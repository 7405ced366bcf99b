//go:build cgo

package sqlite

import (
	"database/sql"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/svc-feedback/svc/store"
	"github.com/svc-feedback/svc/store/storetest"
	"github.com/svc-feedback/svc/survey"
)

// TestPageCacheKeepsSplitsWhole writes and erases responses in random key order, so that B-tree
// pages split and merge through svcPcache's spare key many times, and then finds the database
// intact and every response left as written.
func TestPageCacheKeepsSplitsWhole(t *testing.T) {
	if !pcacheInstalled {
		t.Fatal("svcPcache is not installed: SQLite was initialized before this package")
	}
	ctx := t.Context()
	path := filepath.Join(t.TempDir(), "svc.db")
	s, err := Open(ctx, path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	t0 := time.Date(2026, 11, 26, 9, 0, 0, 0, time.UTC)
	sv := storetest.CreateSampleSurvey(t, s, t0)
	before := pcacheAliased()
	rnd := rand.New(rand.NewPCG(1, 2))
	want := map[string]string{} // response id: its comment
	who := map[string]string{}  // response id: its respondent
	var mu sync.Mutex
	write := func(round, n int) {
		var wg sync.WaitGroup
		for g := range 16 { // at once, so that writes share commits
			ids := make([]string, n/16)
			for i := range ids {
				ids[i] = fmt.Sprintf("%016x", rnd.Uint64())
			}
			wg.Go(func() {
				for i, id := range ids {
					// Zeros of 0 to 299 digits, so that cells, and how many fit a page, vary.
					comment := fmt.Sprintf("round %d, writer %d, response %d: %0*d", round, g, i, i%300, 0)
					person := fmt.Sprintf("p%d", i%50)
					_, _, err := s.PutResponse(ctx, store.ResponseWrite{SurveyID: sv.ID, ID: id, Respondent: person,
						Data: survey.Answers{"nps": survey.Number(i % 11), "comments": survey.Text(comment)}, At: t0.Add(time.Duration(i) * time.Second)})
					if err != nil {
						t.Error(err)
						return
					}
					mu.Lock()
					want[id], who[id] = comment, person
					mu.Unlock()
				}
			})
		}
		wg.Wait()
	}
	write(1, 4000)
	// Erasing people frees pages all over the indexes, and the next writes take them again,
	// out of order.
	erased := map[string]bool{}
	for p := range 25 {
		person := fmt.Sprintf("p%d", 2*p)
		if _, err := s.EraseRespondent(ctx, "acme", person); err != nil {
			t.Fatal(err)
		}
		erased[person] = true
	}
	for id := range want {
		if erased[who[id]] {
			delete(want, id)
		}
	}
	write(2, 4000)
	if t.Failed() {
		return
	}
	if pcacheAliased() == before {
		t.Fatal("no page split went through the spare page number: the test did not exercise svcPcache")
	}
	if got := storedComments(t, s, sv.ID); len(got) != len(want) {
		t.Errorf("%d responses stored, want %d", len(got), len(want))
	} else {
		for id, c := range want {
			if got[id] != c {
				t.Fatalf("response %s: comment %q, want %q", id, got[id], c)
			}
		}
	}
	db, err := sql.Open("sqlite3", "file:"+escapePath(path)+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var check string
	if err := db.QueryRowContext(ctx, "PRAGMA integrity_check").Scan(&check); err != nil || check != "ok" {
		t.Fatalf("integrity_check: %q, %v", check, err)
	}
}

// storedComments reads every response of the survey, returning each one's comment by id.
func storedComments(t *testing.T, s *Store, surveyID string) map[string]string {
	t.Helper()
	got := map[string]string{}
	q := store.ResponseQuery{SurveyID: surveyID, Limit: 500}
	for {
		page, next, err := s.Responses(t.Context(), q)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range page {
			var a survey.Answers
			if err := a.UnmarshalJSON(r.Data); err != nil {
				t.Fatal(err)
			}
			c, _ := a["comments"].(survey.Text)
			got[r.ID] = string(c)
		}
		if next == nil {
			return got
		}
		q.Cursor = next
	}
}
