package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/svc-feedback/svc/client"
	"github.com/svc-feedback/svc/store"
	"github.com/svc-feedback/svc/store/fixture"
	"github.com/svc-feedback/svc/store/sqlite"
	"github.com/svc-feedback/svc/survey"
)

// buildServer compiles this program once per test run.
func buildServer(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "server")
	out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// proc is a running server.
type proc struct {
	cmd    *exec.Cmd
	url    string
	stdout *strings.Builder
}

func startServer(t *testing.T, bin string, args ...string) *proc {
	t.Helper()
	cmd := exec.Command(bin, append([]string{"-addr", "127.0.0.1:0"}, args...)...)
	cmd.Env = append(os.Environ(), "SVC_ADDR=", "SVC_DB=", "SVC_ALLOW_PRIVATE_WEBHOOKS=")
	pipe, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = io.Discard
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p := &proc{cmd: cmd, stdout: &strings.Builder{}}
	sc := bufio.NewScanner(pipe)
	for sc.Scan() {
		line := sc.Text()
		p.stdout.WriteString(line + "\n")
		if addr, ok := strings.CutPrefix(line, "listening on "); ok {
			p.url = addr
			break
		}
	}
	if p.url == "" {
		_ = cmd.Process.Kill()
		t.Fatalf("the server did not print its address; stdout:\n%s", p.stdout)
	}
	go func() { _, _ = io.Copy(io.Discard, pipe) }()
	return p
}

func writeFixture(t *testing.T, hook string) (path, pk, sk, surveyID string) {
	t.Helper()
	pk, sk = store.NewKeyPlaintext(store.Publishable), store.NewKeyPlaintext(store.Secret)
	surveyID = store.NewSurveyID()
	def := survey.Sample()
	f := fixture.File{Teams: []fixture.Team{{ID: "acme", Name: "Acme", PublishableKeys: []string{pk}, SecretKeys: []string{sk},
		Surveys: []fixture.Survey{{ID: surveyID, Status: store.StatusActive, Definition: def, WebhookURL: hook}}}}}
	b, err := json.Marshal(f)
	if err != nil {
		t.Fatal(err)
	}
	path = filepath.Join(t.TempDir(), "fixture.json")
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	return path, pk, sk, surveyID
}

// TestCrashKeepsAcknowledgedResponses kills the server with SIGKILL in the middle of a load
// of PUTs, restarts it on the same file, and finds every response that got a 200 there, each
// with exactly one webhook delivery.
func TestCrashKeepsAcknowledgedResponses(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the server")
	}
	receiver := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	defer receiver.Close()
	bin := buildServer(t)
	db := filepath.Join(t.TempDir(), "svc.db")
	fixture, pk, sk, surveyID := writeFixture(t, receiver.URL)
	args := []string{"-db", db, "-seed", fixture, "-allow-private-webhooks"}
	p := startServer(t, bin, args...)

	pc, err := client.NewPublic(p.url, pk, client.WithRetryPolicy(0, 0, 0))
	if err != nil {
		t.Fatal(err)
	}
	var (
		mu     sync.Mutex
		acked  []string
		sent   atomic.Int64
		enough = make(chan struct{}) // closed at the 500th acknowledgement
	)
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	var wg sync.WaitGroup
	for w := range 32 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; ctx.Err() == nil; i++ {
				id := client.NewResponseID()
				sent.Add(1)
				in := &client.ResponseInput{Respondent: fmt.Sprint("w", w, "-", i), Data: survey.Answers{"nps": survey.Number(i % 11)}}
				if _, err := pc.PutResponse(ctx, surveyID, id, in); err == nil {
					mu.Lock()
					acked = append(acked, id)
					if len(acked) == 500 {
						close(enough)
					}
					mu.Unlock()
				}
			}
		}()
	}
	// Kill once a good number of writes have been acknowledged, while more are in flight.
	select {
	case <-enough:
	case <-time.After(60 * time.Second):
		t.Error("fewer than 500 writes acknowledged in 60 s; killing anyway")
	}
	if err := p.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = p.cmd.Wait()
	stop()
	wg.Wait()
	mu.Lock()
	ackedIDs := append([]string(nil), acked...)
	mu.Unlock()
	if len(ackedIDs) == 0 {
		t.Fatal("no write was acknowledged before the kill")
	}

	p = startServer(t, bin, args...)
	defer func() {
		_ = p.cmd.Process.Signal(syscall.SIGTERM)
		_ = p.cmd.Wait()
	}()
	c, err := client.New(p.url, sk)
	if err != nil {
		t.Fatal(err)
	}
	stored := map[string]bool{}
	for r, err := range c.Responses(t.Context(), surveyID, &client.ResponseListOptions{ListOptions: client.ListOptions{Limit: 100}}) {
		if err != nil {
			t.Fatal(err)
		}
		stored[r.ID] = true
	}
	for _, id := range ackedIDs {
		if !stored[id] {
			t.Errorf("response %s got a 200 before the kill but is gone after it", id)
		}
	}
	deliveries := map[string]int{}
	for d, err := range c.WebhookDeliveries(t.Context(), surveyID, &client.ListOptions{Limit: 100}) {
		if err != nil {
			t.Fatal(err)
		}
		deliveries[d.ResponseID]++
	}
	for id := range stored {
		if deliveries[id] != 1 {
			t.Errorf("response %s has %d deliveries, want 1", id, deliveries[id])
		}
	}
	if len(deliveries) != len(stored) {
		t.Errorf("%d responses with deliveries, %d responses", len(deliveries), len(stored))
	}
	t.Logf("%d PUTs sent, %d acknowledged before SIGKILL, %d stored after restart", sent.Load(), len(ackedIDs), len(stored))
}

