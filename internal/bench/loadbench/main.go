// Command loadbench measures svc under load against a baseline, in one run:
//
//	go run ./internal/bench/loadbench
//
// It prepares an SQLite file holding a survey with -rows responses (seeded once, then reused)
// and an empty survey for the load's writes (emptied again at the start of every run). It
// starts two servers as child processes on loopback: svc (the real handler over that file,
// synchronous=FULL) and a baseline handler that only decodes and encodes the same JSON with no
// storage. It then drives both with the same Go load generator at -conns connections (see load),
// each scenario for -duration in -rounds slices that take turns with its baseline's (see
// interleave), and prints, per scenario, requests/s, p50/p99 latency, errors, the ratio to the
// baseline, the server's CPU time per request (also as a ratio) and the load generator's, and
// the svc server's peak memory. The svc server runs as shipped: its access log on (-access-log),
// buffered to a file in the temporary directory.
//
// With -webhooks N it measures instead how fast svc's sender drains a burst of N deliveries to one
// fast receiver, against raw POST loops to it (see runWebhooks).
//
// With a postgres:// -db it runs svc on PostgreSQL instead (seeding the database once; a
// database holding the benchmark survey at another -rows is refused, never dropped), on
// -instances servers sharing it, the load's connections spread over them; the PUT's baseline is
// then a raw pgx INSERT loop of the same row at the same concurrency, in this process:
//
//	go run ./internal/bench/loadbench -db postgres://... -rows 10000 -instances 3
package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

func main() {
	serve := flag.String("serve", "", "internal: run as the svc or baseline server")
	db := flag.String("db", "", "SQLite file, or postgres:// URL, of the benchmark survey (default svc-bench-<rows>.db in the temp folder)")
	rows := flag.Int("rows", 1_000_000, "responses (and events) of the benchmark survey")
	conns := flag.Int("conns", 64, "concurrent connections")
	duration := flag.Duration("duration", 10*time.Second, "length of each scenario")
	rounds := flag.Int("rounds", 5, "slices each scenario runs in, taking turns with its baseline's")
	sync := flag.String("sync", "FULL", "SQLite synchronous level of the svc server: FULL (durable on power loss) or NORMAL")
	only := flag.String("only", "", "run only the scenarios whose name contains this text (and their baselines)")
	instances := flag.Int("instances", 1, "svc servers sharing the database (more than one needs a PostgreSQL -db)")
	accessLog := flag.Bool("access-log", true, "let the svc server log every request, buffered, to a file, as examples/server does")
	accessLogFile := flag.String("access-log-file", "", "internal: the svc server's access log")
	webhooks := flag.Int("webhooks", 0, "instead of the scenarios: drain this many webhook deliveries to one fast receiver, against raw POSTs (a fresh SQLite file, or the PostgreSQL -db)")
	flag.Parse()
	log.SetFlags(0)
	if *db == "" {
		// A file per size: the survey is seeded again whenever the file holds another size, and
		// seeding 1,000,000 responses takes minutes.
		*db = defaultDB(os.TempDir(), *rows)
	}
	var err error
	switch *serve {
	case "svc":
		err = serveSvc(*db, *sync, *accessLogFile)
	case "baseline":
		err = serveBaseline()
	case "":
		if *webhooks > 0 {
			err = runWebhooks(*db, *webhooks, *rounds)
			break
		}
		err = run(config{db: *db, rows: *rows, conns: *conns, rounds: *rounds, instances: *instances, d: *duration, sync: *sync, only: *only,
			accessLog: *accessLog})
	default:
		err = fmt.Errorf("unknown -serve %q", *serve)
	}
	if err != nil {
		log.Fatal(err)
	}
}

// defaultDB is the SQLite file of the benchmark survey of rows responses, in dir.
func defaultDB(dir string, rows int) string {
	return filepath.Join(dir, fmt.Sprintf("svc-bench-%d.db", rows))
}

