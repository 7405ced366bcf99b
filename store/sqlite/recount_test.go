package sqlite_test

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
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

	// Every rollup equals a recount of the scores in the responses' stored answers.
	recount := `SELECT q, json_extract(data, '$.' || q) AS score, created_at / 86400000 AS day, created_at / 3600000 AS hour,
			created_at / 60000 AS minute
		FROM responses, (SELECT 'nps' AS q UNION ALL SELECT 'stars')
		WHERE survey_id = ?1 AND json_type(data, '$.' || q) = 'integer'`
	for _, check := range []struct{ name, rollup, scored string }{
		{"rating_totals", `SELECT question_id, score, n FROM rating_totals WHERE survey_id = ?1 AND n <> 0 AND question_id IN ('nps', 'stars')`,
			`SELECT q, score, COUNT(*) FROM (` + recount + `) GROUP BY 1, 2`},
		{"rating_days", `SELECT question_id, day, score, n FROM rating_days WHERE survey_id = ?1 AND n <> 0 AND question_id IN ('nps', 'stars')`,
			`SELECT q, day, score, COUNT(*) FROM (` + recount + `) GROUP BY 1, 2, 3`},
		{"rating_hours", `SELECT question_id, hour, score, n FROM rating_hours WHERE survey_id = ?1 AND n <> 0 AND question_id IN ('nps', 'stars')`,
			`SELECT q, hour, score, COUNT(*) FROM (` + recount + `) GROUP BY 1, 2, 3`},
		{"rating_minutes", `SELECT question_id, minute, score, n FROM rating_minutes WHERE survey_id = ?1 AND n <> 0 AND question_id IN ('nps', 'stars')`,
			`SELECT q, minute, score, COUNT(*) FROM (` + recount + `) GROUP BY 1, 2, 3`},
	} {
		diff := count(`SELECT COUNT(*) FROM (`+check.rollup+` EXCEPT `+check.scored+`)`, sv.ID) +
			count(`SELECT COUNT(*) FROM (`+check.scored+` EXCEPT `+check.rollup+`)`, sv.ID)
		if diff != 0 {
			t.Errorf("%s differs from the recount in %d rows", check.name, diff)
		}
	}
	if n := count(`SELECT COUNT(*) FROM (`+recount+`)`, sv.ID); n == 0 {
		t.Error("the recount found no scores: the check would pass vacuously")
	}

	// The summary's counts equal store.ResponseCounts of every stored response and the events.
	wantCounts := map[store.Count]int64{}
	rows, err := db.Query(`SELECT data, finished FROM responses WHERE survey_id = ?`, sv.ID)
	if err != nil {
		t.Fatal(err)
	}
	def := sv.Definition
	def.Normalize()
	for rows.Next() {
		var data []byte
		var finished bool
		if err := rows.Scan(&data, &finished); err != nil {
			t.Fatal(err)
		}
		var a survey.Answers
		if err := json.Unmarshal(data, &a); err != nil {
			t.Fatal(err)
		}
		for _, c := range store.ResponseCounts(&def, a, finished) {
			if store.IsCountKey(c.Key) {
				wantCounts[c]++
			}
		}
	}
	rows.Close()
	wantCounts[store.Count{Key: store.EventsKey, N: 0}] = want.TotalViews
	wantCounts[store.Count{Key: store.EventsKey, N: 1}] = want.TotalDismissals
	gotCounts := map[store.Count]int64{}
	rows, err = db.Query(`SELECT question_id, score, n FROM rating_totals WHERE survey_id = ? AND n <> 0 AND question_id NOT IN ('nps', 'stars')`, sv.ID)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var c store.Count
		var n int64
		if err := rows.Scan(&c.Key, &c.N, &n); err != nil {
			t.Fatal(err)
		}
		gotCounts[c] = n
	}
	rows.Close()
	if diff := cmp.Diff(wantCounts, gotCounts); diff != "" || len(wantCounts) < 5 {
		t.Errorf("summary counts (-recount +rollup):\n%s", diff)
	}
}

