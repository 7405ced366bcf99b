package postgres

import (
	"context"
	"net"
	"net/url"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/svc-feedback/svc/store"
	"github.com/svc-feedback/svc/store/postgres/pgtest"
	"github.com/svc-feedback/svc/survey"
)

// replicaURLs are the primary's and the standby's URLs of the topology scripts/pgfailover
// starts (its multi-host URL in SVC_TEST_FAILOVER), or a skip without one.
func replicaURLs(t *testing.T) (primary, standby string) {
	multi := os.Getenv("SVC_TEST_FAILOVER")
	if multi == "" {
		t.Skip("SVC_TEST_FAILOVER is not set: scripts/test starts a primary and a streaming standby and runs this")
	}
	u, err := url.Parse(multi)
	if err != nil {
		t.Fatal(err)
	}
	hosts := strings.Split(u.Host, ",")
	one := func(host string) string {
		v := *u
		v.Host = host
		q := v.Query()
		q.Del("target_session_attrs")
		v.RawQuery = q.Encode()
		return v.String()
	}
	// A schema of its own, made on the primary and replayed on the standby.
	schema := pgtest.Schema(t, one(hosts[0]))
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	return one(hosts[0]), one(hosts[1])
}

// TestReplicaReads (docs/scaling.md#with-a-read-replica): lists, stats and counts read from the replica
// once it has replayed this instance's last write of the survey, and from the primary before;
// a replica whose replay stops is bypassed once it lags more than ReplicaMaxLag, so another
// instance's write is seen; and one that cannot be reached is bypassed.
func TestReplicaReads(t *testing.T) {
	primaryURL, standbyURL := replicaURLs(t)
	ctx := t.Context()
	s, sv := openAt(t, primaryURL, store.NewSurveyID(), &Options{ReplicaURL: standbyURL, ReplicaMaxLag: 500 * time.Millisecond})
	other, err := Open(ctx, primaryURL, nil) // another instance, which writes without telling s
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	standby, err := pgx.Connect(ctx, standbyURL)
	if err != nil {
		t.Fatal(err)
	}
	defer standby.Close(context.Background())
	t.Cleanup(func() { _, _ = standby.Exec(context.Background(), `SELECT pg_wal_replay_resume()`) })

	put := func(st *Store, id string) {
		t.Helper()
		if _, _, err := st.PutResponse(ctx, store.ResponseWrite{SurveyID: sv.ID, ID: id, Respondent: id, Data: survey.Answers{"nps": survey.Number(7)}, At: t0}); err != nil {
			t.Fatal(err)
		}
	}
	// lists reads the survey's responses and says whether the replica served the read.
	lists := func(want ...string) bool {
		t.Helper()
		before := s.replica.reads.Load()
		page, _, err := s.Responses(ctx, store.ResponseQuery{SurveyID: sv.ID, Limit: 100})
		if err != nil {
			t.Fatal(err)
		}
		for _, id := range want {
			if !slices.ContainsFunc(page, func(r store.Response) bool { return r.ID == id }) {
				t.Fatalf("the list lacks %s: %d responses", id, len(page))
			}
		}
		return s.replica.reads.Load() > before
	}
	until := func(what string, cond func() bool) {
		t.Helper()
		for deadline := time.Now().Add(10 * time.Second); !cond(); time.Sleep(20 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("after 10 s: %s", what)
			}
		}
	}

	put(s, "mine1")
	if lists("mine1") {
		t.Error("the list right after this instance's write was read from the replica")
	}
	until("the replica serves the survey's reads", func() bool { return s.replica.pick(sv.ID) != nil })
	if !lists("mine1") {
		t.Error("the list, the write replayed, was not read from the replica")
	}
	if st, err := s.Stats(ctx, sv.ID); err != nil || st.TotalResponses != 1 {
		t.Errorf("stats from the replica: %+v, %v", st, err)
	}

	if _, err := standby.Exec(ctx, `SELECT pg_wal_replay_pause()`); err != nil {
		t.Fatal(err)
	}
	put(other, "theirs1")
	until("the paused replica is bypassed", func() bool { return s.replica.pick(sv.ID) == nil })
	if lists("theirs1") {
		t.Error("the list was read from a replica that lags")
	}
	if _, err := standby.Exec(ctx, `SELECT pg_wal_replay_resume()`); err != nil {
		t.Fatal(err)
	}
	until("the resumed replica serves again", func() bool { return s.replica.pick(sv.ID) != nil })
	if !lists("mine1", "theirs1") {
		t.Error("the list, the replica caught up, was not read from it")
	}

	closed, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	down := strings.Replace(standbyURL, strings.Split(strings.TrimPrefix(standbyURL, "postgres://postgres@"), "/")[0], closed.Addr().String(), 1)
	closed.Close()
	alone, err := Open(ctx, primaryURL, &Options{ReplicaURL: down})
	if err != nil {
		t.Fatalf("open with a replica that is down: %v", err)
	}
	defer alone.Close()
	if page, _, err := alone.Responses(ctx, store.ResponseQuery{SurveyID: sv.ID, Limit: 100}); err != nil || len(page) != 2 {
		t.Errorf("with the replica down: %d responses, %v", len(page), err)
	}
}
