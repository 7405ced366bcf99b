package postgres

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/jackc/pgx/v5"

	"github.com/svc-feedback/svc/store"
	"github.com/svc-feedback/svc/store/postgres/pgtest"
	"github.com/svc-feedback/svc/survey"
)

var t0 = time.Date(2026, 11, 24, 9, 30, 0, 0, time.UTC)

// openWithSurvey opens a Store on a schema of its own holding one active survey with a
// webhook, of that id, and returns both.
func openWithSurvey(t *testing.T, surveyID string, opts *Options) (*Store, store.Survey) {
	t.Helper()
	return openAt(t, pgtest.URL(t), surveyID, opts)
}

// openAt is openWithSurvey on the database at url.
func openAt(t *testing.T, url, surveyID string, opts *Options) (*Store, store.Survey) {
	t.Helper()
	ctx := context.Background()
	s, err := Open(ctx, url, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	if err := s.CreateTeam(ctx, store.Team{ID: "acme", Name: "Acme"}); err != nil {
		t.Fatal(err)
	}
	sv := store.Survey{ID: surveyID, TeamID: "acme", Status: store.StatusActive, Definition: survey.Sample(),
		WebhookURL: "https://hooks.example.com/in", CreatedAt: t0.Add(-time.Hour)}
	if err := s.CreateSurvey(ctx, sv); err != nil {
		t.Fatal(err)
	}
	return s, sv
}

// batchWrites are writes that exercise every branch of a batch: new responses (two of one
// respondent, one finished, one imported), updates of stored ones (answers moved, finished, an
// imported one that changes nothing), another respondent's id, and a survey that does not
// exist, which PostgreSQL refuses and which fails the batch's first run.
func batchWrites(surveyID string) (stored, batch []store.ResponseWrite) {
	stored = []store.ResponseWrite{
		{SurveyID: surveyID, ID: "r-old1", Respondent: "ann", Data: survey.Answers{"nps": survey.Number(3)}, At: t0},
		{SurveyID: surveyID, ID: "r-old2", Respondent: "bob", Data: survey.Answers{"nps": survey.Number(10)}, At: t0.Add(time.Minute)},
		{SurveyID: surveyID, ID: "r-old3", Respondent: "cat", Data: survey.Answers{"nps": survey.Number(7)}, At: t0.Add(2 * time.Minute)},
	}
	later := t0.Add(90 * time.Minute)
	batch = []store.ResponseWrite{
		{SurveyID: surveyID, ID: "r-new1", Respondent: "dan", Data: survey.Answers{"nps": survey.Number(9), "stars": survey.Number(4)}, At: later},
		{SurveyID: surveyID, ID: "r-new2", Respondent: "dan", Data: survey.Answers{"nps": survey.Number(2),
			"missing": survey.Choices{"Speed", "Docs"}}, At: later.Add(time.Second), Finished: true},
		{SurveyID: surveyID, ID: "r-new3", Respondent: "eve", Data: survey.Answers{"nps": survey.Number(9)}, At: later, Imported: true},
		{SurveyID: surveyID, ID: "r-old1", Respondent: "ann", Data: survey.Answers{"nps": survey.Number(8), "stars": survey.Number(2)},
			At: later.Add(2 * time.Second), Finished: true},
		{SurveyID: surveyID, ID: "r-old2", Respondent: "bob", Data: survey.Answers{"nps": survey.Number(1)}, At: later, Imported: true},
		{SurveyID: surveyID, ID: "r-old3", Respondent: "mallory", Data: survey.Answers{"nps": survey.Number(0)}, At: later},
	}
	return stored, batch
}

// batchEvents are views and dismissals, by respondents who responded in the batch or before,
// once or twice, and by one who did not.
func batchEvents(surveyID string) []store.Event {
	at := t0.Add(90 * time.Minute)
	return []store.Event{
		{SurveyID: surveyID, Respondent: "dan", Type: store.EventView, At: at},
		{SurveyID: surveyID, Respondent: "dan", Type: store.EventView, At: at.Add(3 * time.Second)},
		{SurveyID: surveyID, Respondent: "ann", Type: store.EventDismiss, At: at},
		{SurveyID: surveyID, Respondent: "zed", Type: store.EventView, At: at.Add(time.Second)},
		{SurveyID: surveyID, Respondent: "zed", Type: store.EventDismiss, At: at.Add(2 * time.Second)},
	}
}

// TestBatchMatchesOneByOne runs writes of responses and events as one batch in one store and
// one by one in another, and compares everything a user can read of the two: each write's
// outcome, the responses, stats, every count the writes touch (all time and one minute),
// histories, events and deliveries.
// With a write PostgreSQL refuses in the batch, that write fails alone: its batch-mates commit.
// That the one-by-one figures are right is the conformance suite's to check (a write alone is a
// batch of one); this test checks that sharing a transaction changes none of them.
func TestBatchMatchesOneByOne(t *testing.T) {
	for _, refused := range []bool{false, true} {
		t.Run(fmt.Sprintf("refused=%v", refused), func(t *testing.T) { testBatchMatchesOneByOne(t, refused) })
	}
}

func testBatchMatchesOneByOne(t *testing.T, refused bool) {
	ctx := context.Background()
	id := store.NewSurveyID()
	batched, sv := openWithSurvey(t, id, nil)
	single, _ := openWithSurvey(t, id, nil)
	stored, writes := batchWrites(sv.ID)
	for _, s := range []*Store{batched, single} {
		for _, w := range stored {
			if _, _, err := s.PutResponse(ctx, w); err != nil {
				t.Fatal(err)
			}
		}
	}
	var ops []*writeOp
	for _, w := range writes {
		op, err := batched.newPutOp(ctx, w)
		if err != nil {
			t.Fatal(err)
		}
		ops = append(ops, op)
	}
	events := batchEvents(sv.ID)
	batch := slices.Clone(ops)
	for _, e := range events {
		batch = append(batch, &writeOp{event: &e})
	}
	wantCommits := []int{len(batch)}
	var ghost *writeOp
	if refused {
		// A write for a survey that does not exist gets past the cache only if it is built
		// by hand: the batch's insert then breaks the foreign key.
		ghost = &writeOp{w: writes[0], sv: ops[0].sv, data: ops[0].data, meta: ops[0].meta, at: ops[0].at}
		ghost.w.SurveyID, ghost.w.ID = store.NewSurveyID(), "r-ghost"
		batch = append(batch, ghost)
		wantCommits = slices.Repeat([]int{1}, len(batch)-1) // each write again on its own
	}
	var commits []int
	batched.onCommit = func(writes int, _ time.Duration) { commits = append(commits, writes) }
	batched.runBatch(batch)
	if ghost != nil && !errors.Is(ghost.err, store.ErrNotFound) {
		t.Errorf("the write for a missing survey: %v, want store.ErrNotFound", ghost.err)
	}
	if !cmp.Equal(commits, wantCommits) {
		t.Errorf("commits %v, want %v", commits, wantCommits)
	}
	for i, w := range writes {
		resp, created, err := single.PutResponse(ctx, w)
		if op := ops[i]; errKind(op.err) != errKind(err) || created != op.created || !cmp.Equal(resp, op.resp) {
			t.Errorf("write %s: batched (%v, %+v, %v), one by one (%v, %+v, %v)", w.ID, op.created, op.resp, op.err, created, resp, err)
		}
	}
	for _, e := range events {
		if err := single.RecordEvent(ctx, e); err != nil {
			t.Fatal(err)
		}
	}
	if !errors.Is(ops[len(ops)-1].err, store.ErrConflict) {
		t.Errorf("another respondent's id: %v, want store.ErrConflict", ops[len(ops)-1].err)
	}
	all := append(stored, writes...)
	for _, e := range events {
		all = append(all, store.ResponseWrite{Respondent: e.Respondent}) // their histories too
	}
	if diff := cmp.Diff(readable(t, single, sv, all), readable(t, batched, sv, all)); diff != "" {
		t.Errorf("the batch left a different state than the same writes one by one (-one by one +batched):\n%s", diff)
	}
}

// TestBatchSharesOneCommit checks that concurrent writes share transactions, and that every
// write is in exactly one of them.
func TestBatchSharesOneCommit(t *testing.T) {
	ctx := context.Background()
	var mu sync.Mutex
	var commits, writes int
	s, sv := openWithSurvey(t, store.NewSurveyID(), &Options{OnCommit: func(n int, _ time.Duration) {
		mu.Lock()
		commits, writes = commits+1, writes+n
		mu.Unlock()
	}})
	const n = 400
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w := store.ResponseWrite{SurveyID: sv.ID, ID: fmt.Sprint("r", i), Respondent: fmt.Sprint("u", i%7),
				Data: survey.Answers{"nps": survey.Number(i % 11)}, At: t0.Add(time.Duration(i) * time.Second)}
			if _, created, err := s.PutResponse(ctx, w); err != nil || !created {
				t.Errorf("write %d: created %v, %v", i, created, err)
			}
		}()
	}
	wg.Wait()
	st, err := s.Stats(ctx, sv.ID)
	if err != nil {
		t.Fatal(err)
	}
	if st.TotalResponses != n || st.UniqueResponders != 7 || writes != n {
		t.Errorf("stats %+v and %d writes committed, want %d responses of 7 respondents", st, writes, n)
	}
	if commits >= n {
		t.Errorf("%d commits for %d concurrent writes: none was shared", commits, n)
	}
}