// TestGracefulShutdown checks the demo start, the printed curl line, and exit status 0 after
// SIGTERM.
func TestGracefulShutdown(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the server")
	}
	bin := buildServer(t)
	p := startServer(t, bin, "-db", filepath.Join(t.TempDir(), "svc.db"))
	out := p.stdout.String()
	vars := map[string]string{}
	for _, line := range strings.Split(out, "\n") {
		if kv, ok := strings.CutPrefix(line, "export "); ok {
			k, v, _ := strings.Cut(kv, "=")
			vars[k] = v
		}
	}
	if vars["SVC_URL"] != p.url || !strings.HasPrefix(vars["SVC_PK"], "svc_pk_") || !strings.HasPrefix(vars["SVC_SK"], "svc_sk_") || vars["SVC_SURVEY"] == "" {
		t.Fatalf("demo output lacks the export lines:\n%s", out)
	}
	pc, err := client.NewPublic(p.url, vars["SVC_PK"])
	if err != nil {
		t.Fatal(err)
	}
	if def, err := pc.GetSurvey(t.Context(), vars["SVC_SURVEY"]); err != nil || len(def.Questions) != 7 {
		t.Fatalf("demo survey: %v, %v", def, err)
	}
	if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if err := p.cmd.Wait(); err != nil {
		t.Errorf("exit after SIGTERM: %v, want status 0", err)
	}
}

