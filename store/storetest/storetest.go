// Package storetest is the conformance suite for store.Store implementations. A backend is
// done when Run passes against it:
//
//	func TestConformance(t *testing.T) {
//		storetest.Run(t, func(t *testing.T) store.Store { return openTestStore(t) })
//	}
package storetest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/svc-feedback/svc/internal/cuid2"
	"github.com/svc-feedback/svc/store"
	"github.com/svc-feedback/svc/survey"
)

// Run runs every conformance test. newStore must return an empty Store; Run closes it.
func Run(t *testing.T, newStore func(t *testing.T) store.Store) {
	tests := []struct {
		name string
		fn   func(t *testing.T, s store.Store)
	}{
		{"Teams", testTeams},
		{"Keys", testKeys},
		{"Surveys", testSurveys},
		{"SurveyList", testSurveyList},
		{"ResponseCreateUpdate", testResponseCreateUpdate},
		{"ResponseConcurrentCreate", testResponseConcurrentCreate},
		{"ResponseList", testResponseList},
		{"EventsHistoryStats", testEventsHistoryStats},
		{"RatingCounts", testRatingCounts},
		{"RatingCountsAnyRange", testRatingCountsAnyRange},
		{"Import", testImport},
		{"Outbox", testOutbox},
		{"OutboxConcurrentCreate", testOutboxConcurrentCreate},
		{"DeliveryLifecycle", testDeliveryLifecycle},
		{"Closed", testClosed},
		{"ZeroTimes", testZeroTimes},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newStore(t)
			t.Cleanup(func() { _ = s.Close() })
			tt.fn(t, s)
		})
	}
}

// t0 is the suite's clock origin: a time with a millisecond part, in UTC.
var t0 = time.Date(2026, 3, 14, 9, 26, 53, 589_000_000, time.UTC)

var ids = cuid2.NewGenerator()

func mustTeam(t *testing.T, s store.Store, id string) {
	t.Helper()
	if err := s.CreateTeam(t.Context(), store.Team{ID: id, Name: "Team " + id, CreatedAt: t0}); err != nil {
		t.Fatalf("CreateTeam(%s): %v", id, err)
	}
}

func newSurvey(teamID string, at time.Time) store.Survey {
	return store.Survey{ID: ids.New(), TeamID: teamID, Status: store.StatusActive, Definition: survey.Sample(), CreatedAt: at, UpdatedAt: at}
}

func mustSurvey(t *testing.T, s store.Store, sv store.Survey) store.Survey {
	t.Helper()
	if err := s.CreateSurvey(t.Context(), sv); err != nil {
		t.Fatalf("CreateSurvey: %v", err)
	}
	return sv
}

func wantErr(t *testing.T, what string, err, want error) {
	t.Helper()
	if !errors.Is(err, want) {
		t.Fatalf("%s: error = %v, want %v", what, err, want)
	}
}

func testTeams(t *testing.T, s store.Store) {
	ctx := t.Context()
	mustTeam(t, s, "acme")
	got, err := s.Team(ctx, "acme")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(store.Team{ID: "acme", Name: "Team acme", CreatedAt: t0}, got); diff != "" {
		t.Errorf("Team (-want +got):\n%s", diff)
	}
	wantErr(t, "CreateTeam twice", s.CreateTeam(ctx, store.Team{ID: "acme", CreatedAt: t0}), store.ErrConflict)
	_, err = s.Team(ctx, "nobody")
	wantErr(t, "Team(unknown)", err, store.ErrNotFound)
}

