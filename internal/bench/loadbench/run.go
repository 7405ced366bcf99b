package main

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/svc-feedback/svc/internal/bench/benchdata"
)

// The scenarios, by the names the tables print.
const (
	baselinePUT       = "baseline PUT"
	baselineRawPUT    = "baseline PUT: raw pgx INSERT loop"
	putResponse       = "PUT response (new ids)"
	putUpdate         = "PUT response (updates)"
	baselinePOST      = "baseline POST"
	postEvent         = "POST event"
	baselineGET       = "baseline GET"
	getSurveyScenario = "GET survey"
	firstPage         = "GET responses, first page"
	deepPage          = "GET responses, 90% deep"
	summaryAll        = "GET summary, all time"
	summaryQuarter    = "GET summary, a quarter"
	trendsYear        = "GET trends, a year of weeks"
	summaryFiltered   = "GET summary, 30 days, filtered"
	summaryBurst      = "GET summary of the load survey, after its PUTs"
	nextSurvey        = "POST next-survey (100 surveys with rules)"
)

func sprintf(f string, a ...any) string { return fmt.Sprintf(f, a...) }

const putBody = `{"respondent":"user%d","data":{"nps":9,"stars":4,"favourite":"Alerts","missing":["Speed","Docs"],` +
	`"comments":"The new dashboard is great, but exports are slow"},"metadata":{"page":"/dashboard","plan":"pro","locale":"en-GB"}}`

// interleave orders the slices of a run: each baseline and the scenarios after it (up to the
// next baseline) take turns, one slice each, rounds times. The machine is shared and its speed
// drifts over seconds; run one after the other, a scenario and its baseline would meet
// different machines, and the ratio would measure the drift. It returns indexes into names.
func interleave(names []string, rounds int) []int {
	var order, group []int
	flush := func() {
		for range rounds {
			order = append(order, group...)
		}
		group = group[:0]
	}
	for i, n := range names {
		if strings.HasPrefix(n, "baseline") {
			flush()
		}
		group = append(group, i)
	}
	flush()
	return order
}

// config is what the command line asks of a run.
type config struct {
	db                             string
	rows, conns, rounds, instances int
	d                              time.Duration
	sync, only                     string
	accessLog                      bool
}

func run(cfg config) error {
	if cfg.rounds < 1 {
		return fmt.Errorf("-rounds must be at least 1, not %d", cfg.rounds)
	}
	pg := isPostgres(cfg.db)
	if cfg.instances < 1 || (cfg.instances > 1 && !pg) {
		return fmt.Errorf("-instances %d: several instances need a PostgreSQL -db", cfg.instances)
	}
	fmt.Printf("preparing %s (%d responses, %d events)...\n", printable(cfg.db), cfg.rows, cfg.rows)
	prep := prepare
	if pg {
		prep = preparePostgres
	}
	if err := prep(cfg.db, cfg.rows); err != nil {
		return err
	}
	var svcSrvs []*child
	for i := range cfg.instances {
		args := []string{"-serve", "svc", "-db", cfg.db, "-sync", cfg.sync}
		if cfg.accessLog {
			file := filepath.Join(os.TempDir(), fmt.Sprintf("loadbench-access-%d-%d.log", os.Getpid(), i))
			defer os.Remove(file)
			args = append(args, "-access-log-file", file)
		}
		srv, err := startChild(args...)
		if err != nil {
			return err
		}
		defer srv.stop()
		svcSrvs = append(svcSrvs, srv)
	}
	base, err := startChild("-serve", "baseline")
	if err != nil {
		return err
	}
	defer base.stop()

	var rawPUT func(c int, seq int64) error
	if pg {
		work, closePool, err := rawInsert(context.Background(), cfg.db)
		if err != nil {
			return err
		}
		defer closePool()
		rawPUT = work
	}
	scenarios := buildScenarios(svcSrvs, base, rawPUT, cfg.rows)
	putBase := baselineFor(scenarios, putResponse)
	scenarios = selectScenarios(scenarios, cfg.only)
	results, err := runSlices(scenarios, cfg.conns, cfg.d, cfg.rounds)
	if err != nil {
		return err
	}
	var peak int64
	for _, srv := range svcSrvs {
		p, err := peakRSS(srv.cmd.Process.Pid)
		if err != nil {
			return err
		}
		peak = max(peak, p)
	}
	backend := "SQLite synchronous=" + cfg.sync
	if !cfg.accessLog {
		backend += ", no access log"
	}
	if pg {
		backend = fmt.Sprintf("PostgreSQL at %d instances (server CPU counts svc's processes, not PostgreSQL's)", cfg.instances)
		if !cfg.accessLog {
			backend += ", no access log"
		}
	}
	fmt.Printf("\n%d connections (the filtered summary at most %d), %v per scenario in %d slices taking turns with the baseline's, %d CPUs, %s; svc over %s, %d responses in the read survey\n\n",
		cfg.conns, reportConns, cfg.d, cfg.rounds, runtime.NumCPU(), runtime.Version(), backend, cfg.rows)
	printResults(scenarios, results)
	printTargets(results, peak, putBase, cfg.accessLog)
	return nil
}

