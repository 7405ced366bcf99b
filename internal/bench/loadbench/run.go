package main

import (
	"errors"
	"fmt"
	"net/http"
	"os"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/svc-feedback/svc/internal/bench/benchdata"
)

// The scenarios, by the names the tables print.
const (
	baselinePUT       = "baseline PUT"
	putResponse       = "PUT response (new ids)"
	baselinePOST      = "baseline POST"
	postEvent         = "POST event"
	baselineGET       = "baseline GET"
	getSurveyScenario = "GET survey"
	firstPage         = "GET responses, first page"
	deepPage          = "GET responses, 90% deep"
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

func run(db string, rows, conns int, d time.Duration, rounds int, sync, only string) error {
	if rounds < 1 {
		return fmt.Errorf("-rounds must be at least 1, not %d", rounds)
	}
	fmt.Printf("preparing %s (%d responses, %d events)...\n", db, rows, rows)
	if err := prepare(db, rows); err != nil {
		return err
	}
	svcSrv, err := startChild("-serve", "svc", "-db", db, "-sync", sync)
	if err != nil {
		return err
	}
	defer svcSrv.stop()
	base, err := startChild("-serve", "baseline")
	if err != nil {
		return err
	}
	defer base.stop()

	scenarios := selectScenarios(buildScenarios(svcSrv, base, rows), only)
	results, err := runSlices(scenarios, conns, d, rounds)
	if err != nil {
		return err
	}
	peak, err := peakRSS(svcSrv.cmd.Process.Pid)
	if err != nil {
		return err
	}
	fmt.Printf("\n%d connections, %v per scenario in %d slices taking turns with the baseline's, %d CPUs, %s; svc over SQLite synchronous=%s, %d responses in the read survey\n\n",
		conns, d, rounds, runtime.NumCPU(), runtime.Version(), sync, rows)
	printResults(scenarios, results)
	printTargets(results, peak)
	return nil
}

// scenario is one kind of request sent to one server.
type scenario struct {
	name string
	srv  *child
	next func(int64) (*http.Request, error)
}

// buildScenarios lists every scenario, each svc one after its baseline.
func buildScenarios(svcSrv, base *child, rows int) []scenario {
	run := strconv.FormatInt(time.Now().UnixNano(), 36)
	put := "/v1/svc/" + loadSurvey + "/response/l" + run + "x{seq}"
	event := "/v1/svc/" + loadSurvey + "/respondent/user{seq}/event"
	getSurvey := "/v1/svc/" + benchdata.SurveyID
	responses := "/v1/protected/surveys/" + benchdata.SurveyID + "/responses?limit=100"
	return []scenario{
		{baselinePUT, base, request("PUT", base.addr+put, putBody)},
		{putResponse, svcSrv, request("PUT", svcSrv.addr+put, putBody)},
		{baselinePOST, base, request("POST", base.addr+event, `{"type":"view"}`)},
		{postEvent, svcSrv, request("POST", svcSrv.addr+event, `{"type":"view"}`)},
		{baselineGET, base, request("GET", base.addr+getSurvey, "")},
		{getSurveyScenario, svcSrv, request("GET", svcSrv.addr+getSurvey, "")},
		{firstPage, svcSrv, request("GET", svcSrv.addr+responses, "")},
		{deepPage, svcSrv, request("GET", svcSrv.addr+responses+"&cursor="+benchdata.Cursor(rows/10, rows), "")},
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
		before, errA := cpuTime(s.srv.cmd.Process.Pid)
		genBefore, errB := cpuTime(os.Getpid())
		r := load(strings.TrimPrefix(s.srv.addr, "http://"), conns, slice, next)
		after, errC := cpuTime(s.srv.cmd.Process.Pid)
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

// baselineOf names the baseline each svc scenario is compared with.
var baselineOf = map[string]string{
	putResponse: baselinePUT, postEvent: baselinePOST, getSurveyScenario: baselineGET,
	firstPage: baselineGET, deepPage: baselineGET,
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
		if b, ok := baselineOf[s.name]; ok {
			vs = fmt.Sprintf("%.2fx", ratio(results, s.name, b))
			cpuVs = fmt.Sprintf("%.1fx", r.cpuPerRequest().Seconds()/results[b].cpuPerRequest().Seconds())
		}
		fmt.Printf("| %s | %.0f | %v | %v | %d | %s | %v | %s | %v |\n", s.name, r.rps(), r.pct(0.50).Round(10*time.Microsecond),
			r.pct(0.99).Round(10*time.Microsecond), r.errors, vs, r.cpuPerRequest().Round(time.Microsecond), cpuVs,
			r.perRequest(r.genCPU).Round(time.Microsecond))
	}
}

// printTargets prints each target and whether it was met.
func printTargets(results map[string]result, peak int64) {
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
	row("PUT response >= 0.40x baseline PUT", fmt.Sprintf("%.2fx", r(putResponse, baselinePUT)), r(putResponse, baselinePUT) >= 0.40, putResponse)
	row("PUT response p99 < 20 ms", fmt.Sprint(results[putResponse].pct(0.99).Round(10*time.Microsecond)), results[putResponse].pct(0.99) < 20*time.Millisecond, putResponse)
	row("POST event >= 0.40x baseline POST", fmt.Sprintf("%.2fx", r(postEvent, baselinePOST)), r(postEvent, baselinePOST) >= 0.40, postEvent)
	row("GET survey >= 0.80x baseline GET", fmt.Sprintf("%.2fx", r(getSurveyScenario, baselineGET)), r(getSurveyScenario, baselineGET) >= 0.80, getSurveyScenario)
	row("deep page p50 within 1.2x of first page", fmt.Sprintf("%.2fx", deep), deep <= 1.2, firstPage, deepPage)
	pages := min(r(firstPage, baselineGET), r(deepPage, baselineGET)) // both pages must meet it
	row("GET responses (100), either page, >= 0.10x baseline GET", fmt.Sprintf("%.2fx", pages), pages >= 0.10, firstPage, deepPage)
	row("svc peak memory < 150 MB", fmt.Sprintf("%.0f MB", float64(peak)/(1<<20)), peak < 150<<20)
}
