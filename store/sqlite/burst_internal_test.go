//go:build cgo

package sqlite

import (
	"database/sql"
	"fmt"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	sqlite3 "github.com/mattn/go-sqlite3"

	"github.com/svc-feedback/svc/store"
	"github.com/svc-feedback/svc/survey"
)

// answerReads counts the statements compiled on connections of the "sqlite3-answers" driver
// that read scores out of stored answers (json_extract): what a range's partial minutes cost.
var answerReads atomic.Int64

func init() {
	sql.Register("sqlite3-answers", &sqlite3.SQLiteDriver{ConnectHook: func(c *sqlite3.SQLiteConn) error {
		c.RegisterAuthorizer(func(action int, arg1, arg2, _ string) int {
			if action == sqlite3.SQLITE_FUNCTION && strings.EqualFold(arg2, "json_extract") {
				answerReads.Add(1)
			}
			return sqlite3.SQLITE_OK
		})
		return nil
	}})
}

// TestCountsAfterABurst: after a burst of responses within one minute, a range that
// reaches past the last response (to now) is counted from rollups alone. It used to
// stop at the last response, mid-minute, and read that minute's answers row by row: 637 ms for
// a minute of 178,762 responses. BenchmarkCountsShape measures both shapes of history.
func TestCountsAfterABurst(t *testing.T) {
	ctx := t.Context()
	s, err := Open(ctx, filepath.Join(t.TempDir(), "svc.db"), &Options{CacheTTL: -1, driverName: "sqlite3-answers"})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	now := time.Date(2026, 11, 24, 14, 42, 47, 653_000_000, time.UTC)
	if err := s.CreateTeam(ctx, store.Team{ID: "acme", Name: "Acme"}); err != nil {
		t.Fatal(err)
	}
	sv := store.Survey{ID: "s1", TeamID: "acme", Status: store.StatusActive, Definition: survey.Sample(), CreatedAt: now.AddDate(-1, 0, -1)}
	if err := s.CreateSurvey(ctx, sv); err != nil {
		t.Fatal(err)
	}
	put := func(i int, at time.Time) {
		w := store.ResponseWrite{SurveyID: sv.ID, ID: fmt.Sprintf("r%d", i), Respondent: "u", Data: survey.Answers{"nps": survey.Number(i % 11)},
			Metadata: map[string]string{}, At: at, Imported: true}
		if _, _, err := s.PutResponse(ctx, w); err != nil {
			t.Fatal(err)
		}
	}
	put(-1, now.AddDate(-1, 0, 0)) // history behind the burst
	const burst = 300
	want := map[int]int64{}
	for i := range burst {
		put(i, now.Add(-3*time.Minute+time.Duration(i)*100*time.Millisecond))
		want[i%11]++
	}
	answerReads.Store(0)
	// From a day's start (as custom ranges and quarters are) to now: no edge inside a minute
	// holds data, so none needs the answers.
	from := now.Truncate(24*time.Hour).AddDate(0, 0, -30)
	got, err := s.Counts(ctx, sv.ID, []string{"nps"}, from, now)
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(got["nps"]) != fmt.Sprint(want) {
		t.Errorf("counts = %v, want %v", got["nps"], want)
	}
	if n := answerReads.Load(); n != 0 {
		t.Errorf("counting a range past the last response read stored answers (%d statements); want rollups only", n)
	}
}