func testKeys(t *testing.T, s store.Store) {
	ctx := t.Context()
	mustTeam(t, s, "a")
	mustTeam(t, s, "b")
	pk, key, err := store.CreateKey(ctx, s, "a", store.Publishable, t0)
	if err != nil {
		t.Fatal(err)
	}
	if err := store.ValidateKey(store.Publishable, pk); err != nil {
		t.Errorf("CreateKey made %q: %v", pk, err)
	}
	got, err := s.LookupKey(ctx, pk)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(key, got); diff != "" {
		t.Errorf("LookupKey (-want +got):\n%s", diff)
	}
	sk, _, err := store.CreateKey(ctx, s, "a", store.Secret, t0.Add(time.Second))
	if err != nil {
		t.Fatal(err)
	}
	wantErr(t, "AddKey twice", s.AddKey(ctx, store.NewKey("b", store.Secret, sk, t0), sk), store.ErrConflict)
	wantErr(t, "AddKey unknown team", s.AddKey(ctx, store.NewKey("zz", store.Secret, store.NewKeyPlaintext(store.Secret), t0), "x"), store.ErrNotFound)
	_, err = s.LookupKey(ctx, store.NewKeyPlaintext(store.Secret))
	wantErr(t, "LookupKey(unknown)", err, store.ErrNotFound)

	wantErr(t, "RevokeKey of another team", s.RevokeKey(ctx, "b", key.ID, t0), store.ErrNotFound)
	if err := s.RevokeKey(ctx, "a", key.ID, t0.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	_, err = s.LookupKey(ctx, pk)
	wantErr(t, "LookupKey(revoked)", err, store.ErrNotFound)
	if _, err := s.LookupKey(ctx, sk); err != nil {
		t.Errorf("the other key stopped working after a revoke: %v", err)
	}
	keys, err := s.Keys(ctx, "a")
	if err != nil {
		t.Fatal(err)
	}
	if len(keys) != 2 || keys[0].ID != key.ID || keys[0].RevokedAt == nil || !keys[0].RevokedAt.Equal(t0.Add(time.Minute)) || keys[1].RevokedAt != nil {
		t.Errorf("Keys = %+v, want the revoked publishable key then the live secret key", keys)
	}
}

func testSurveys(t *testing.T, s store.Store) {
	ctx := t.Context()
	mustTeam(t, s, "a")
	mustTeam(t, s, "b")
	sv := newSurvey("a", t0)
	sv.WebhookURL, sv.WebhookSecret = "https://hooks.example.com/svc", "whsec"
	mustSurvey(t, s, sv)
	got, err := s.Survey(ctx, "a", sv.ID)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(sv, got); diff != "" {
		t.Errorf("Survey (-want +got):\n%s", diff)
	}
	_, err = s.Survey(ctx, "b", sv.ID)
	wantErr(t, "Survey of another team", err, store.ErrNotFound)
	wantErr(t, "CreateSurvey twice", s.CreateSurvey(ctx, sv), store.ErrConflict)
	wantErr(t, "CreateSurvey for unknown team", s.CreateSurvey(ctx, newSurvey("zz", t0)), store.ErrNotFound)

	bad := newSurvey("a", t0)
	bad.Questions[1].Properties = survey.RatingProperties{Scale: 11}
	wantErr(t, "CreateSurvey invalid", s.CreateSurvey(ctx, bad), store.ErrInvalid)
	bad = newSurvey("a", t0)
	bad.WebhookURL = "ftp://example.com"
	wantErr(t, "CreateSurvey with ftp webhook", s.CreateSurvey(ctx, bad), store.ErrInvalid)
	bad = newSurvey("a", t0)
	bad.ID = "Not-A-Cuid"
	wantErr(t, "CreateSurvey with bad id", s.CreateSurvey(ctx, bad), store.ErrInvalid)

	upd := sv
	upd.Title, upd.Status, upd.UpdatedAt = "Renamed", store.StatusInactive, t0.Add(time.Hour)
	upd.CreatedAt = t0.Add(-time.Hour) // must be ignored
	if err := s.UpdateSurvey(ctx, upd); err != nil {
		t.Fatal(err)
	}
	got, err = s.Survey(ctx, "a", sv.ID)
	if err != nil {
		t.Fatal(err)
	}
	upd.CreatedAt = sv.CreatedAt
	if diff := cmp.Diff(upd, got); diff != "" {
		t.Errorf("Survey after update (-want +got):\n%s", diff)
	}
	upd.TeamID = "b"
	wantErr(t, "UpdateSurvey by another team", s.UpdateSurvey(ctx, upd), store.ErrNotFound)

	for _, status := range []store.Status{store.StatusDeleted, store.StatusActive, store.StatusInactive} {
		if err := store.SetSurveyStatus(ctx, s, "a", sv.ID, status, t0.Add(2*time.Hour)); err != nil {
			t.Fatal(err)
		}
		if got, err := s.Survey(ctx, "a", sv.ID); err != nil || got.Status != status || got.Title != "Renamed" {
			t.Errorf("after SetSurveyStatus(%s): %+v, %v", status, got.Status, err)
		}
	}
	wantErr(t, "SetSurveyStatus unknown status", store.SetSurveyStatus(ctx, s, "a", sv.ID, "archived", t0), store.ErrInvalid)
	wantErr(t, "SetSurveyStatus by another team", store.SetSurveyStatus(ctx, s, "b", sv.ID, store.StatusDeleted, t0), store.ErrNotFound)
}

func testSurveyList(t *testing.T, s store.Store) {
	ctx := t.Context()
	mustTeam(t, s, "a")
	mustTeam(t, s, "b")
	var want []string
	for i := range 7 {
		// Two surveys share each creation time, so the id breaks ties.
		sv := newSurvey("a", t0.Add(time.Duration(i/2)*time.Second))
		if i == 3 {
			sv.Status = store.StatusDeleted
		} else if i == 4 {
			sv.Status = store.StatusInactive
		}
		mustSurvey(t, s, sv)
		if sv.Status != store.StatusDeleted {
			want = append(want, sv.ID)
		}
	}
	mustSurvey(t, s, newSurvey("b", t0))
	// Newest first: by time descending, then id descending.
	var got []string
	var cursor *store.Cursor
	for pages := 0; ; pages++ {
		page, next, err := s.Surveys(ctx, "a", cursor, 2)
		if err != nil {
			t.Fatal(err)
		}
		if len(page) == 0 {
			t.Fatal("Surveys returned an empty page")
		}
		for _, sv := range page {
			got = append(got, sv.ID)
		}
		if next == nil {
			break
		}
		cursor = next
	}
	sorted := sortNewestFirst(t, s, "a", want)
	if diff := cmp.Diff(sorted, got); diff != "" {
		t.Errorf("Surveys pages (-want +got):\n%s", diff)
	}
}

// sortNewestFirst orders survey ids by (CreatedAt, ID) descending.
func sortNewestFirst(t *testing.T, s store.Store, team string, idsIn []string) []string {
	t.Helper()
	type row struct {
		at time.Time
		id string
	}
	var rows []row
	for _, id := range idsIn {
		sv, err := s.Survey(t.Context(), team, id)
		if err != nil {
			t.Fatal(err)
		}
		rows = append(rows, row{sv.CreatedAt, id})
	}
	for i := range rows {
		for j := i + 1; j < len(rows); j++ {
			a, b := rows[i], rows[j]
			if b.at.After(a.at) || b.at.Equal(a.at) && b.id > a.id {
				rows[i], rows[j] = b, a
			}
		}
	}
	out := make([]string, len(rows))
	for i, r := range rows {
		out[i] = r.id
	}
	return out
}

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

func testEventsHistoryStats(t *testing.T, s store.Store) {
	ctx := t.Context()
	mustTeam(t, s, "a")
	sv := mustSurvey(t, s, newSurvey("a", t0))
	events := []store.Event{
		{Respondent: "ann", Type: store.EventView, At: t0},
		{Respondent: "ann", Type: store.EventView, At: t0.Add(2 * time.Minute)},
		{Respondent: "bob", Type: store.EventView, At: t0.Add(time.Minute)},
		{Respondent: "bob", Type: store.EventDismiss, At: t0.Add(3 * time.Minute)},
		{Respondent: "ann", Type: store.EventView, At: t0.Add(time.Minute)}, // older than ann's latest
	}
	for _, e := range events {
		e.SurveyID = sv.ID
		if err := s.RecordEvent(ctx, e); err != nil {
			t.Fatal(err)
		}
	}
	for _, who := range []string{"ann", "cat"} {
		put(t, s, store.ResponseWrite{SurveyID: sv.ID, ID: ids.New(), Respondent: who, Data: survey.Answers{}, At: t0.Add(4 * time.Minute)})
	}
	put(t, s, store.ResponseWrite{SurveyID: sv.ID, ID: ids.New(), Respondent: "ann", Data: survey.Answers{}, At: t0.Add(5 * time.Minute)})
	// A response created earlier than ann's newest (an import, or a clock set back) leaves her
	// last response where it was.
	put(t, s, store.ResponseWrite{SurveyID: sv.ID, ID: ids.New(), Respondent: "ann", Data: survey.Answers{}, At: t0.Add(30 * time.Second)})
	// Responses of new respondents written at once, as group commit shares one transaction
	// between them: each respondent is counted once.
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w := store.ResponseWrite{SurveyID: sv.ID, ID: ids.New(), Respondent: fmt.Sprintf("dan%d", i%2), Data: survey.Answers{}, At: t0.Add(4 * time.Minute)}
			if _, _, err := s.PutResponse(ctx, w); err != nil {
				t.Errorf("PutResponse(%s): %v", w.ID, err)
			}
		}()
	}
	wg.Wait()
	wantErr(t, "RecordEvent bad type", s.RecordEvent(ctx, store.Event{SurveyID: sv.ID, Respondent: "x", Type: "click", At: t0}), store.ErrInvalid)
	wantErr(t, "RecordEvent unknown survey", s.RecordEvent(ctx, store.Event{SurveyID: ids.New(), Respondent: "x", Type: store.EventView, At: t0}), store.ErrNotFound)

	st, err := s.Stats(ctx, sv.ID)
	if err != nil {
		t.Fatal(err)
	}
	want := store.Stats{TotalViews: 4, UniqueViewers: 2, TotalDismissals: 1, UniqueDismissers: 1, TotalResponses: 12, UniqueResponders: 4}
	if diff := cmp.Diff(want, st); diff != "" {
		t.Errorf("Stats (-want +got):\n%s", diff)
	}
	h, err := s.History(ctx, sv.ID, "ann")
	if err != nil {
		t.Fatal(err)
	}
	at := func(d time.Duration) *time.Time { x := t0.Add(d); return &x }
	if diff := cmp.Diff(store.History{LastRespondedAt: at(5 * time.Minute), LastViewedAt: at(2 * time.Minute)}, h); diff != "" {
		t.Errorf("History(ann) (-want +got):\n%s", diff)
	}
	h, err = s.History(ctx, sv.ID, "cat")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(store.History{LastRespondedAt: at(4 * time.Minute)}, h); diff != "" {
		t.Errorf("History(cat), who only responded (-want +got):\n%s", diff)
	}
	h, err = s.History(ctx, sv.ID, "nobody")
	if err != nil || h != (store.History{}) {
		t.Errorf("History(unknown) = %+v, %v; want empty", h, err)
	}
	_, err = s.Stats(ctx, ids.New())
	wantErr(t, "Stats(unknown survey)", err, store.ErrNotFound)
}

