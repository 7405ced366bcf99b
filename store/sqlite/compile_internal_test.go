//go:build cgo

package sqlite

import (
	"database/sql"
	"fmt"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	sqlite3 "github.com/mattn/go-sqlite3"

	"github.com/svc-feedback/svc/store"
	"github.com/svc-feedback/svc/survey"
)

// compiles counts the statements SQLite compiles on connections of the "sqlite3-compiles"
// driver: the authorizer runs while a statement is being compiled, and again whenever SQLite
// recompiles it. Transactions, savepoints and pragmas are left out (the driver runs BEGIN and
// COMMIT without its statement cache).
var compiles atomic.Int64

func init() {
	sql.Register("sqlite3-compiles", &sqlite3.SQLiteDriver{ConnectHook: func(c *sqlite3.SQLiteConn) error {
		c.RegisterAuthorizer(func(action int, _, _, _ string) int {
			switch action {
			case sqlite3.SQLITE_TRANSACTION, sqlite3.SQLITE_SAVEPOINT, sqlite3.SQLITE_PRAGMA:
			default:
				compiles.Add(1)
			}
			return sqlite3.SQLITE_OK
		})
		return nil
	}})
}

// TestStatementsCompileOnce runs each of the store's operations again and again, with new
// values each time, and checks that SQLite does not compile their statements again: each
// connection keeps its statements prepared, and a statement recompiled on every run costs
// more than running it (about half of an empty page of responses). SQLite recompiles a
// statement when it has marked a parameter as one whose value may change the plan (a bare
// parameter compared with =, or a LIMIT), because the driver clears the bindings of every
// statement it reuses.
func TestStatementsCompileOnce(t *testing.T) {
	ctx := t.Context()
	// One connection of each kind, no checkpointer and no read cache, so that every call runs
	// its statements on a connection that has run them before.
	s, err := Open(ctx, filepath.Join(t.TempDir(), "svc.db"), &Options{ReadConns: 1, CacheTTL: -1,
		checkpointEvery: -1, driverName: "sqlite3-compiles"})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	t0 := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	if err := s.CreateTeam(ctx, store.Team{ID: "acme", Name: "Acme", CreatedAt: t0}); err != nil {
		t.Fatal(err)
	}
	const pk = "svc_pk_0123456789abcdefghijklmnopqrstuv"
	if err := s.AddKey(ctx, store.NewKey("acme", store.Publishable, pk, t0), pk); err != nil {
		t.Fatal(err)
	}
	revoked := store.NewKey("acme", store.Secret, "svc_sk_0123456789abcdefghijklmnopqrstuv", t0)
	if err := s.AddKey(ctx, revoked, "svc_sk_0123456789abcdefghijklmnopqrstuv"); err != nil {
		t.Fatal(err)
	}
	sv := store.Survey{ID: "s1", TeamID: "acme", Status: store.StatusActive, Definition: survey.Sample(),
		WebhookURL: "http://127.0.0.1:9/hook", WebhookSecret: "whsec_test", CreatedAt: t0, UpdatedAt: t0}
	if err := s.CreateSurvey(ctx, sv); err != nil {
		t.Fatal(err)
	}
	at := func(i int) time.Time { return t0.Add(time.Duration(i) * time.Minute) }
	put := func(id string, i int) error {
		_, _, err := s.PutResponse(ctx, store.ResponseWrite{SurveyID: sv.ID, ID: id, Respondent: fmt.Sprintf("u%d", i%3),
			Data: survey.Answers{"nps": survey.Number(i % 11), "stars": survey.Number(i%5 + 1)}, Metadata: map[string]string{"page": "/"}, At: at(i)})
		return err
	}
	for i := range 20 {
		if err := put(fmt.Sprintf("seed%02d", i), i); err != nil {
			t.Fatal(err)
		}
	}
	page := func(q store.ResponseQuery) error {
		q.SurveyID = sv.ID
		_, _, err := s.Responses(ctx, q)
		return err
	}
	for _, c := range []struct {
		name string
		run  func(i int) error
	}{
		{"PutResponse, new", func(i int) error { return put(fmt.Sprintf("new%02d", i), i) }},
		{"PutResponse, update", func(i int) error { return put("seed00", 3*i) }},
		{"RecordEvent", func(i int) error {
			return s.RecordEvent(ctx, store.Event{SurveyID: sv.ID, Respondent: fmt.Sprintf("v%d", i), Type: store.EventView, At: at(i)})
		}},
		{"Responses, first page", func(i int) error { return page(store.ResponseQuery{Limit: 1 + i%5}) }},
		{"Responses, next page", func(i int) error {
			return page(store.ResponseQuery{Limit: 5, Cursor: &store.Cursor{CreatedAt: at(10 + i), ID: "seed10"}})
		}},
		{"Responses, filtered", func(i int) error {
			return page(store.ResponseQuery{Limit: 5, Respondent: fmt.Sprintf("u%d", i%3), After: at(i), Before: at(30 + i)})
		}},
		{"Responses, narrowed", func(i int) error {
			done := i%2 == 0
			return page(store.ResponseQuery{Limit: 5, Oldest: true, Narrow: &store.Narrowing{Finished: &done,
				Scores:  []store.ScoreBound{{QuestionID: "nps", Min: float64(i % 4), Max: 10}},
				Choices: []store.ChoiceTerm{{QuestionID: "missing", Values: []string{fmt.Sprint(i), "Docs"}}}}})
		}},
		{"Response", func(i int) error { _, err := s.Response(ctx, sv.ID, fmt.Sprintf("seed%02d", i)); return err }},
		{"History", func(i int) error { _, err := s.History(ctx, sv.ID, fmt.Sprintf("u%d", i%3)); return err }},
		{"Stats", func(int) error { _, err := s.Stats(ctx, sv.ID); return err }},
		{"Counts", func(i int) error {
			// The range decides which rollups the counts read: the same ten ranges in both rounds.
			_, err := s.Counts(ctx, sv.ID, []string{"nps", "stars"}, at(i%10), at(100+i%10))
			return err
		}},
		{"Survey", func(int) error { _, err := s.Survey(ctx, "acme", sv.ID); return err }},
		{"Surveys", func(i int) error { _, _, err := s.Surveys(ctx, "acme", nil, 1+i%3); return err }},
		{"Person", func(i int) error {
			_, err := s.Person(ctx, "acme", fmt.Sprintf("u%d", i%3), []string{sv.ID, fmt.Sprintf("other%d", i)})
			return err
		}},
		{"Responded", func(i int) error { _, err := s.Responded(ctx, sv.ID, fmt.Sprintf("u%d", i%4)); return err }},
		{"ActiveRules", func(int) error { _, err := s.ActiveRules(ctx, "acme"); return err }},
		{"Settings", func(int) error { _, err := s.Settings(ctx, "acme"); return err }},
		{"LookupKey", func(int) error { _, err := s.LookupKey(ctx, pk); return err }},
		{"Keys", func(int) error { _, err := s.Keys(ctx, "acme"); return err }},
		{"Team", func(int) error { _, err := s.Team(ctx, "acme"); return err }},
		{"RevokeKey", func(i int) error { return s.RevokeKey(ctx, "acme", revoked.ID, at(i)) }},
		{"CreateSurvey", func(i int) error {
			n := sv
			n.ID = fmt.Sprintf("extra%02d", i)
			return s.CreateSurvey(ctx, n)
		}},
		{"UpdateSurvey", func(i int) error {
			sv.UpdatedAt = at(i)
			return s.UpdateSurvey(ctx, sv)
		}},
		{"Deliveries", func(i int) error { _, _, err := s.Deliveries(ctx, sv.ID, nil, 1+i%3); return err }},
		{"ClaimDeliveries", func(i int) error {
			claimed, err := s.ClaimDeliveries(ctx, at(i), time.Minute, 1+i%2)
			for _, d := range claimed {
				if err == nil {
					err = s.FinishDelivery(ctx, store.DeliveryResult{ID: d.ID, State: store.DeliveryPending, Attempts: 1,
						LastStatus: 503, At: at(i), NextAttemptAt: at(i)})
				}
			}
			return err
		}},
		{"Redeliver", func(i int) error {
			ds, _, err := s.Deliveries(ctx, sv.ID, nil, 1)
			if err == nil {
				_, err = s.Redeliver(ctx, sv.ID, ds[0].ID, at(i))
			}
			return err
		}},
	} {
		// The first round compiles; the second, with other values, must reuse.
		for i := range 10 {
			if err := c.run(i); err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
		}
		before := compiles.Load()
		for i := 10; i < 20; i++ {
			if err := c.run(i); err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
		}
		if n := compiles.Load() - before; n != 0 {
			t.Errorf("%s: %d authorizer calls in 10 runs: SQLite compiled statements again", c.name, n)
		}
	}
}
