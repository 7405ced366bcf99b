package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/svc-feedback/svc/client"
	"github.com/svc-feedback/svc/store/postgres/pgtest"
	"github.com/svc-feedback/svc/survey"
)

// The server runs on PostgreSQL when -db is a postgres:// URL: the demo's keys and survey are
// made there, a response is stored and listed, and the key commands work on it too.
func TestServerOnPostgres(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the server")
	}
	db := pgtest.URL(t)
	bin := buildServer(t)
	// Behind a pooler (scripts/test runs this through PgBouncer too), LISTEN goes direct.
	p := startServer(t, bin, "-db", db, "-db-listen", pgtest.Direct(t, db))
	vars := map[string]string{}
	for _, line := range strings.Split(p.stdout.String(), "\n") {
		if kv, ok := strings.CutPrefix(line, "export "); ok {
			k, v, _ := strings.Cut(kv, "=")
			vars[k] = v
		}
	}
	ctx := t.Context()
	pc, err := client.NewPublic(p.url, vars["SVC_PK"])
	if err != nil {
		t.Fatal(err)
	}
	id := client.NewResponseID()
	if _, err := pc.PutResponse(ctx, vars["SVC_SURVEY"], id, &client.ResponseInput{Respondent: "ann", Data: nil, Metadata: map[string]string{}}); err != nil {
		t.Fatalf("PUT on PostgreSQL: %v", err)
	}
	c, err := client.New(p.url, vars["SVC_SK"])
	if err != nil {
		t.Fatal(err)
	}
	page, err := c.ListResponses(ctx, vars["SVC_SURVEY"], nil)
	if err != nil || len(page.Data) != 1 || page.Data[0].ID != id {
		t.Fatalf("responses on PostgreSQL: %+v, %v", page, err)
	}
	if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if err := p.cmd.Wait(); err != nil {
		t.Errorf("exit after SIGTERM: %v", err)
	}
	out, _, err := cmd(t, db, "key", "list", "-team", "demo")
	if err != nil || strings.Count(out, "\n") != 4 { // a header, the two keys printed and the demo page's
		t.Errorf("key list on PostgreSQL = %q, %v", out, err)
	}
}

// TestClusterSurvivesAKill runs three servers on one database under a load of PUTs spread over
// them, with the webhook receiver holding every attempt, and kills one server with SIGKILL while
// it holds claimed deliveries. Every acknowledged response is still delivered, once: the dead
// server's claims are sent by the others when its short lease (-webhook-lease) runs out.
func TestClusterSurvivesAKill(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the server")
	}
	rcv := newHoldingReceiver()
	receiver := httptest.NewServer(rcv)
	defer receiver.Close()
	db := pgtest.URL(t)
	bin := buildServer(t)
	fixture, pk, sk, surveyID := writeFixture(t, receiver.URL)
	args := []string{"-db", db, "-seed", fixture, "-allow-private-webhooks", "-webhook-lease", "6s"}
	var procs []*proc
	for range 3 {
		p := startServer(t, bin, args...)
		procs = append(procs, p)
		defer func() {
			_ = p.cmd.Process.Signal(syscall.SIGTERM)
			_ = p.cmd.Wait()
		}()
	}
	// Kill the first server mid-load, once every server's senders wait on the receiver (so the
	// first holds claimed deliveries), and let the receiver answer once the dead server's
	// attempts have been cut.
	load := make(chan []string)
	go func() { load <- putSpread(t, procs, pk, surveyID, 400) }()
	select {
	case <-rcv.full:
	case <-time.After(60 * time.Second):
		t.Fatal("the receiver never held an attempt of every server")
	}
	if err := procs[0].cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = procs[0].cmd.Wait()
	// 12 held attempts are 4 of each server: the killed server's 4 must be cut before the
	// receiver answers, or it would take attempts whose sender never hears back.
	rcv.releaseAfterCut(4, 3*time.Second)
	acked := <-load
	if n := rcv.cut.Load(); n != 4 {
		t.Fatalf("%d attempts of the killed server were cut, want the 4 it held", n)
	}

	c, err := client.New(procs[1].url, sk)
	if err != nil {
		t.Fatal(err)
	}
	// Wait until the receiver has every response and the servers have recorded it.
	deadline := time.Now().Add(90 * time.Second)
	for {
		states := deliveryStates(t, c, surveyID)
		done := rcv.gotAll(acked)
		for _, id := range acked {
			done = done && len(states[id]) == 1 && states[id][0] == "succeeded"
		}
		if done {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("after 90 s, %d of %d acknowledged responses delivered", rcv.count(acked), len(acked))
		}
		time.Sleep(200 * time.Millisecond) // waiting on other processes: there is no clock to inject
	}
	for _, id := range acked {
		if n := rcv.delivered(id); n != 1 {
			t.Errorf("response %s reached the receiver %d times, want 1", id, n)
		}
	}
	// Responses the dead server stored without answering count too: each once.
	for id, st := range deliveryStates(t, c, surveyID) {
		if len(st) != 1 {
			t.Errorf("response %s has deliveries %v, want one", id, st)
		}
	}
	t.Logf("%d responses acknowledged, %d attempts of the killed server cut", len(acked), rcv.cut.Load())
}