func testRatingCounts(t *testing.T, s store.Store) {
	ctx := t.Context()
	mustTeam(t, s, "a")
	sv := mustSurvey(t, s, newSurvey("a", t0))
	midnight := time.Date(2026, 3, 10, 0, 0, 0, 0, time.UTC)
	// Scores on several days and at day edges.
	scores := []struct {
		at    time.Time
		nps   int
		stars int
	}{
		{midnight.Add(-time.Millisecond), 10, 1}, // last instant of Mar 9
		{midnight, 9, 5},                         // first instant of Mar 10
		{midnight.Add(13 * time.Hour), 9, 4},
		{midnight.Add(36 * time.Hour), 0, 4}, // Mar 11, 12:00
		{midnight.Add(72 * time.Hour), 7, 3}, // Mar 13, 00:00
	}
	var lastID string
	for _, sc := range scores {
		lastID = ids.New()
		put(t, s, store.ResponseWrite{SurveyID: sv.ID, ID: lastID, Respondent: "r" + lastID,
			Data: survey.Answers{"nps": survey.Number(sc.nps), "stars": survey.Number(sc.stars), "comments": survey.Text("x")}, At: sc.at})
	}
	check := func(name string, from, to time.Time, want map[string]map[int]int64) {
		t.Helper()
		got, err := s.RatingCounts(ctx, sv.ID, []string{"nps", "stars"}, from, to)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s: RatingCounts (-want +got):\n%s", name, diff)
		}
	}
	check("everything", midnight.Add(-48*time.Hour), midnight.Add(96*time.Hour), map[string]map[int]int64{
		"nps": {10: 1, 9: 2, 0: 1, 7: 1}, "stars": {1: 1, 5: 1, 4: 2, 3: 1},
	})
	check("whole day Mar 10", midnight, midnight.Add(24*time.Hour), map[string]map[int]int64{
		"nps": {9: 2}, "stars": {5: 1, 4: 1},
	})
	check("partial edges", midnight.Add(-time.Millisecond), midnight.Add(72*time.Hour), map[string]map[int]int64{
		"nps": {10: 1, 9: 2, 0: 1}, "stars": {1: 1, 5: 1, 4: 2},
	})
	check("inside one day", midnight.Add(time.Hour), midnight.Add(14*time.Hour), map[string]map[int]int64{
		"nps": {9: 1}, "stars": {4: 1},
	})
	check("empty range", midnight, midnight, map[string]map[int]int64{"nps": {}, "stars": {}})

	// An update moves the response's scores; counts stay on its creation day.
	put(t, s, store.ResponseWrite{SurveyID: sv.ID, ID: lastID, Respondent: "r" + lastID,
		Data: survey.Answers{"nps": survey.Number(1)}, At: midnight.Add(100 * time.Hour)})
	check("after update", midnight.Add(72*time.Hour), midnight.Add(96*time.Hour), map[string]map[int]int64{
		"nps": {1: 1}, "stars": {},
	})
}

