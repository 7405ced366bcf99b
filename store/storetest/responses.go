package storetest

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/svc-feedback/svc/store"
	"github.com/svc-feedback/svc/survey"
)

func put(t *testing.T, s store.Store, w store.ResponseWrite) (store.Response, bool) {
	t.Helper()
	r, created, err := s.PutResponse(t.Context(), w)
	if err != nil {
		t.Fatalf("PutResponse(%s): %v", w.ID, err)
	}
	return r, created
}

func testResponseCreateUpdate(t *testing.T, s store.Store) {
	ctx := t.Context()
	mustTeam(t, s, "a")
	sv := mustSurvey(t, s, newSurvey("a", t0))
	other := mustSurvey(t, s, newSurvey("a", t0))
	id := ids.New()
	w := store.ResponseWrite{SurveyID: sv.ID, ID: id, Respondent: "ann@example.com",
		Data: survey.Answers{"nps": survey.Number(9)}, Metadata: map[string]string{"page": "/home"}, At: t0}
	r, created := put(t, s, w)
	if !created {
		t.Error("first PutResponse: created = false")
	}
	if !r.CreatedAt.Equal(t0) || !r.UpdatedAt.Equal(t0) {
		t.Errorf("created response times = %v, %v; want %v", r.CreatedAt, r.UpdatedAt, t0)
	}
	// The caller owns what it is handed: appending to the data must leave the metadata alone.
	_ = append(r.Data, "xxxxxxxxxxxx"...)
	if string(r.Data) != `{"nps":9}` || string(r.Metadata) != `{"page":"/home"}` {
		t.Errorf("created response data %s and metadata %s, want {\"nps\":9} and {\"page\":\"/home\"}", r.Data, r.Metadata)
	}

	w.Data = survey.Answers{"nps": survey.Number(3), "comments": survey.Text("meh")}
	w.Metadata = map[string]string{"page": "/pricing"}
	w.At = t0.Add(time.Minute)
	r, created = put(t, s, w)
	if created {
		t.Error("second PutResponse: created = true")
	}
	if !r.CreatedAt.Equal(t0) || !r.UpdatedAt.Equal(t0.Add(time.Minute)) {
		t.Errorf("updated response times = %v, %v; want created %v, updated %v", r.CreatedAt, r.UpdatedAt, t0, t0.Add(time.Minute))
	}
	page, _, err := s.Responses(ctx, store.ResponseQuery{SurveyID: sv.ID, Limit: 10})
	if err != nil {
		t.Fatal(err)
	}
	if len(page) != 1 {
		t.Fatalf("Responses = %d items, want 1", len(page))
	}
	gotData, err := page[0].Answers()
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(w.Data, gotData); diff != "" {
		t.Errorf("stored data after update (-want +got):\n%s", diff)
	}
	var meta map[string]string
	if err := json.Unmarshal(page[0].Metadata, &meta); err != nil || meta["page"] != "/pricing" || len(meta) != 1 {
		t.Errorf("stored metadata = %s, want the replaced map", page[0].Metadata)
	}

	got, err := s.Response(ctx, sv.ID, id)
	if err != nil {
		t.Fatal(err)
	}
	if got.ID != id || got.Respondent != "ann@example.com" || string(got.Data) != string(page[0].Data) || !got.UpdatedAt.Equal(t0.Add(time.Minute)) {
		t.Errorf("Response = %+v, want the updated response", got)
	}
	_, err = s.Response(ctx, sv.ID, ids.New())
	wantErr(t, "Response(unknown)", err, store.ErrNotFound)
	_, err = s.Response(ctx, other.ID, id)
	wantErr(t, "Response in another survey", err, store.ErrNotFound)

	conflict := w
	conflict.Respondent = "bob@example.com"
	_, _, err = s.PutResponse(ctx, conflict)
	wantErr(t, "PutResponse by another respondent", err, store.ErrConflict)

	// The same id in another survey is another response.
	w2 := w
	w2.SurveyID = other.ID
	if _, created := put(t, s, w2); !created {
		t.Error("PutResponse of the same id in another survey: created = false")
	}

	unknown := w
	unknown.SurveyID = ids.New()
	_, _, err = s.PutResponse(ctx, unknown)
	wantErr(t, "PutResponse to unknown survey", err, store.ErrNotFound)

	// An imported write never changes an existing response.
	imp := w
	imp.Imported, imp.Data, imp.At = true, survey.Answers{"nps": survey.Number(10)}, t0.Add(time.Hour)
	r, created = put(t, s, imp)
	if created || !r.UpdatedAt.Equal(t0.Add(time.Minute)) {
		t.Errorf("imported write over an existing response: created=%v updatedAt=%v, want unchanged", created, r.UpdatedAt)
	}
	h, err := s.History(ctx, sv.ID, "ann@example.com")
	if err != nil {
		t.Fatal(err)
	}
	if h.LastRespondedAt == nil || !h.LastRespondedAt.Equal(t0.Add(time.Minute)) {
		t.Errorf("LastRespondedAt = %v, want the update time %v", h.LastRespondedAt, t0.Add(time.Minute))
	}
}