// TestCloseDuringWrites closes the Store under a load of writes: each write either succeeds
// and is stored, or fails with store.ErrClosed; none hangs.
func TestCloseDuringWrites(t *testing.T) {
	ctx := context.Background()
	url := pgtest.URL(t)
	s, sv := openAt(t, url, store.NewSurveyID(), nil)
	var ok sync.Map
	var started atomic.Int64
	var wg sync.WaitGroup
	for g := range 32 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; ; i++ {
				id := fmt.Sprintf("r%d-%d", g, i)
				started.Add(1)
				_, _, err := s.PutResponse(ctx, store.ResponseWrite{SurveyID: sv.ID, ID: id, Respondent: "u", Data: survey.Answers{}, At: t0})
				if errors.Is(err, store.ErrClosed) {
					return
				}
				if err != nil {
					t.Errorf("write %s: %v", id, err)
					return
				}
				ok.Store(id, true)
			}
		}()
	}
	for started.Load() < 200 {
		time.Sleep(time.Millisecond) // lets the load start; the test's outcome does not depend on how long
	}
	s.Close()
	wg.Wait()
	r, err := Open(ctx, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	ok.Range(func(id, _ any) bool {
		if _, err := r.Response(ctx, sv.ID, id.(string)); err != nil {
			t.Errorf("write %s succeeded but is not stored: %v", id, err)
		}
		return true
	})
}