// printable is db for messages, without a password.
func printable(db string) string {
	if isPostgres(db) {
		return redactURL(db)
	}
	return db
}

// scenario is one kind of request sent to svc's servers or a baseline's, or, when direct is
// set, work done in this process.
type scenario struct {
	name string
	// baseline names the scenario this one is compared with; none for a baseline.
	baseline string
	srvs     []*child
	next     func(int64) (*http.Request, error)
	direct   func(c int, seq int64) error
	// conns, when set and fewer than the run's, is how many connections this scenario uses.
	conns int
}

// reportConns is how many connections ask for the filtered summary at once: a few people
// reading the heaviest report together. At 1,000,000 responses one costs about 0.6 s of CPU,
// and 64 connections asking it back to back wait past the load generator's 30 s timeout.
const reportConns = 4

// buildScenarios lists every scenario, each svc one after its baseline. With rawPUT (on
// PostgreSQL), the PUT's baseline is that raw INSERT loop rather than the JSON-only server.
func buildScenarios(svcSrvs []*child, base *child, rawPUT func(c int, seq int64) error, rows int) []scenario {
	run := strconv.FormatInt(time.Now().UnixNano(), 36)
	put := "/v1/svc/" + loadSurvey + "/response/l" + run + "x{seq}"
	event := "/v1/svc/" + loadSurvey + "/respondent/user{seq}/event"
	getSurvey := "/v1/svc/" + benchdata.SurveyID
	responses := "/v1/protected/surveys/" + benchdata.SurveyID + "/responses?limit=100"
	summary := "/v1/protected/surveys/" + benchdata.SurveyID + "/summary"
	b := []*child{base}
	// The host in an svc URL is only the Host header: load spreads connections over svcSrvs.
	svcAddr := svcSrvs[0].addr
	putBase := scenario{baselinePUT, "", b, request("PUT", base.addr+put, putBody), nil, 0}
	if rawPUT != nil {
		putBase = scenario{name: baselineRawPUT, direct: rawPUT}
	}
	return []scenario{
		putBase,
		{putResponse, putBase.name, svcSrvs, request("PUT", svcAddr+put, putBody), nil, 0},
		{putUpdate, putBase.name, svcSrvs, updates(svcAddr + "/v1/svc/" + loadSurvey + "/response/l" + run + "u"), nil, 0},
		{baselinePOST, "", b, request("POST", base.addr+event, `{"type":"view"}`), nil, 0},
		{postEvent, baselinePOST, svcSrvs, request("POST", svcAddr+event, `{"type":"view"}`), nil, 0},
		{baselineGET, "", b, request("GET", base.addr+getSurvey, ""), nil, 0},
		{getSurveyScenario, baselineGET, svcSrvs, request("GET", svcAddr+getSurvey, ""), nil, 0},
		// A new person on page 42 of the app: every survey's URL rule is tried, one matches.
		{nextSurvey, baselineGET, svcSrvs, request("POST", svcAddr+"/v1/svc/next-survey",
			benchdata.TargetedAsk), nil, 0},
		{firstPage, baselineGET, svcSrvs, request("GET", svcAddr+responses, ""), nil, 0},
		{deepPage, baselineGET, svcSrvs, request("GET", svcAddr+responses+"&cursor="+benchdata.Cursor(rows/10, rows), ""), nil, 0},
		// The summary reads counts kept on write: its cost must not grow with history (compare
		// runs at -rows 10000 and 1000000), nor right after a burst of writes, when the load
		// survey's count log holds changes not yet folded.
		{summaryAll, baselineGET, svcSrvs, request("GET", svcAddr+summary, ""), nil, 0},
		{summaryQuarter, baselineGET, svcSrvs, request("GET", svcAddr+summary+"?timeRange=q2-2026", ""), nil, 0},
		// A filter reads the range's responses: 30 days of the year is about 8% of the history.
		{summaryFiltered, baselineGET, svcSrvs, request("GET", svcAddr+summary+"?timeRange=custom_2026-06-01_2026-06-30&answer.nps.min=9", ""), nil, reportConns},
		// 53 weeks of the year the benchmark's history spans, from the counts kept on write.
		{trendsYear, baselineGET, svcSrvs, request("GET", svcAddr+"/v1/protected/surveys/"+benchdata.SurveyID+
			"/trends?interval=week&timeRange=custom_2025-11-01_2026-10-31", ""), nil, 0},
		{summaryBurst, baselineGET, svcSrvs, request("GET", svcAddr+"/v1/protected/surveys/"+loadSurvey+"/summary", ""), nil, 0},
	}
}