// TestSeedWithUnknownMembers: a fixture with members svc does not know still imports, and the
// server names them in a warning, since they are likely typos.
func TestSeedWithUnknownMembers(t *testing.T) {
	path, pk, _, surveyID := writeFixture(t, "")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	b = append([]byte(`{"generator": "another-tool", `), b[1:]...)
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	st, err := sqlite.Open(t.Context(), filepath.Join(t.TempDir(), "svc.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var logs strings.Builder
	if _, err := importFile(t.Context(), st, path, slog.New(slog.NewTextHandler(&logs, nil))); err != nil {
		t.Fatalf("import: %v", err)
	}
	if !strings.Contains(logs.String(), "level=WARN") || !strings.Contains(logs.String(), "members=[generator]") {
		t.Errorf("no warning naming the unknown member; logs:\n%s", logs.String())
	}
	if k, err := st.LookupKey(t.Context(), pk); err != nil || k.TeamID != "acme" {
		t.Errorf("key not imported: %+v, %v", k, err)
	}
	if _, err := st.Survey(t.Context(), "acme", surveyID); err != nil {
		t.Errorf("survey not imported: %v", err)
	}
}

// TestFixtureLoopbackWebhooks: a fixture whose webhook points at a loopback address gets its
// deliveries without -allow-private-webhooks, since the operator wrote the address; an explicit
// -allow-private-webhooks=false still refuses it.
func TestFixtureLoopbackWebhooks(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the server")
	}
	got := make(chan string, 10)
	receiver := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got <- r.Header.Get("X-Svc-Delivery")
	}))
	defer receiver.Close()
	bin := buildServer(t)
	fixture, pk, sk, surveyID := writeFixture(t, receiver.URL+"/hook")

	put := func(p *proc) {
		t.Helper()
		pc, err := client.NewPublic(p.url, pk)
		if err != nil {
			t.Fatal(err)
		}
		in := &client.ResponseInput{Respondent: "ann", Data: survey.Answers{"nps": survey.Number(9)}}
		if _, err := pc.PutResponse(t.Context(), surveyID, client.NewResponseID(), in); err != nil {
			t.Fatal(err)
		}
	}
	stop := func(p *proc) {
		_ = p.cmd.Process.Signal(syscall.SIGTERM)
		_ = p.cmd.Wait()
	}

	p := startServer(t, bin, "-db", filepath.Join(t.TempDir(), "svc.db"), "-seed", fixture)
	put(p)
	select {
	case <-got:
	case <-time.After(30 * time.Second):
		t.Error("no delivery reached the loopback receiver named in the fixture")
	}
	stop(p)

	p = startServer(t, bin, "-db", filepath.Join(t.TempDir(), "svc.db"), "-seed", fixture, "-allow-private-webhooks=false")
	defer stop(p)
	put(p)
	c, err := client.New(p.url, sk)
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		page, err := c.ListWebhookDeliveries(t.Context(), surveyID, nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(page.Data) == 1 && page.Data[0].State != "pending" && page.Data[0].State != "delivering" {
			if d := page.Data[0]; d.State != "failed" || d.LastError == nil || !strings.Contains(*d.LastError, "not public") {
				t.Errorf("delivery with -allow-private-webhooks=false: %+v, want failed as not public", d)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("delivery still pending after 30 s: %+v", page.Data)
		}
		time.Sleep(50 * time.Millisecond)
	}
	select {
	case id := <-got:
		t.Errorf("delivery %s reached the receiver despite -allow-private-webhooks=false", id)
	default:
	}
}

// TestParseFlags: how a fixture, an address and the webhook allowance are given.
func TestParseFlags(t *testing.T) {
	tests := []struct {
		name             string
		args             []string
		env              map[string]string
		seed, addr       string
		allowPrivateSet  bool
		wantErrSubstring string
	}{
		{name: "defaults", addr: "127.0.0.1:8080"},
		{name: "seed flag", args: []string{"-seed", "f.json"}, seed: "f.json", addr: "127.0.0.1:8080"},
		{name: "fixture named alone", args: []string{"f.json"}, seed: "f.json", addr: "127.0.0.1:8080"},
		{name: "fixture before flags", args: []string{"f.json", "-addr", "127.0.0.1:9000", "-allow-private-webhooks=false"},
			seed: "f.json", addr: "127.0.0.1:9000", allowPrivateSet: true},
		{name: "fixture between flags", args: []string{"-db", "x.db", "f.json", "-addr", ":9001"}, seed: "f.json", addr: ":9001"},
		{name: "PORT means every interface", env: map[string]string{"PORT": "9100"}, addr: ":9100"},
		{name: "SVC_ADDR over PORT", env: map[string]string{"PORT": "9100", "SVC_ADDR": "127.0.0.1:9200"}, addr: "127.0.0.1:9200"},
		{name: "flag over both", args: []string{"-addr", "127.0.0.1:9300"}, env: map[string]string{"PORT": "9100", "SVC_ADDR": "x"}, addr: "127.0.0.1:9300"},
		{name: "variable sets the allowance", env: map[string]string{"SVC_ALLOW_PRIVATE_WEBHOOKS": "false", "SVC_SEED": "f.json"},
			seed: "f.json", addr: "127.0.0.1:8080", allowPrivateSet: true},
		{name: "two fixtures", args: []string{"a.json", "b.json"}, wantErrSubstring: "unexpected arguments: a.json b.json"},
		{name: "fixture twice", args: []string{"-seed", "a.json", "b.json"}, wantErrSubstring: "unexpected arguments: b.json"},
		{name: "LISTEN URL for SQLite", args: []string{"-db-listen", "postgres://h/db"}, wantErrSubstring: "-db-listen is a postgres:// URL, for a -db that is one"},
		{name: "LISTEN URL not a URL", args: []string{"-db", "postgres://pooler/db", "-db-listen", "direct.db"}, wantErrSubstring: "-db-listen is a postgres:// URL"},
		{name: "replica for SQLite", args: []string{"-db-replica", "postgres://replica/db"}, wantErrSubstring: "-db-replica is a postgres:// URL, for a -db that is one"},
		{name: "LISTEN URL by variable", args: []string{"-db", "postgres://pooler/db"}, env: map[string]string{"SVC_DB_LISTEN": "postgres://direct/db"}, addr: "127.0.0.1:8080"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := parseFlags(tt.args, func(k string) string { return tt.env[k] }, io.Discard)
			if tt.wantErrSubstring != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErrSubstring) {
					t.Fatalf("err = %v, want one saying %q", err, tt.wantErrSubstring)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if want := tt.env["SVC_DB_LISTEN"]; c.dbListen != want {
				t.Errorf("LISTEN URL %q, want %q", c.dbListen, want)
			}
			if c.seed != tt.seed || c.addr != tt.addr || c.allowPrivateSet != tt.allowPrivateSet {
				t.Errorf("seed %q addr %q allowPrivateSet %v; want %q %q %v", c.seed, c.addr, c.allowPrivateSet, tt.seed, tt.addr, tt.allowPrivateSet)
			}
		})
	}
}