// deliveryStates lists the states of each response's deliveries.
func deliveryStates(t *testing.T, c *client.Client, surveyID string) map[string][]string {
	t.Helper()
	states := map[string][]string{}
	for d, err := range c.WebhookDeliveries(t.Context(), surveyID, &client.ListOptions{Limit: 100}) {
		if err != nil {
			t.Fatal(err)
		}
		states[d.ResponseID] = append(states[d.ResponseID], d.State)
	}
	return states
}

// putSpread PUTs n responses from 12 goroutines, in turn to each server, and returns the ids
// acknowledged with a 200. The first server may be killed meanwhile: its failures are expected.
func putSpread(t *testing.T, procs []*proc, pk, surveyID string, n int) []string {
	t.Helper()
	var (
		mu    sync.Mutex
		acked []string
		wg    sync.WaitGroup
		next  atomic.Int64
	)
	for range 12 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := next.Add(1); i <= int64(n); i = next.Add(1) {
				pc, err := client.NewPublic(procs[int(i)%len(procs)].url, pk, client.WithRetryPolicy(0, 0, 0))
				if err != nil {
					t.Error(err)
					return
				}
				id := client.NewResponseID()
				in := &client.ResponseInput{Respondent: fmt.Sprint("r", i), Data: survey.Answers{"nps": survey.Number(i % 11)}}
				if _, err := pc.PutResponse(t.Context(), surveyID, id, in); err != nil {
					if int(i)%len(procs) != 0 {
						t.Errorf("PUT %d to a live server: %v", i, err)
					}
					continue
				}
				mu.Lock()
				acked = append(acked, id)
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	return acked
}

// holdingReceiver is a webhook receiver that holds every attempt until released, counting the
// attempts whose sender went away meanwhile, then answers 200 and counts each response.
type holdingReceiver struct {
	// full is closed when 12 attempts are held: the 4 each of three servers may send at once
	// to one receiver (half of the 8 workers).
	full    chan struct{}
	held    atomic.Int64
	release chan struct{}
	cutOne  chan struct{}
	cut     atomic.Int64
	mu      sync.Mutex
	got     map[string]int
}

func newHoldingReceiver() *holdingReceiver {
	return &holdingReceiver{full: make(chan struct{}), release: make(chan struct{}), cutOne: make(chan struct{}, 1), got: map[string]int{}}
}

func (h *holdingReceiver) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var body struct {
		Data struct {
			Response struct {
				ID string `json:"id"`
			} `json:"response"`
		} `json:"data"`
	}
	if err := json.NewDecoder(r.Body).Decode(&body); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	if h.held.Add(1) == 12 {
		close(h.full)
	}
	select {
	case <-h.release:
		if r.Context().Err() != nil {
			return // the sender went away: it never hears this answer
		}
	case <-r.Context().Done():
		h.cut.Add(1)
		select {
		case h.cutOne <- struct{}{}:
		default:
		}
		return
	}
	h.mu.Lock()
	h.got[body.Data.Response.ID]++
	h.mu.Unlock()
}

// releaseAfterCut lets every held and later attempt through once n attempts have been cut, or
// after at most wait (shorter than an attempt's 5 s timeout, so that no live sender gives up).
func (h *holdingReceiver) releaseAfterCut(n int64, wait time.Duration) {
	deadline := time.After(wait)
	for h.cut.Load() < n {
		select {
		case <-h.cutOne:
		case <-deadline:
			close(h.release)
			return
		}
	}
	close(h.release)
}

func (h *holdingReceiver) delivered(id string) int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.got[id]
}

func (h *holdingReceiver) count(ids []string) int {
	n := 0
	for _, id := range ids {
		if h.delivered(id) > 0 {
			n++
		}
	}
	return n
}

func (h *holdingReceiver) gotAll(ids []string) bool { return h.count(ids) == len(ids) }