// request makes the requests of a scenario: {seq} in the URL, and %d in the body, take the
// request's sequence number.
func request(method, url, body string) func(int64) (*http.Request, error) {
	return func(seq int64) (*http.Request, error) {
		u := strings.ReplaceAll(url, "{seq}", strconv.FormatInt(seq, 10))
		var r *http.Request
		var err error
		if body == "" {
			r, err = http.NewRequest(method, u, nil)
		} else {
			b := body
			if strings.Contains(b, "%d") {
				b = fmt.Sprintf(body, seq%1000)
			}
			r, err = http.NewRequest(method, u, strings.NewReader(b))
			if err == nil {
				r.Header.Set("Content-Type", "application/json")
			}
		}
		if err == nil {
			r.Header.Set("x-svc-pk", benchdata.PublishableKey)
			r.Header.Set("Authorization", "Bearer "+benchdata.SecretKey)
		}
		return r, err
	}
}

// updateRing is how many responses the updates scenario writes over and over: after the first
// updateRing requests, every PUT replaces an earlier response's answers.
const updateRing = 4000

// updates returns PUTs of the responses at prefix followed by 0 to updateRing-1, in turn, as the
// widget sends them: after each question, the answers so far. Each lap changes the scores and
// the choices, so that every update moves the counts.
func updates(prefix string) func(int64) (*http.Request, error) {
	return func(seq int64) (*http.Request, error) {
		id, lap := seq%updateRing, seq/updateRing
		body := fmt.Sprintf(`{"respondent":"user%d","data":{"nps":%d,"stars":%d,"favourite":%q,"comments":"lap %d"},`+
			`"metadata":{"page":"/dashboard","plan":"pro","locale":"en-GB"}}`, id%1000, lap%11, 1+lap%5,
			[]string{"Alerts", "Reports", "Exports"}[lap%3], lap)
		return request("PUT", prefix+strconv.FormatInt(id, 10), body)(seq) // the same headers as the other PUTs
	}
}

// baselineFor names the baseline of the scenario called name.
func baselineFor(scenarios []scenario, name string) string {
	for _, s := range scenarios {
		if s.name == name {
			return s.baseline
		}
	}
	return ""
}

// selectScenarios keeps the scenarios whose name contains only, and every baseline.
func selectScenarios(scenarios []scenario, only string) []scenario {
	if only == "" {
		return scenarios
	}
	var keep []scenario
	for _, s := range scenarios {
		if strings.Contains(s.name, only) || strings.HasPrefix(s.name, "baseline") {
			keep = append(keep, s)
		}
	}
	return keep
}

// runSlices runs each scenario for d in rounds slices, taking turns, and sums each one's
// results with the CPU its server and the generator used.
func runSlices(scenarios []scenario, conns int, d time.Duration, rounds int) (map[string]result, error) {
	names := make([]string, len(scenarios))
	for i, s := range scenarios {
		names[i] = s.name
	}
	results := map[string]result{}
	slice := d / time.Duration(rounds)
	sliceOf := map[string]int64{}
	for _, i := range interleave(names, rounds) {
		s := scenarios[i]
		// Every slice numbers its requests afresh: an offset keeps PUT ids new across slices.
		offset := sliceOf[s.name] * 1_000_000_000
		sliceOf[s.name]++
		next := func(seq int64) (*http.Request, error) { return s.next(offset + seq) }
		fmt.Fprintf(os.Stderr, "running %s for %v (slice %d of %d)...\n", s.name, slice, sliceOf[s.name], rounds)
		before, errA := serversCPU(s.srvs)
		genBefore, errB := cpuTime(os.Getpid())
		n := conns
		if s.conns > 0 {
			n = min(n, s.conns)
		}
		var r result
		if s.direct != nil {
			r = measure(n, slice, func(c int, seq int64) error { return s.direct(c, offset+seq) })
		} else {
			r = load(addrs(s.srvs), n, slice, next)
		}
		after, errC := serversCPU(s.srvs)
		genAfter, errD := cpuTime(os.Getpid())
		if err := errors.Join(errA, errB, errC, errD); err != nil {
			return nil, err
		}
		r.cpu, r.genCPU = after-before, genAfter-genBefore
		total := results[s.name]
		total.add(r)
		results[s.name] = total
	}
	return results, nil
}

// addrs are the servers' host:port addresses.
func addrs(srvs []*child) []string {
	a := make([]string, len(srvs))
	for i, s := range srvs {
		a[i] = strings.TrimPrefix(s.addr, "http://")
	}
	return a
}

// serversCPU is the CPU time the servers have used so far, together.
func serversCPU(srvs []*child) (time.Duration, error) {
	var sum time.Duration
	for _, s := range srvs {
		t, err := cpuTime(s.cmd.Process.Pid)
		if err != nil {
			return 0, err
		}
		sum += t
	}
	return sum, nil
}

