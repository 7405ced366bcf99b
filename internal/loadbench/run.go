package main

import (
	"fmt"
	"net/http"
	"os"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/svc-feedback/svc/internal/benchdata"
)

func sprintf(f string, a ...any) string { return fmt.Sprintf(f, a...) }

const putBody = `{"respondent":"user%d","data":{"nps":9,"stars":4,"favourite":"Alerts","missing":["Speed","Docs"],` +
	`"comments":"The new dashboard is great, but exports are slow"},"metadata":{"page":"/dashboard","plan":"pro","locale":"en-GB"}}`

func run(db string, rows, conns int, d time.Duration, sync, only string) error {
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

	run := strconv.FormatInt(time.Now().UnixNano(), 36)
	req := func(method, url, body string) func(int64) (*http.Request, error) {
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
	put := "/v1/svc/" + loadSurvey + "/response/l" + run + "x{seq}"
	event := "/v1/svc/" + loadSurvey + "/respondent/user{seq}/event"
	getSurvey := "/v1/svc/" + benchdata.SurveyID
	responses := "/v1/protected/surveys/" + benchdata.SurveyID + "/responses?limit=100"
	scenarios := []struct {
		name string
		srv  *child
		next func(int64) (*http.Request, error)
	}{
		{"baseline PUT", base, req("PUT", base.addr+put, putBody)},
		{"PUT response (new ids)", svcSrv, req("PUT", svcSrv.addr+put, putBody)},
		{"baseline POST", base, req("POST", base.addr+event, `{"type":"view"}`)},
		{"POST event", svcSrv, req("POST", svcSrv.addr+event, `{"type":"view"}`)},
		{"baseline GET", base, req("GET", base.addr+getSurvey, "")},
		{"GET survey", svcSrv, req("GET", svcSrv.addr+getSurvey, "")},
		{"GET responses, first page", svcSrv, req("GET", svcSrv.addr+responses, "")},
		{"GET responses, 90% deep", svcSrv, req("GET", svcSrv.addr+responses+"&cursor="+benchdata.Cursor(rows/10, rows), "")},
	}
	results := map[string]result{}
	if only != "" {
		var keep []struct {
			name string
			srv  *child
			next func(int64) (*http.Request, error)
		}
		for _, s := range scenarios {
			if strings.Contains(s.name, only) || strings.HasPrefix(s.name, "baseline") {
				keep = append(keep, s)
			}
		}
		scenarios = keep
	}
	for _, s := range scenarios {
		fmt.Fprintf(os.Stderr, "running %s for %v...\n", s.name, d)
		before, err := cpuTime(s.srv.cmd.Process.Pid)
		if err != nil {
			return err
		}
		genBefore, err := cpuTime(os.Getpid())
		if err != nil {
			return err
		}
		r := load(strings.TrimPrefix(s.srv.addr, "http://"), conns, d, s.next)
		after, err := cpuTime(s.srv.cmd.Process.Pid)
		if err != nil {
			return err
		}
		genAfter, err := cpuTime(os.Getpid())
		if err != nil {
			return err
		}
		r.cpu, r.genCPU = after-before, genAfter-genBefore
		results[s.name] = r
	}
	peak, err := peakRSS(svcSrv.cmd.Process.Pid)
	if err != nil {
		return err
	}

	ratio := func(a, b string) float64 { return results[a].rps() / results[b].rps() }
	fmt.Printf("\n%d connections, %v per scenario, %d CPUs, %s; svc over SQLite synchronous=%s, %d responses in the read survey\n\n",
		conns, d, runtime.NumCPU(), runtime.Version(), sync, rows)
	fmt.Println("| scenario | requests/s | p50 | p99 | errors | vs baseline | server CPU/request | vs baseline | load generator CPU/request |")
	fmt.Println("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
	baselineOf := map[string]string{
		"PUT response (new ids)": "baseline PUT", "POST event": "baseline POST", "GET survey": "baseline GET",
		"GET responses, first page": "baseline GET", "GET responses, 90% deep": "baseline GET",
	}
	for _, s := range scenarios {
		r := results[s.name]
		vs, cpuVs := "", ""
		if b, ok := baselineOf[s.name]; ok {
			vs = fmt.Sprintf("%.2fx", ratio(s.name, b))
			cpuVs = fmt.Sprintf("%.1fx", r.cpuPerRequest().Seconds()/results[b].cpuPerRequest().Seconds())
		}
		fmt.Printf("| %s | %.0f | %v | %v | %d | %s | %v | %s | %v |\n", s.name, r.rps(), r.pct(0.50).Round(10*time.Microsecond),
			r.pct(0.99).Round(10*time.Microsecond), r.errors, vs, r.cpuPerRequest().Round(time.Microsecond), cpuVs,
			r.perRequest(r.genCPU).Round(time.Microsecond))
	}
	deep := results["GET responses, 90% deep"].pct(0.5).Seconds() / results["GET responses, first page"].pct(0.5).Seconds()
	check := func(ok bool) string {
		if ok {
			return "met"
		}
		return "MISSED"
	}
	fmt.Printf("\n| target | measured | |\n|---|---:|---|\n")
	fmt.Printf("| PUT response >= 0.40x baseline PUT | %.2fx | %s |\n", ratio("PUT response (new ids)", "baseline PUT"), check(ratio("PUT response (new ids)", "baseline PUT") >= 0.40))
	fmt.Printf("| PUT response p99 < 20 ms | %v | %s |\n", results["PUT response (new ids)"].pct(0.99).Round(10*time.Microsecond), check(results["PUT response (new ids)"].pct(0.99) < 20*time.Millisecond))
	fmt.Printf("| POST event >= 0.40x baseline POST | %.2fx | %s |\n", ratio("POST event", "baseline POST"), check(ratio("POST event", "baseline POST") >= 0.40))
	fmt.Printf("| GET survey >= 0.80x baseline GET | %.2fx | %s |\n", ratio("GET survey", "baseline GET"), check(ratio("GET survey", "baseline GET") >= 0.80))
	fmt.Printf("| deep page p50 within 1.2x of first page | %.2fx | %s |\n", deep, check(deep <= 1.2))
	fmt.Printf("| GET responses (100) >= 0.10x baseline GET | %.2fx | %s |\n", ratio("GET responses, 90% deep", "baseline GET"), check(ratio("GET responses, 90% deep", "baseline GET") >= 0.10))
	fmt.Printf("| svc peak memory < 150 MB | %.0f MB | %s |\n", float64(peak)/(1<<20), check(peak < 150<<20))
	return nil
}
