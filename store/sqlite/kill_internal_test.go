//go:build cgo

package sqlite

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/svc-feedback/svc/store"
	"github.com/svc-feedback/svc/survey"
)

// killChildEnv names the database file of the child process of TestKillMidFoldLosesNothing.
const killChildEnv = "SVC_TEST_KILL_MID_FOLD"

// TestKillMidFoldLosesNothing writes responses in a child process until a fold of the count log
// has written the rollups but not yet deleted the log rows it read, kills the child there with
// SIGKILL, and opens the database again: every acknowledged response is there, and the counts
// equal a recount of the stored responses, before and after the next fold.
func TestKillMidFoldLosesNothing(t *testing.T) {
	if path := os.Getenv(killChildEnv); path != "" {
		writeUntilFold(t, path)
		return
	}
	path := filepath.Join(t.TempDir(), "svc.db")
	cmd := exec.Command(os.Args[0], "-test.run=^TestKillMidFoldLosesNothing$")
	cmd.Env = append(os.Environ(), killChildEnv+"="+path)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var acked []string
	folding := false
	lines := bufio.NewScanner(out)
	for !folding && lines.Scan() {
		switch line := lines.Text(); {
		case strings.HasPrefix(line, "acked "):
			acked = append(acked, strings.TrimPrefix(line, "acked "))
		case line == "folding":
			folding = true
		}
	}
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	if !folding || len(acked) < 100 {
		t.Fatalf("the child stopped before a fold (%d writes acknowledged)", len(acked))
	}

	for round := range 2 { // as the crash left it, then folded by Close
		s, err := Open(t.Context(), path, &Options{foldEvery: -1})
		if err != nil {
			t.Fatal(err)
		}
		for _, id := range acked {
			if _, err := s.Response(t.Context(), killSurvey, id); err != nil {
				t.Fatalf("round %d: acknowledged response %s: %v", round, id, err)
			}
		}
		checkCountsRecount(t, s)
		if round == 0 {
			var logged int
			if err := s.rdb.QueryRow(`SELECT COUNT(*) FROM count_log`).Scan(&logged); err != nil || logged == 0 {
				t.Errorf("the count log holds %d rows after the crash (%v): the kill came after the fold", logged, err)
			}
		}
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
	}
}

const killSurvey = "s1"

// writeUntilFold is the child: it writes responses from many goroutines, printing each
// acknowledged id, with a fold at every 3000 changes that stops, for ever, mid-way.
func writeUntilFold(t *testing.T, path string) {
	var once sync.Once
	hook := func() {
		once.Do(func() { fmt.Println("folding") })
		select {} // the parent kills the process here
	}
	s, err := Open(context.Background(), path, &Options{foldAt: 3000, foldEvery: -1, foldHook: hook})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if err := s.CreateTeam(ctx, store.Team{ID: "acme", Name: "Acme"}); err != nil {
		t.Fatal(err)
	}
	if err := s.CreateSurvey(ctx, store.Survey{ID: killSurvey, TeamID: "acme", Status: store.StatusActive, Definition: survey.Sample()}); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var wg sync.WaitGroup
	start := time.Date(2026, 11, 25, 9, 0, 0, 0, time.UTC)
	for g := range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; ; i++ {
				id := fmt.Sprintf("g%dr%d", g, i)
				a := survey.Answers{"nps": survey.Number((g + i) % 11), "missing": survey.Choices{"Speed"}}
				_, _, err := s.PutResponse(ctx, store.ResponseWrite{SurveyID: killSurvey, ID: id, Respondent: fmt.Sprint("u", i%7),
					Data: a, Finished: i%2 == 0, At: start.Add(time.Duration(g*1000+i) * 7 * time.Second)})
				if err != nil {
					return
				}
				mu.Lock()
				fmt.Println("acked " + id)
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
}

// checkCountsRecount compares the survey's counts of every key, over all time and over a range
// with edges inside minutes, with store.ResponseCounts of its stored responses.
func checkCountsRecount(t *testing.T, s *Store) {
	t.Helper()
	sv, err := s.surveyByID(t.Context(), killSurvey)
	if err != nil {
		t.Fatal(err)
	}
	def := sv.Definition
	def.Normalize()
	keys := []string{"nps", store.AnsweredKey, store.ReachedKey, store.FunnelKey, store.OptionKey("missing")}
	start := time.Date(2026, 11, 25, 9, 0, 0, 0, time.UTC)
	for _, r := range [][2]time.Time{{start.Add(-time.Hour), start.Add(48 * time.Hour)}, {start.Add(17 * time.Minute), start.Add(3*time.Hour + 41*time.Second)}} {
		want := map[string]map[int]int64{}
		for _, k := range keys {
			want[k] = map[int]int64{}
		}
		rows, err := s.rdb.Query(`SELECT data, finished, created_at FROM responses WHERE survey_id = ? AND created_at >= ? AND created_at < ?`,
			killSurvey, r[0].UnixMilli(), r[1].UnixMilli())
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for rows.Next() {
			var data []byte
			var finished bool
			var at int64
			if err := rows.Scan(&data, &finished, &at); err != nil {
				t.Fatal(err)
			}
			var a survey.Answers
			if err := a.UnmarshalJSON(data); err != nil {
				t.Fatal(err)
			}
			for _, c := range store.ResponseCounts(&def, a, finished) {
				want[c.Key][c.N]++
			}
			n++
		}
		rows.Close()
		got, err := s.Counts(t.Context(), killSurvey, keys, r[0], r[1])
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, got); diff != "" || n == 0 {
			t.Errorf("%v to %v, %d responses: counts (-recount +store):\n%s", r[0], r[1], n, diff)
		}
	}
}
