// Command loadbench measures svc under load against a baseline, in one run:
//
//	go run ./internal/loadbench
//
// It prepares an SQLite file holding a survey with -rows responses (seeded once, then reused),
// starts two servers as child processes on loopback: svc (the real handler over that file,
// synchronous=FULL) and a baseline handler that only decodes and encodes the same JSON with no
// storage. It then drives both with the same Go load generator at -conns connections and prints,
// per scenario, requests/s, p50/p99 latency, errors, the ratio to the baseline and the server's CPU
// time per request (also as a ratio), and the svc server's peak memory.
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
	db := flag.String("db", filepath.Join(os.TempDir(), "svc-bench-1000000.db"), "SQLite file of the benchmark survey")
	rows := flag.Int("rows", 1_000_000, "responses (and events) of the benchmark survey")
	conns := flag.Int("conns", 64, "concurrent connections")
	duration := flag.Duration("duration", 10*time.Second, "length of each scenario")
	sync := flag.String("sync", "FULL", "SQLite synchronous level of the svc server: FULL (durable on power loss) or NORMAL")
	only := flag.String("only", "", "run only the scenarios whose name contains this text (and their baselines)")
	flag.Parse()
	log.SetFlags(0)
	var err error
	switch *serve {
	case "svc":
		err = serveSvc(*db, *sync)
	case "baseline":
		err = serveBaseline()
	case "":
		err = run(*db, *rows, *conns, *duration, *sync, *only)
	default:
		err = fmt.Errorf("unknown -serve %q", *serve)
	}
	if err != nil {
		log.Fatal(err)
	}
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
	elapsed          time.Duration
	latencies        []time.Duration
	// cpu is the CPU time the server process used during the scenario.
	cpu time.Duration
}

// cpuPerRequest is the server's CPU time per request: unlike requests/s, it hardly depends on
// how much of the shared machine the load generator and other tenants take.
func (r result) cpuPerRequest() time.Duration {
	if r.requests == 0 {
		return 0
	}
	return r.cpu / time.Duration(r.requests)
}

func (r result) rps() float64 { return float64(r.requests) / r.elapsed.Seconds() }

func (r result) pct(p float64) time.Duration {
	if len(r.latencies) == 0 {
		return 0
	}
	return r.latencies[min(len(r.latencies)-1, int(p*float64(len(r.latencies))))]
}

// load sends requests made by next from conns goroutines for d, and measures them.
func load(client *http.Client, conns int, d time.Duration, next func(seq int64) (*http.Request, error)) result {
	var seq, errs, total atomic.Int64
	lat := make([][]time.Duration, conns)
	deadline := time.Now().Add(d)
	start := time.Now()
	var wg sync.WaitGroup
	for c := range conns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for time.Now().Before(deadline) {
				req, err := next(seq.Add(1))
				if err != nil {
					errs.Add(1)
					continue
				}
				t0 := time.Now()
				resp, err := client.Do(req)
				if err == nil {
					_, _ = io.Copy(io.Discard, resp.Body)
					resp.Body.Close()
					if resp.StatusCode >= 400 {
						err = fmt.Errorf("status %d", resp.StatusCode)
					}
				}
				lat[c] = append(lat[c], time.Since(t0))
				total.Add(1)
				if err != nil {
					errs.Add(1)
				}
			}
		}()
	}
	wg.Wait()
	r := result{requests: total.Load(), errors: errs.Load(), elapsed: time.Since(start)}
	for _, l := range lat {
		r.latencies = append(r.latencies, l...)
	}
	slices.Sort(r.latencies)
	return r
}