// TestShutdownCutsStalledUpload: SIGTERM while a client stalls halfway through a PUT body
// still stops the server within its grace period, with exit status 0.
func TestShutdownCutsStalledUpload(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the server")
	}
	bin := buildServer(t)
	p := startServer(t, bin, "-db", filepath.Join(t.TempDir(), "svc.db"), "-shutdown-timeout", "1s")
	vars := map[string]string{}
	for _, line := range strings.Split(p.stdout.String(), "\n") {
		if kv, ok := strings.CutPrefix(line, "export "); ok {
			k, v, _ := strings.Cut(kv, "=")
			vars[k] = v
		}
	}
	conn, err := net.Dial("tcp", strings.TrimPrefix(p.url, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	// Headers and the first bytes of a body declared far longer: the handler waits for the rest.
	if _, err := io.WriteString(conn, "PUT /v1/svc/"+vars["SVC_SURVEY"]+"/response/r1stalled000001 HTTP/1.1\r\nHost: x\r\n"+
		"x-svc-pk: "+vars["SVC_PK"]+"\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{\"respondent\":"); err != nil {
		t.Fatal(err)
	}
	time.Sleep(200 * time.Millisecond) // let the handler start reading the body
	start := time.Now()
	if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- p.cmd.Wait() }()
	select {
	case err := <-exited:
		t.Logf("exited %v after SIGTERM", time.Since(start))
		if err != nil {
			t.Errorf("exit after SIGTERM with a stalled upload: %v, want status 0", err)
		}
	case <-time.After(20 * time.Second):
		_ = p.cmd.Process.Kill()
		t.Fatal("the server had not exited 20 s after SIGTERM with a 1 s grace period")
	}
}

// TestSecondSignalStopsAtOnce: a second Ctrl-C does not wait for the grace period, here a
// minute held by a stalled upload.
func TestSecondSignalStopsAtOnce(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the server")
	}
	bin := buildServer(t)
	p := startServer(t, bin, "-db", filepath.Join(t.TempDir(), "svc.db"), "-shutdown-timeout", "60s")
	conn, err := net.Dial("tcp", strings.TrimPrefix(p.url, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := io.WriteString(conn, "PUT /v1/svc/x/response/y HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n\r\n{"); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- p.cmd.Wait() }()
	if err := p.cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	// Two signals sent at once arrive as one: the second goes once the first has closed the
	// listener, which is the shutdown under way.
	for deadline := time.Now().Add(10 * time.Second); ; {
		c, err := net.Dial("tcp", strings.TrimPrefix(p.url, "http://"))
		if err != nil {
			break
		}
		c.Close()
		if time.Now().After(deadline) {
			t.Fatal("the server still accepts connections 10 s after SIGINT")
		}
		runtime.Gosched()
	}
	if err := p.cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-exited:
		if err == nil {
			t.Error("the server exited 0 after a second signal cut it short, want a failure status")
		}
	case <-time.After(20 * time.Second):
		_ = p.cmd.Process.Kill()
		t.Fatal("the server had not exited 20 s after a second SIGINT (its grace period is 60 s)")
	}
}