// testRatingCountsAnyRange puts responses dense in some hours and minutes and sparse in others,
// over three days, and checks the counts of many ranges, on bucket boundaries and between them,
// against counts made here from the responses put.
func testRatingCountsAnyRange(t *testing.T, s store.Store) {
	ctx := t.Context()
	mustTeam(t, s, "a")
	sv := mustSurvey(t, s, newSurvey("a", t0))
	rng := rand.New(rand.NewPCG(1, 2)) // fixed: a failure must repeat
	midnight := time.Date(2026, 3, 10, 0, 0, 0, 0, time.UTC)
	type rating struct {
		at               time.Time
		nps, stars       int
		hasNPS, hasStars bool
	}
	var ratings []rating
	for range 400 {
		var at time.Time
		switch rng.IntN(3) {
		case 0: // anywhere in three days
			at = midnight.Add(time.Duration(rng.Int64N(int64(72 * time.Hour))))
		case 1: // dense: in the hour from 13:00 on the second day
			at = midnight.Add(37*time.Hour + time.Duration(rng.Int64N(int64(time.Hour))))
		default: // dense: in the minute from 13:07 on the second day
			at = midnight.Add(37*time.Hour + 7*time.Minute + time.Duration(rng.Int64N(int64(time.Minute))))
		}
		at = at.Truncate(time.Millisecond)
		r := rating{at: at, nps: rng.IntN(11), stars: 1 + rng.IntN(5), hasNPS: rng.IntN(5) > 0, hasStars: rng.IntN(5) > 0}
		data := survey.Answers{}
		if r.hasNPS {
			data["nps"] = survey.Number(r.nps)
		}
		if r.hasStars {
			data["stars"] = survey.Number(r.stars)
		}
		put(t, s, store.ResponseWrite{SurveyID: sv.ID, ID: ids.New(), Respondent: "r", Data: data, At: at})
		ratings = append(ratings, r)
	}
	// Ranges: any two instants from a day before to a day after, each on a day, hour or
	// minute boundary or not.
	instant := func() time.Time {
		at := midnight.Add(-24*time.Hour + time.Duration(rng.Int64N(int64(5*24*time.Hour))))
		switch rng.IntN(4) {
		case 0:
			return at.Truncate(24 * time.Hour)
		case 1:
			return at.Truncate(time.Hour)
		case 2:
			return at.Truncate(time.Minute)
		}
		return at.Truncate(time.Millisecond)
	}
	for i := range 150 {
		from, to := instant(), instant()
		if i%10 == 0 { // some ranges inside the dense hour, where a bucket's edges matter most
			from = midnight.Add(37*time.Hour + time.Duration(rng.Int64N(int64(time.Hour)))).Truncate(time.Millisecond)
			to = from.Add(time.Duration(rng.Int64N(int64(time.Hour)))).Truncate(time.Millisecond)
		}
		if to.Before(from) {
			from, to = to, from
		}
		want := map[string]map[int]int64{"nps": {}, "stars": {}}
		for _, r := range ratings {
			if r.at.Before(from) || !r.at.Before(to) {
				continue
			}
			if r.hasNPS {
				want["nps"][r.nps]++
			}
			if r.hasStars {
				want["stars"][r.stars]++
			}
		}
		got, err := s.RatingCounts(ctx, sv.ID, []string{"nps", "stars"}, from, to)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("RatingCounts from %s to %s (-counted here +store):\n%s", from.Format(time.RFC3339Nano), to.Format(time.RFC3339Nano), diff)
		}
	}
}

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
		f, err := store.DecodeFixture(strings.NewReader(raw))
		if err != nil {
			t.Fatal(err)
		}
		if err := store.Import(ctx, s, f, t0.Add(time.Duration(i)*time.Hour)); err != nil {
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
		f, err := store.DecodeFixture(strings.NewReader(undated))
		if err != nil {
			t.Fatal(err)
		}
		if err := store.Import(ctx, s, f, t0.Add(time.Duration(i+2)*time.Hour)); err != nil {
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