// listen serves h on a free loopback port, printing the address for the parent.
func listen(h http.Handler) error {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	fmt.Printf("listening on %s\n", ln.Addr())
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	go func() {
		// The parent closes our stdin when it is done.
		_, _ = io.Copy(io.Discard, os.Stdin)
		_ = srv.Close()
	}()
	if err := srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// child is a server process started by the parent.
type child struct {
	cmd   *exec.Cmd
	stdin io.WriteCloser
	addr  string
}

func startChild(args ...string) (*child, error) {
	self, err := os.Executable()
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(self, args...)
	cmd.Stderr = os.Stderr
	cmd.Env = serverEnv(os.Environ())
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		_ = cmd.Process.Kill()
		return nil, fmt.Errorf("start %v: %w", args, err)
	}
	return &child{cmd: cmd, stdin: stdin, addr: "http://" + strings.TrimSpace(strings.TrimPrefix(line, "listening on "))}, nil
}

func (c *child) stop() {
	_ = c.stdin.Close()
	done := make(chan struct{})
	go func() { _ = c.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		_ = c.cmd.Process.Kill()
	}
}

// peakRSS reads a process's peak resident memory (VmHWM) in bytes.
func peakRSS(pid int) (int64, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, err
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			var kb int64
			if _, err := fmt.Sscanf(strings.TrimSpace(rest), "%d kB", &kb); err != nil {
				return 0, err
			}
			return kb * 1024, nil
		}
	}
	return 0, errors.New("no VmHWM")
}

// cpuTime reads the CPU time (user and system) a process has used so far, from /proc.
func cpuTime(pid int) (time.Duration, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, err
	}
	// The command name (field 2) may hold spaces; the fields after it are numbers.
	i := strings.LastIndexByte(string(b), ')')
	if i < 0 {
		return 0, errors.New("malformed /proc stat")
	}
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 13 {
		return 0, errors.New("short /proc stat")
	}
	var ticks int64
	for _, s := range f[11:13] { // utime and stime, fields 14 and 15
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return 0, err
		}
		ticks += n
	}
	// Linux reports these in USER_HZ, 100 per second on every platform Go supports.
	return time.Duration(ticks) * 10 * time.Millisecond, nil
}

// result is one scenario's measurement.
type result struct {
	requests, errors int64
	// inWindow counts the requests answered within elapsed, the scenario's window: the
	// throughput. Requests still running at the window's end are measured, but not counted in
	// it: waiting for the slowest of them would count a tail with ever fewer connections busy,
	// which is up to a few percent of a 2 s slice and costs the slower side more.
	inWindow  int64
	elapsed   time.Duration
	latencies []time.Duration
	// cpu and genCPU are the CPU time the server process and the load generator used during
	// the scenario.
	cpu, genCPU time.Duration
}

// cpuPerRequest is the server's CPU time per request: unlike requests/s, it hardly depends on
// how much of the shared machine the load generator and other tenants take.
func (r result) cpuPerRequest() time.Duration { return r.perRequest(r.cpu) }

func (r result) perRequest(d time.Duration) time.Duration {
	if r.requests == 0 {
		return 0
	}
	return d / time.Duration(r.requests)
}

// add folds another slice of the same scenario into r.
func (r *result) add(o result) {
	r.requests += o.requests
	r.inWindow += o.inWindow
	r.errors += o.errors
	r.elapsed += o.elapsed
	r.cpu += o.cpu
	r.genCPU += o.genCPU
	r.latencies = append(r.latencies, o.latencies...)
	slices.Sort(r.latencies)
}

func (r result) rps() float64 { return float64(r.inWindow) / r.elapsed.Seconds() }

func (r result) pct(p float64) time.Duration {
	if len(r.latencies) == 0 {
		return 0
	}
	return r.latencies[min(len(r.latencies)-1, int(p*float64(len(r.latencies))))]
}

