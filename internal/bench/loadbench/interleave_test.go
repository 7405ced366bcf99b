package main

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestInterleave: each scenario takes turns with its baseline, one slice each, so that both
// meet the same machine; groups run one after the other.
func TestInterleave(t *testing.T) {
	names := []string{"baseline PUT", "PUT", "baseline GET", "GET survey", "GET page"}
	var got []string
	for _, i := range interleave(names, 3) {
		got = append(got, names[i])
	}
	want := []string{
		"baseline PUT", "PUT", "baseline PUT", "PUT", "baseline PUT", "PUT",
		"baseline GET", "GET survey", "GET page", "baseline GET", "GET survey", "GET page", "baseline GET", "GET survey", "GET page",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("run order (-want +got):\n%s", diff)
	}
}

// TestResultAdd: slices of a scenario add up, and percentiles are taken over all of them.
func TestResultAdd(t *testing.T) {
	ms := func(n ...int) []time.Duration {
		var out []time.Duration
		for _, v := range n {
			out = append(out, time.Duration(v)*time.Millisecond)
		}
		return out
	}
	var total result
	total.add(result{requests: 3, inWindow: 3, errors: 1, elapsed: time.Second, latencies: ms(1, 2, 9), cpu: time.Second, genCPU: 100 * time.Millisecond})
	total.add(result{requests: 2, inWindow: 1, elapsed: time.Second, latencies: ms(5, 40), cpu: time.Second, genCPU: 100 * time.Millisecond})
	if total.requests != 5 || total.errors != 1 || total.rps() != 2 {
		t.Errorf("requests %d, errors %d, %v/s; want 5, 1, 2/s (4 answered in 2 s)", total.requests, total.errors, total.rps())
	}
	if got := total.cpuPerRequest(); got != 400*time.Millisecond {
		t.Errorf("CPU per request %v, want 400ms", got)
	}
	if got := total.perRequest(total.genCPU); got != 40*time.Millisecond {
		t.Errorf("generator CPU per request %v, want 40ms", got)
	}
	if p50, p90 := total.pct(0.5), total.pct(0.9); p50 != 5*time.Millisecond || p90 != 40*time.Millisecond {
		t.Errorf("p50 %v, p90 %v; want 5ms and 40ms over both slices", p50, p90)
	}
}