// TestUncleanPathsAreNotRedirected: the server answers a path with a dot segment or a doubled
// slash itself, never with a redirect to the cleaned path, which Go's client would follow with
// the method and the key: an erasure once became the deletion of a survey that way.
func TestUncleanPathsAreNotRedirected(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the server")
	}
	bin := buildServer(t)
	p := startServer(t, bin, "-db", filepath.Join(t.TempDir(), "svc.db"), "-results", "demo")
	defer func() {
		_ = p.cmd.Process.Signal(syscall.SIGTERM)
		_ = p.cmd.Wait()
	}()
	vars := map[string]string{}
	for _, line := range strings.Split(p.stdout.String(), "\n") {
		if kv, ok := strings.CutPrefix(line, "export "); ok {
			k, v, _ := strings.Cut(kv, "=")
			vars[k] = v
		}
	}
	noFollow := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	for _, c := range []struct{ method, path, key string }{
		{"DELETE", "/v1/protected/respondents/../surveys/" + vars["SVC_SURVEY"], "Bearer " + vars["SVC_SK"]},
		{"DELETE", "//v1/protected/surveys/" + vars["SVC_SURVEY"], "Bearer " + vars["SVC_SK"]},
		{"GET", "/v1/svc/./" + vars["SVC_SURVEY"], ""},
		{"GET", "/results/../v1/openapi.json", ""},
		{"GET", "/results//surveys/" + vars["SVC_SURVEY"], ""},
	} {
		req, err := http.NewRequest(c.method, p.url+c.path, nil)
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Authorization", c.key)
		req.Header.Set("x-svc-pk", vars["SVC_PK"])
		resp, err := noFollow.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusNotFound && resp.StatusCode != http.StatusBadRequest {
			t.Errorf("%s %s = %d (Location %q), want 400 or 404", c.method, c.path, resp.StatusCode, resp.Header.Get("Location"))
		}
	}
	c, err := client.New(p.url, vars["SVC_SK"])
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.GetSurvey(t.Context(), vars["SVC_SURVEY"]); err != nil {
		t.Errorf("the demo survey after the unclean requests: %v", err)
	}
}

// TestProbesAndMetrics: the server answers the probes without a key and, with -metrics, serves
// Prometheus metrics at /metrics that count the requests it served.
func TestProbesAndMetrics(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the server")
	}
	bin := buildServer(t)
	p := startServer(t, bin, "-db", filepath.Join(t.TempDir(), "svc.db"), "-metrics")
	defer func() {
		_ = p.cmd.Process.Signal(syscall.SIGTERM)
		_ = p.cmd.Wait()
	}()
	get := func(path string) (int, string) {
		resp, err := http.Get(p.url + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	for _, path := range []string{"/healthz", "/readyz"} {
		if code, body := get(path); code != 200 || !strings.Contains(body, `"status"`) {
			t.Errorf("GET %s = %d %s", path, code, body)
		}
	}
	if code, _ := get("/v1/nothing"); code != 404 {
		t.Errorf("GET /v1/nothing beside /metrics = %d, want svc's 404", code)
	}
	code, body := get("/metrics")
	// The demo survey written at start went through the store's writer: its commits count.
	if code != 200 || !strings.Contains(body, `svc_http_requests_total{code="200",route="GET /healthz"} 1`) ||
		!regexp.MustCompile(`(?m)^svc_store_commit_writes_count [1-9]`).MatchString(body) {
		t.Errorf("GET /metrics = %d:\n%s", code, body)
	}
}

// The webhook lease comes from -webhook-lease or SVC_WEBHOOK_LEASE and reaches svc's options.
func TestWebhookLeaseFlag(t *testing.T) {
	for _, tc := range []struct {
		args []string
		env  map[string]string
		want time.Duration
	}{
		{nil, nil, 0},
		{[]string{"-webhook-lease", "45s"}, nil, 45 * time.Second},
		{nil, map[string]string{"SVC_WEBHOOK_LEASE": "1m"}, time.Minute},
	} {
		c, err := parseFlags(tc.args, func(k string) string { return tc.env[k] }, io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		if got := handlerOptions(c, nil, nil, false, nil).Webhooks.Lease; got != tc.want {
			t.Errorf("%v %v: lease %v, want %v", tc.args, tc.env, got, tc.want)
		}
	}
	if _, err := parseFlags(nil, func(k string) string { return map[string]string{"SVC_WEBHOOK_LEASE": "soon"}[k] }, io.Discard); err == nil {
		t.Error("SVC_WEBHOOK_LEASE=soon was accepted")
	}
}