// load sends requests made by next over conns keep-alive connections, spread over addrs in
// turn, for d, one request at a time on each, and measures them. Each connection is a plain
// TCP connection that writes requests with http.Request.Write and reads answers with
// http.ReadResponse: the same wire format as http.Client, without the Transport's connection
// pool and its two goroutines per connection, whose cost (about the baseline server's own per
// request) took CPU from the server being measured on this shared 2-core machine.
func load(addrs []string, conns int, d time.Duration, next func(seq int64) (*http.Request, error)) result {
	lc := make([]*loadConn, conns)
	defer func() {
		for _, c := range lc {
			c.close()
		}
	}()
	return measure(conns, d, func(c int, seq int64) error {
		req, err := next(seq)
		if err != nil {
			return err
		}
		if lc[c] == nil {
			if lc[c], err = dial(addrs[c%len(addrs)]); err != nil {
				return err
			}
		}
		if err := lc[c].do(req); err != nil {
			lc[c].close()
			lc[c] = nil
			return err
		}
		return nil
	})
}

// measure runs work on workers goroutines for d, one call at a time on each, and measures the
// calls. work's c is the worker's number and seq the call's, unique in the run.
func measure(workers int, d time.Duration, work func(c int, seq int64) error) result {
	var seq, errs, total, inWindow atomic.Int64
	lat := make([][]time.Duration, workers)
	deadline := time.Now().Add(d)
	var wg sync.WaitGroup
	for c := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for time.Now().Before(deadline) {
				t0 := time.Now()
				err := work(c, seq.Add(1))
				done := time.Now()
				lat[c] = append(lat[c], done.Sub(t0))
				total.Add(1)
				if !done.After(deadline) {
					inWindow.Add(1)
				}
				if err != nil {
					errs.Add(1)
				}
			}
		}()
	}
	wg.Wait()
	r := result{requests: total.Load(), inWindow: inWindow.Load(), errors: errs.Load(), elapsed: d}
	for _, l := range lat {
		r.latencies = append(r.latencies, l...)
	}
	slices.Sort(r.latencies)
	return r
}

// loadConn is one keep-alive connection of the load generator.
type loadConn struct {
	c  net.Conn
	br *bufio.Reader
	bw *bufio.Writer
}

func dial(addr string) (*loadConn, error) {
	c, err := net.Dial("tcp", addr)
	if err != nil {
		return nil, err
	}
	return &loadConn{c: c, br: bufio.NewReader(c), bw: bufio.NewWriter(c)}, nil
}

// requestTimeout bounds one request, so that a server that stops answering fails the run's
// requests rather than hanging it.
const requestTimeout = 30 * time.Second

// do sends req and reads its whole answer. An error status is an error, and so is an answer
// that closes the connection, which the caller then dials again.
func (l *loadConn) do(req *http.Request) error {
	if err := l.c.SetDeadline(time.Now().Add(requestTimeout)); err != nil {
		return err
	}
	if err := req.Write(l.bw); err != nil {
		return err
	}
	if err := l.bw.Flush(); err != nil {
		return err
	}
	resp, err := http.ReadResponse(l.br, req)
	if err != nil {
		return err
	}
	_, err = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	switch {
	case err != nil:
		return err
	case resp.StatusCode >= 400:
		return fmt.Errorf("status %d", resp.StatusCode)
	case resp.Close:
		return errors.New("the server closed the connection")
	}
	return nil
}

func (l *loadConn) close() {
	if l != nil {
		l.c.Close()
	}
}

// serverEnv gives both servers the example server's collector settings (examples/server/gc.go),
// so the benchmark compares like with like, unless the operator set GOGC or GOMEMLIMIT.
func serverEnv(env []string) []string {
	set := func(name string) bool {
		return slices.ContainsFunc(env, func(kv string) bool { return strings.HasPrefix(kv, name+"=") })
	}
	if !set("GOGC") {
		env = append(env, "GOGC=400")
	}
	if !set("GOMEMLIMIT") {
		env = append(env, "GOMEMLIMIT=512MiB")
	}
	return env
}
