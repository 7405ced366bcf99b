// Package killtest kills a store's writer with SIGKILL in the middle of a fold of its count log,
// and checks what it left: the backends' tests run it with a hook in their fold. The test
// binary runs itself as the child: Run starts it, the child Writes until the hook blocks,
// and Run kills it there.
package killtest

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/svc-feedback/svc/store"
	"github.com/svc-feedback/svc/survey"
)

// SurveyID is the survey the child writes to.
const SurveyID = "s1"

var start = time.Date(2026, 11, 25, 9, 0, 0, 0, time.UTC)

// Run runs the test named test again as a child process, with env set to value, reads the ids
// it prints as acknowledged until it prints that it is folding, kills it with SIGKILL there,
// and returns those ids.
func Run(t *testing.T, test, env, value string) []string {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^"+test+"$")
	cmd.Env = append(os.Environ(), env+"="+value)
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
	return acked
}

// Hook is the child's fold hook: it says the fold has begun, and blocks for ever.
func Hook() func() {
	var once sync.Once
	return func() {
		once.Do(func() { fmt.Println("folding") })
		select {} // the parent kills the process here
	}
}

// Write is the child's work: it writes responses to SurveyID from many goroutines, printing
// each acknowledged id, until the writes fail or the process is killed.
func Write(t *testing.T, s store.Store) {
	ctx := context.Background()
	if err := s.CreateTeam(ctx, store.Team{ID: "acme", Name: "Acme"}); err != nil {
		t.Fatal(err)
	}
	if err := s.CreateSurvey(ctx, store.Survey{ID: SurveyID, TeamID: "acme", Status: store.StatusActive, Definition: survey.Sample()}); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var wg sync.WaitGroup
	for g := range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; ; i++ {
				id := fmt.Sprintf("g%dr%d", g, i)
				a := survey.Answers{"nps": survey.Number((g + i) % 11), "missing": survey.Choices{"Speed"}}
				_, _, err := s.PutResponse(ctx, store.ResponseWrite{SurveyID: SurveyID, ID: id, Respondent: fmt.Sprint("u", i%7),
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

// Check finds every acknowledged response in s, and the counts of every key of SurveyID, over
// all time and over a range with edges inside minutes, equal to store.ResponseCounts of its
// stored responses.
func Check(t *testing.T, s store.Store, acked []string) {
	t.Helper()
	ctx := t.Context()
	for _, id := range acked {
		if _, err := s.Response(ctx, SurveyID, id); err != nil {
			t.Fatalf("acknowledged response %s: %v", id, err)
		}
	}
	sv, err := s.Survey(ctx, "acme", SurveyID)
	if err != nil {
		t.Fatal(err)
	}
	def := sv.Definition
	def.Normalize()
	var stored []store.Response
	q := store.ResponseQuery{SurveyID: SurveyID, Limit: 100}
	for {
		page, next, err := s.Responses(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		stored = append(stored, page...)
		if next == nil {
			break
		}
		q.Cursor = next
	}
	keys := []string{"nps", store.AnsweredKey, store.ReachedKey, store.FunnelKey, store.OptionKey("missing")}
	for _, r := range [][2]time.Time{{start.Add(-time.Hour), start.Add(48 * time.Hour)}, {start.Add(17 * time.Minute), start.Add(3*time.Hour + 41*time.Second)}} {
		want := map[string]map[int]int64{}
		for _, k := range keys {
			want[k] = map[int]int64{}
		}
		n := 0
		for _, resp := range stored {
			if resp.CreatedAt.Before(r[0]) || !resp.CreatedAt.Before(r[1]) {
				continue
			}
			var a survey.Answers
			if err := a.UnmarshalJSON(resp.Data); err != nil {
				t.Fatal(err)
			}
			for _, c := range store.ResponseCounts(&def, a, resp.Finished) {
				want[c.Key][c.N]++
			}
			n++
		}
		got, err := s.Counts(ctx, SurveyID, keys, r[0], r[1])
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, got); diff != "" || n == 0 {
			t.Errorf("%v to %v, %d responses: counts (-recount +store):\n%s", r[0], r[1], n, diff)
		}
	}
}
