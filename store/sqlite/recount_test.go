package sqlite_test

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/svc-feedback/svc/internal/cuid2"
	"github.com/svc-feedback/svc/store"
	"github.com/svc-feedback/svc/survey"
)

// TestConcurrentWritesMatchRecount has many goroutines PUT shared and fresh response ids,
// record events and read lists at once, then recounts everything from the raw rows: one
// response per id, one delivery per created response, and counters and rollups equal to the
// recount.
func TestConcurrentWritesMatchRecount(t *testing.T) {
	path := filepath.Join(t.TempDir(), "svc.db")
	s := openStore(t, path)
	sv := seedSurvey(t, s)
	sv.WebhookURL, sv.UpdatedAt = "https://hooks.example.com/in", t0.Add(time.Millisecond)
	if err := s.UpdateSurvey(t.Context(), sv); err != nil {
		t.Fatal(err)
	}
	ids := cuid2.NewGenerator()
	shared := make([]string, 10)
	for i := range shared {
		shared[i] = ids.New()
	}
	ctx := context.Background()
	var wg sync.WaitGroup
	var mu sync.Mutex
	created := map[string]int{}
	for g := range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 60 {
				at := t0.Add(time.Duration(g*1000+i) * time.Minute)
				id := ids.New()
				who := fmt.Sprint("r", (g+i)%7)
				if i%3 == 0 {
					id = shared[i%len(shared)]
					who = "shared" + fmt.Sprint(i%len(shared))
				}
				_, isNew, err := s.PutResponse(ctx, store.ResponseWrite{SurveyID: sv.ID, ID: id, Respondent: who,
					Data: survey.Answers{"nps": survey.Number((g + i) % 11), "stars": survey.Number(i%5 + 1)}, At: at})
				if err != nil {
					t.Errorf("PutResponse: %v", err)
					return
				}
				if isNew {
					mu.Lock()
					created[id]++
					mu.Unlock()
				}
				typ := store.EventView
				if i%2 == 0 {
					typ = store.EventDismiss
				}
				if err := s.RecordEvent(ctx, store.Event{SurveyID: sv.ID, Respondent: who, Type: typ, At: at}); err != nil {
					t.Errorf("RecordEvent: %v", err)
					return
				}
				if i%10 == 0 {
					if _, _, err := s.Responses(ctx, store.ResponseQuery{SurveyID: sv.ID, Limit: 50}); err != nil {
						t.Errorf("Responses: %v", err)
					}
				}
			}
		}()
	}
	wg.Wait()
	for id, n := range created {
		if n != 1 {
			t.Errorf("response %s reported created %d times", id, n)
		}
	}
	st, err := s.Stats(ctx, sv.ID)
	if err != nil {
		t.Fatal(err)
	}
	s.Close()

	db, err := sql.Open("sqlite3", "file:"+path+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	count := func(q string, args ...any) int64 {
		t.Helper()
		var n int64
		if err := db.QueryRow(q, args...).Scan(&n); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		return n
	}
	want := store.Stats{
		TotalResponses:   count(`SELECT COUNT(*) FROM responses WHERE survey_id = ?`, sv.ID),
		UniqueResponders: count(`SELECT COUNT(DISTINCT respondent) FROM responses WHERE survey_id = ?`, sv.ID),
		TotalViews:       count(`SELECT COUNT(*) FROM events WHERE survey_id = ? AND type = 'view'`, sv.ID),
		UniqueViewers:    count(`SELECT COUNT(DISTINCT respondent) FROM events WHERE survey_id = ? AND type = 'view'`, sv.ID),
		TotalDismissals:  count(`SELECT COUNT(*) FROM events WHERE survey_id = ? AND type = 'dismiss'`, sv.ID),
		UniqueDismissers: count(`SELECT COUNT(DISTINCT respondent) FROM events WHERE survey_id = ? AND type = 'dismiss'`, sv.ID),
	}
	if st != want {
		t.Errorf("counters %+v, recount %+v", st, want)
	}
	if want.TotalResponses != int64(len(created)) {
		t.Errorf("%d responses stored, %d reported created", want.TotalResponses, len(created))
	}
	if n := count(`SELECT COUNT(*) FROM deliveries WHERE survey_id = ?`, sv.ID); n != want.TotalResponses {
		t.Errorf("%d deliveries for %d created responses", n, want.TotalResponses)
	}
	if n := count(`SELECT COUNT(*) FROM (SELECT response_id FROM deliveries GROUP BY response_id HAVING COUNT(*) > 1)`); n != 0 {
		t.Errorf("%d responses have more than one delivery", n)
	}

	// The ratings table equals a recount from the responses' data, and every rollup equals a
	// recount from the ratings.
	want2 := map[string]int64{}
	rows, err := db.Query(`SELECT data FROM responses WHERE survey_id = ?`, sv.ID)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var data []byte
		if err := rows.Scan(&data); err != nil {
			t.Fatal(err)
		}
		var a map[string]float64
		_ = json.Unmarshal(data, &a)
		for q, v := range a {
			want2[fmt.Sprint(q, "/", v)]++
		}
	}
	rows.Close()
	got2 := map[string]int64{}
	rows, err = db.Query(`SELECT question_id, score, COUNT(*) FROM ratings WHERE survey_id = ? GROUP BY question_id, score`, sv.ID)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var q string
		var score, n int64
		_ = rows.Scan(&q, &score, &n)
		got2[fmt.Sprint(q, "/", score)] = n
	}
	rows.Close()
	if fmt.Sprint(want2) != fmt.Sprint(got2) {
		t.Errorf("ratings %v, recount from responses %v", got2, want2)
	}
	for _, rollup := range []string{"rating_days", "rating_hours", "rating_totals"} {
		q := `SELECT COUNT(*) FROM (
			SELECT question_id, score, SUM(n) AS n FROM ` + rollup + ` WHERE survey_id = ?1 GROUP BY question_id, score HAVING SUM(n) <> 0
			EXCEPT SELECT question_id, score, COUNT(*) FROM ratings WHERE survey_id = ?1 GROUP BY question_id, score)`
		if n := count(q, sv.ID); n != 0 {
			t.Errorf("%s differs from the recount in %d (question, score) pairs", rollup, n)
		}
	}
	if n := count(`SELECT COUNT(*) FROM (SELECT question_id, day, score, n FROM rating_days WHERE survey_id = ?1 AND n <> 0
		EXCEPT SELECT question_id, created_at / 86400000, score, COUNT(*) FROM ratings WHERE survey_id = ?1 GROUP BY 1, 2, 3)`, sv.ID); n != 0 {
		t.Errorf("rating_days differs from the recount per day in %d rows", n)
	}
}