// errKind names the store's sentinel an error wraps.
func errKind(err error) string {
	for _, s := range []error{store.ErrNotFound, store.ErrConflict, store.ErrInvalid, store.ErrClosed} {
		if errors.Is(err, s) {
			return s.Error()
		}
	}
	if err != nil {
		return "other"
	}
	return "none"
}

// state is what a user can read of a survey's writes.
type state struct {
	Responses  map[string]store.Response
	Stats      store.Stats
	AllTime    map[string]map[int]int64
	Minute     map[string]map[int]int64
	Histories  map[string]store.History
	Deliveries []string
	Events     []string
}

func readable(t *testing.T, s *Store, sv store.Survey, writes []store.ResponseWrite) state {
	t.Helper()
	ctx := context.Background()
	st := state{Responses: map[string]store.Response{}, Histories: map[string]store.History{}}
	keys := map[string]bool{store.EventsKey: true}
	for _, w := range writes {
		for _, c := range store.ResponseCounts(&sv.Definition, w.Data, true) {
			keys[c.Key] = true
		}
		if r, err := s.Response(ctx, sv.ID, w.ID); err == nil {
			st.Responses[w.ID] = r
		}
		h, err := s.History(ctx, sv.ID, w.Respondent)
		if err != nil {
			t.Fatal(err)
		}
		st.Histories[w.Respondent] = h
	}
	var ids []string
	for k := range keys {
		ids = append(ids, k)
	}
	var err error
	if st.Stats, err = s.Stats(ctx, sv.ID); err != nil {
		t.Fatal(err)
	}
	if st.AllTime, err = s.Counts(ctx, sv.ID, ids, t0.Add(-48*time.Hour), t0.Add(48*time.Hour)); err != nil {
		t.Fatal(err)
	}
	if st.Minute, err = s.Counts(ctx, sv.ID, ids, t0.Add(90*time.Minute), t0.Add(91*time.Minute)); err != nil {
		t.Fatal(err)
	}
	st.Deliveries = column(t, s, `SELECT response_id || ' ' || state FROM deliveries ORDER BY 1`)
	st.Events = column(t, s, `SELECT respondent || ' ' || type || ' ' || created_at FROM events ORDER BY 1`)
	return st
}

// column reads a query's single text column.
func column(t *testing.T, s *Store, query string) []string {
	t.Helper()
	rows, err := s.pool.Query(context.Background(), query)
	if err != nil {
		t.Fatal(err)
	}
	list, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		t.Fatal(err)
	}
	return list
}