func ratio(results map[string]result, a, b string) float64 {
	return results[a].rps() / results[b].rps()
}

// printResults prints the table of every scenario's figures.
func printResults(scenarios []scenario, results map[string]result) {
	fmt.Println("| scenario | requests/s | p50 | p99 | errors | vs baseline | server CPU/request | vs baseline | load generator CPU/request |")
	fmt.Println("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
	for _, s := range scenarios {
		r := results[s.name]
		vs, cpuVs := "", ""
		if b := s.baseline; b != "" {
			vs = fmt.Sprintf("%.2fx", ratio(results, s.name, b))
			if bc := results[b].cpuPerRequest(); bc > 0 {
				cpuVs = fmt.Sprintf("%.1fx", r.cpuPerRequest().Seconds()/bc.Seconds())
			}
		}
		fmt.Printf("| %s | %.0f | %v | %v | %d | %s | %v | %s | %v |\n", s.name, r.rps(), r.pct(0.50).Round(10*time.Microsecond),
			r.pct(0.99).Round(10*time.Microsecond), r.errors, vs, r.cpuPerRequest().Round(time.Microsecond), cpuVs,
			r.perRequest(r.genCPU).Round(time.Microsecond))
	}
}

// printTargets prints each target and whether it was met.
// putBase is the PUT's baseline: the JSON-only server, or PostgreSQL's raw INSERT loop.
func printTargets(results map[string]result, peak int64, putBase string, accessLog bool) {
	deep := results[deepPage].pct(0.5).Seconds() / results[firstPage].pct(0.5).Seconds()
	// row prints a target, or that it was not measured when -only left out a scenario it needs.
	row := func(target, measured string, ok bool, needs ...string) {
		for _, n := range needs {
			if _, ran := results[n]; !ran {
				fmt.Printf("| %s | | not run |\n", target)
				return
			}
		}
		verdict := "MISSED"
		if ok {
			verdict = "met"
		}
		fmt.Printf("| %s | %s | %s |\n", target, measured, verdict)
	}
	r := func(a, b string) float64 { return ratio(results, a, b) }
	fmt.Printf("\n| target | measured | |\n|---|---:|---|\n")
	putTarget, sqliteOnly := 0.45, ""
	if putBase == baselineRawPUT {
		// PostgreSQL's target is the PUT against its raw INSERT loop (issues 26 and 34); the
		// latency and event targets were set for SQLite, and are shown against it for comparison.
		putTarget, sqliteOnly = 0.5, " (SQLite's target)"
	}
	row(fmt.Sprintf("PUT response >= %.2fx %s", putTarget, putBase), fmt.Sprintf("%.2fx", r(putResponse, putBase)),
		r(putResponse, putBase) >= putTarget, putResponse)
	if putBase != baselineRawPUT { // the raw loop's server is PostgreSQL, whose CPU is not counted
		cpu := results[putResponse].cpuPerRequest().Seconds() / results[putBase].cpuPerRequest().Seconds()
		row("PUT response server CPU <= 2.5x baseline PUT's", fmt.Sprintf("%.1fx", cpu), cpu <= 2.5, putResponse)
	}
	row("PUT response p99 < 20 ms"+sqliteOnly, fmt.Sprint(results[putResponse].pct(0.99).Round(10*time.Microsecond)), results[putResponse].pct(0.99) < 20*time.Millisecond, putResponse)
	row("POST event >= 0.40x baseline POST"+sqliteOnly, fmt.Sprintf("%.2fx", r(postEvent, baselinePOST)), r(postEvent, baselinePOST) >= 0.40, postEvent)
	get := "GET survey >= 0.85x baseline GET"
	if !accessLog {
		get += " (with the access log, which this run left off)"
	}
	row(get, fmt.Sprintf("%.2fx", r(getSurveyScenario, baselineGET)), r(getSurveyScenario, baselineGET) >= 0.85, getSurveyScenario)
	row("POST next-survey >= 0.80x GET survey", fmt.Sprintf("%.2fx", r(nextSurvey, getSurveyScenario)),
		r(nextSurvey, getSurveyScenario) >= 0.80, nextSurvey, getSurveyScenario)
	row("deep page p50 within 1.2x of first page", fmt.Sprintf("%.2fx", deep), deep <= 1.2, firstPage, deepPage)
	pages := min(r(firstPage, baselineGET), r(deepPage, baselineGET)) // both pages must meet it
	row("GET responses (100), either page, >= 0.10x baseline GET", fmt.Sprintf("%.2fx", pages), pages >= 0.10, firstPage, deepPage)
	row("svc peak memory < 150 MB", fmt.Sprintf("%.0f MB", float64(peak)/(1<<20)), peak < 150<<20)
}