// oddQuestionID needs escaping in a JSON path.
const oddQuestionID = `q "odd" \ é`

// renameRatingQuestion gives the survey's second question (a rating) the id id, and returns it.
func renameRatingQuestion(t *testing.T, s store.Store, sv *store.Survey, id string) string {
	t.Helper()
	sv.Questions[1].ID = id
	sv.UpdatedAt = t0.Add(time.Millisecond)
	if err := s.UpdateSurvey(t.Context(), *sv); err != nil {
		t.Fatal(err)
	}
	return id
}

// TestRatingCountsOddQuestionID counts scores of a rating question whose id needs escaping in
// a JSON path, over a range whose partial minutes are read from the responses' stored answers.
func TestRatingCountsOddQuestionID(t *testing.T) {
	s := openStore(t, filepath.Join(t.TempDir(), "svc.db"))
	defer s.Close()
	sv := seedSurvey(t, s)
	odd := renameRatingQuestion(t, s, &sv, oddQuestionID)
	for i, score := range []float64{4, 5, 4} {
		if _, _, err := s.PutResponse(t.Context(), store.ResponseWrite{SurveyID: sv.ID, ID: cuid2.NewGenerator().New(), Respondent: fmt.Sprint(i),
			Data: survey.Answers{odd: survey.Number(score)}, At: t0.Add(time.Duration(i) * time.Minute)}); err != nil {
			t.Fatal(err)
		}
	}
	// Responses at t0, t0+1m and t0+2m; the range ends 30 s into the last one's minute.
	got, err := s.Counts(t.Context(), sv.ID, []string{odd}, t0.Add(-30*time.Second), t0.Add(2*time.Minute+30*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(got[odd]) != "map[4:2 5:1]" {
		t.Errorf("counts = %v, want map[4:2 5:1]", got[odd])
	}
}

// TestMinuteRollupBackfill rebuilds the per-minute rollup the way migration 0005 does for a
// database written before it, and gets the rows the writes kept: with an updated answer, a
// question id that needs escaping in a JSON path, and a time before 1970.
func TestMinuteRollupBackfill(t *testing.T) {
	path := filepath.Join(t.TempDir(), "svc.db")
	s := openStore(t, path)
	sv := seedSurvey(t, s)
	odd := renameRatingQuestion(t, s, &sv, oddQuestionID)
	ids := cuid2.NewGenerator()
	put := func(id string, at time.Time, nps, stars float64) {
		t.Helper()
		if _, _, err := s.PutResponse(t.Context(), store.ResponseWrite{SurveyID: sv.ID, ID: id, Respondent: "r",
			Data: survey.Answers{"nps": survey.Number(nps), odd: survey.Number(stars)}, At: at}); err != nil {
			t.Fatal(err)
		}
	}
	for i := range 40 {
		put(ids.New(), t0.Add(time.Duration(i)*17*time.Second), float64(i%11), float64(i%5+1))
	}
	changed := ids.New()
	put(changed, t0.Add(time.Hour), 3, 3)
	put(changed, t0.Add(2*time.Hour), 9, 5) // moves the scores, not the minute
	put(ids.New(), time.UnixMilli(-90_001).UTC(), 7, 2)
	s.Close()

	db, err := sql.Open("sqlite3", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	rowsOf := func() string {
		t.Helper()
		rows, err := db.Query(`SELECT question_id, minute, score, n FROM rating_minutes WHERE n <> 0 AND substr(question_id, 1, 1) <> char(31) ORDER BY 1, 2, 3`)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		var out []string
		for rows.Next() {
			var q string
			var minute, score, n int64
			if err := rows.Scan(&q, &minute, &score, &n); err != nil {
				t.Fatal(err)
			}
			out = append(out, fmt.Sprintf("%s|%d|%d|%d", q, minute, score, n))
		}
		return fmt.Sprint(out)
	}
	kept := rowsOf()
	if _, err := db.Exec(`DROP TABLE rating_minutes; DELETE FROM schema_migrations WHERE version = 5`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	s = openStore(t, path) // applies 0005 again, backfilling from the responses
	s.Close()
	if db, err = sql.Open("sqlite3", "file:"+path); err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if got := rowsOf(); got != kept {
		t.Errorf("backfilled rating_minutes differ from the rows the writes kept:\nbackfill %s\nwrites   %s", got, kept)
	}
	if !strings.Contains(kept, odd+"|") || !strings.Contains(kept, "|-2|") {
		t.Errorf("the kept rows miss the odd question id or the minute before 1970: %s", kept)
	}
}

// TestCountsBackfill rebuilds the summary's counts the way migration 10 does for a database
// written before the writes kept them, and gets the rows the writes kept, at every level.
func TestCountsBackfill(t *testing.T) {
	path := filepath.Join(t.TempDir(), "svc.db")
	s := openStore(t, path)
	sv := seedSurvey(t, s)
	ids := cuid2.NewGenerator()
	for i := range 60 {
		a := survey.Answers{"nps": survey.Number(i % 11)}
		if i%3 == 0 {
			a["missing"] = survey.Choices{"Speed", "Docs"}
		}
		if i%4 == 0 {
			a["comments"] = survey.Text("fine")
		}
		at := t0.Add(time.Duration(i) * 23 * time.Second)
		if _, _, err := s.PutResponse(t.Context(), store.ResponseWrite{SurveyID: sv.ID, ID: ids.New(), Respondent: fmt.Sprint("r", i%7),
			Data: a, At: at, Finished: i%5 == 0}); err != nil {
			t.Fatal(err)
		}
		if err := s.RecordEvent(t.Context(), store.Event{SurveyID: sv.ID, Respondent: "r", Type: store.EventView, At: at.Add(-time.Second)}); err != nil {
			t.Fatal(err)
		}
	}
	s.Close()
	db, err := sql.Open("sqlite3", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rowsOf := func() string {
		t.Helper()
		var out []string
		for _, q := range []string{
			`SELECT question_id, 0, score, n FROM rating_totals WHERE n <> 0 AND substr(question_id, 1, 1) = char(31)`,
			`SELECT question_id, day, score, n FROM rating_days WHERE n <> 0 AND substr(question_id, 1, 1) = char(31)`,
			`SELECT question_id, hour, score, n FROM rating_hours WHERE n <> 0 AND substr(question_id, 1, 1) = char(31)`,
			`SELECT question_id, minute, score, n FROM rating_minutes WHERE n <> 0 AND substr(question_id, 1, 1) = char(31)`,
		} {
			rows, err := db.Query(q + ` ORDER BY 1, 2, 3`)
			if err != nil {
				t.Fatal(err)
			}
			for rows.Next() {
				var key string
				var bucket, score, n int64
				if err := rows.Scan(&key, &bucket, &score, &n); err != nil {
					t.Fatal(err)
				}
				out = append(out, fmt.Sprintf("%q|%d|%d|%d", key, bucket, score, n))
			}
			rows.Close()
		}
		return strings.Join(out, "\n")
	}
	kept := rowsOf()
	for _, q := range []string{
		`DELETE FROM rating_totals WHERE substr(question_id, 1, 1) = char(31)`,
		`DELETE FROM rating_days WHERE substr(question_id, 1, 1) = char(31)`,
		`DELETE FROM rating_hours WHERE substr(question_id, 1, 1) = char(31)`,
		`DELETE FROM rating_minutes WHERE substr(question_id, 1, 1) = char(31)`,
		`DELETE FROM schema_migrations WHERE version = 10`,
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	s = openStore(t, path) // applies migration 10 again
	s.Close()
	if got := rowsOf(); got != kept {
		t.Errorf("backfilled counts differ from the rows the writes kept:\nbackfill %s\nwrites   %s", got, kept)
	}
	if strings.Count(kept, "\n") < 100 || !strings.Contains(kept, "events") || !strings.Contains(kept, "option") {
		t.Errorf("the kept rows are too few to tell: %s", kept)
	}
}