func testResponseConcurrentCreate(t *testing.T, s store.Store) {
	mustTeam(t, s, "a")
	sv := mustSurvey(t, s, newSurvey("a", t0))
	const n = 50
	id := ids.New()
	var wg sync.WaitGroup
	var mu sync.Mutex
	createdCount := 0
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, created, err := s.PutResponse(context.Background(), store.ResponseWrite{SurveyID: sv.ID, ID: id,
				Respondent: "ann", Data: survey.Answers{"nps": survey.Number(i % 11)}, At: t0.Add(time.Duration(i) * time.Millisecond)})
			if err != nil {
				t.Errorf("PutResponse: %v", err)
				return
			}
			if created {
				mu.Lock()
				createdCount++
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if createdCount != 1 {
		t.Errorf("%d concurrent PUTs of one new id created %d responses, want 1", n, createdCount)
	}
	st, err := s.Stats(t.Context(), sv.ID)
	if err != nil {
		t.Fatal(err)
	}
	if st.TotalResponses != 1 || st.UniqueResponders != 1 {
		t.Errorf("Stats = %+v, want one response from one responder", st)
	}
}

func testResponseList(t *testing.T, s store.Store) {
	ctx := t.Context()
	mustTeam(t, s, "a")
	sv := mustSurvey(t, s, newSurvey("a", t0))
	respondents := []string{"ann", "bob", "cat"}
	var all []string
	// Each response has metadata of its own, so that a store handing out one buffer for the
	// rows of a page shows.
	metaOf := map[string]string{}
	for i := range 30 {
		w := store.ResponseWrite{SurveyID: sv.ID, ID: ids.New(), Respondent: respondents[i%3],
			Data: survey.Answers{}, Metadata: map[string]string{"n": strconv.Itoa(i)},
			At: t0.Add(time.Duration(i/2) * time.Minute)} // pairs share a time
		put(t, s, w)
		all = append(all, w.ID)
		metaOf[w.ID] = fmt.Sprintf(`{"n":"%d"}`, i)
	}
	walk := func(q store.ResponseQuery, insertDuring bool) []store.Response {
		var out []store.Response
		for {
			page, next, err := s.Responses(ctx, q)
			if err != nil {
				t.Fatal(err)
			}
			if len(page) == 0 && len(out) > 0 {
				t.Fatal("Responses returned an empty page after a non-nil cursor")
			}
			out = append(out, page...)
			if next == nil {
				return out
			}
			if insertDuring {
				// New responses arrive while a reader pages: they sort first, so later
				// pages neither repeat nor skip anything.
				put(t, s, store.ResponseWrite{SurveyID: sv.ID, ID: ids.New(), Respondent: "new", Data: survey.Answers{}, At: t0.Add(time.Hour)})
			}
			q.Cursor = next
		}
	}
	got := walk(store.ResponseQuery{SurveyID: sv.ID, Limit: 4}, true)
	if len(got) != 30 {
		t.Fatalf("walked %d responses, want 30", len(got))
	}
	seen := map[string]bool{}
	for i, r := range got {
		if seen[r.ID] {
			t.Fatalf("response %s listed twice", r.ID)
		}
		seen[r.ID] = true
		if string(r.Metadata) != metaOf[r.ID] || string(r.Data) != "{}" {
			t.Fatalf("response %s listed with data %s and metadata %s, want {} and %s", r.ID, r.Data, r.Metadata, metaOf[r.ID])
		}
		// The caller owns what it is handed: appending to the data must leave the rest alone.
		_ = append(r.Data, "xxxx"...)
		if string(r.Metadata) != metaOf[r.ID] {
			t.Fatalf("response %s: appending to its data changed its metadata to %s", r.ID, r.Metadata)
		}
		if i > 0 {
			prev := got[i-1]
			if r.CreatedAt.After(prev.CreatedAt) || r.CreatedAt.Equal(prev.CreatedAt) && r.ID > prev.ID {
				t.Fatalf("responses out of order at %d: %v/%s after %v/%s", i, r.CreatedAt, r.ID, prev.CreatedAt, prev.ID)
			}
		}
	}

	// The walk listed exactly the 30 responses written before it (those written during it sort
	// before its first page).
	var walked []string
	for _, r := range got {
		walked = append(walked, r.ID)
	}
	if diff := cmp.Diff(all, walked, cmpopts.SortSlices(func(a, b string) bool { return a < b })); diff != "" {
		t.Errorf("responses walked (-want +got):\n%s", diff)
	}

	// Respondent filter with an inclusive window: bob answered at i = 1, 4, 7, ... (minute i/2).
	got = walk(store.ResponseQuery{SurveyID: sv.ID, Respondent: "bob", After: t0.Add(2 * time.Minute), Before: t0.Add(5 * time.Minute), Limit: 1}, false)
	var gotTimes []time.Duration
	for _, r := range got {
		if r.Respondent != "bob" {
			t.Errorf("respondent filter returned %q", r.Respondent)
		}
		gotTimes = append(gotTimes, r.CreatedAt.Sub(t0))
	}
	// bob: i=4 (2m), 7 (3m), 10 (5m) are inside [2m, 5m].
	if diff := cmp.Diff([]time.Duration{5 * time.Minute, 3 * time.Minute, 2 * time.Minute}, gotTimes); diff != "" {
		t.Errorf("filtered window (-want +got):\n%s", diff)
	}
	page, next, err := s.Responses(ctx, store.ResponseQuery{SurveyID: sv.ID, Limit: 100, Respondent: "nobody"})
	if err != nil || len(page) != 0 || next != nil {
		t.Errorf("Responses of unknown respondent = %d items, next %v, err %v; want none", len(page), next, err)
	}
}

// testResponseListMaxBytes pages with a byte budget: each page ends after the response that
// takes its data and metadata to MaxBytes, at least one response a page, and the cursor
// continues with nothing repeated or skipped.
func testResponseListMaxBytes(t *testing.T, s store.Store) {
	ctx := t.Context()
	mustTeam(t, s, "a")
	sv := mustSurvey(t, s, newSurvey("a", t0))
	var want []string
	for i := range 10 {
		w := store.ResponseWrite{SurveyID: sv.ID, ID: ids.New(), Respondent: "ann", Data: survey.Answers{},
			Metadata: map[string]string{"pad": strings.Repeat("x", 100*(i+1))}, At: t0.Add(time.Duration(i) * time.Minute)}
		put(t, s, w)
		want = append([]string{w.ID}, want...) // newest first
	}
	size := func(r store.Response) int { return len(r.Data) + len(r.Metadata) }
	for _, budget := range []int{1, 500, 1500, 1 << 20} {
		var got []string
		q := store.ResponseQuery{SurveyID: sv.ID, Limit: 4, MaxBytes: budget}
		for {
			page, next, err := s.Responses(ctx, q)
			if err != nil {
				t.Fatal(err)
			}
			if len(page) == 0 {
				t.Fatalf("budget %d: an empty page", budget)
			}
			total := 0
			for i, r := range page {
				total += size(r)
				if total >= budget && i < len(page)-1 {
					t.Fatalf("budget %d: the page goes on after reaching %d bytes at item %d of %d", budget, total, i, len(page))
				}
				got = append(got, r.ID)
			}
			if next == nil {
				break
			}
			if len(page) < 4 && total < budget {
				t.Fatalf("budget %d: a page of %d ended early at %d bytes", budget, len(page), total)
			}
			q.Cursor = next
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("budget %d: responses walked (-want +got):\n%s", budget, diff)
		}
	}
}

// testResponseFinished: a write may mark a response finished; it stays finished whatever later
// writes say, shows in lists and reads, and each response counts once among the finished.
func testResponseFinished(t *testing.T, s store.Store) {
	ctx := t.Context()
	mustTeam(t, s, "a")
	sv := mustSurvey(t, s, newSurvey("a", t0))
	w := store.ResponseWrite{SurveyID: sv.ID, ID: ids.New(), Respondent: "ann", Data: survey.Answers{}, At: t0}
	if r, _ := put(t, s, w); r.Finished {
		t.Errorf("a response written without finished is finished")
	}
	w.Finished, w.At = true, t0.Add(time.Minute)
	if r, _ := put(t, s, w); !r.Finished {
		t.Errorf("PutResponse with Finished returned %+v, want it finished", r)
	}
	w.Finished, w.At = false, t0.Add(2*time.Minute)
	if r, _ := put(t, s, w); !r.Finished {
		t.Errorf("a later write without Finished unfinished the response")
	}
	other := store.ResponseWrite{SurveyID: sv.ID, ID: ids.New(), Respondent: "bob", Data: survey.Answers{}, At: t0, Finished: true}
	put(t, s, other)
	put(t, s, store.ResponseWrite{SurveyID: sv.ID, ID: ids.New(), Respondent: "cat", Data: survey.Answers{}, At: t0})
	got, err := s.Response(ctx, sv.ID, w.ID)
	if err != nil || !got.Finished {
		t.Errorf("Response = %+v, %v; want finished", got, err)
	}
	page, _, err := s.Responses(ctx, store.ResponseQuery{SurveyID: sv.ID, Limit: 10})
	if err != nil {
		t.Fatal(err)
	}
	finished := map[string]bool{}
	for _, r := range page {
		finished[r.Respondent] = r.Finished
	}
	if diff := cmp.Diff(map[string]bool{"ann": true, "bob": true, "cat": false}, finished); diff != "" {
		t.Errorf("finished in the list (-want +got):\n%s", diff)
	}
	st, err := s.Stats(ctx, sv.ID)
	if err != nil || st.FinishedResponses != 2 || st.TotalResponses != 3 {
		t.Errorf("Stats = %+v, %v; want 3 responses, 2 finished", st, err)
	}
}

// testResponseListOldest pages oldest first, as exports do: ascending (CreatedAt, ID), filters
// applied, nothing repeated or skipped, and responses written during the walk come at its end.
func testResponseListOldest(t *testing.T, s store.Store) {
	ctx := t.Context()
	mustTeam(t, s, "a")
	sv := mustSurvey(t, s, newSurvey("a", t0))
	var want []string
	for i := range 13 {
		w := store.ResponseWrite{SurveyID: sv.ID, ID: ids.New(), Respondent: []string{"ann", "bob"}[i%2],
			Data: survey.Answers{}, At: t0.Add(time.Duration(i/3) * time.Minute)} // threes share a time
		put(t, s, w)
		if w.Respondent == "ann" {
			want = append(want, w.ID)
		}
	}
	// Expected order: by time, then by id, as the store sorts them.
	byTime := map[string]time.Time{}
	page, _, err := s.Responses(ctx, store.ResponseQuery{SurveyID: sv.ID, Respondent: "ann", Limit: 100})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range page {
		byTime[r.ID] = r.CreatedAt
	}
	slices.SortFunc(want, func(a, b string) int {
		if c := byTime[a].Compare(byTime[b]); c != 0 {
			return c
		}
		return strings.Compare(a, b)
	})
	var got []string
	q := store.ResponseQuery{SurveyID: sv.ID, Respondent: "ann", Limit: 2, Oldest: true}
	for {
		page, next, err := s.Responses(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range page {
			got = append(got, r.ID)
		}
		if next == nil {
			break
		}
		q.Cursor = next
		if len(got) == 2 {
			// A response arriving mid-walk sorts last: the walk ends with it.
			w := store.ResponseWrite{SurveyID: sv.ID, ID: ids.New(), Respondent: "ann", Data: survey.Answers{}, At: t0.Add(time.Hour)}
			put(t, s, w)
			want = append(want, w.ID)
		}
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("oldest-first walk (-want +got):\n%s", diff)
	}
}
