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
	total.add(result{requests: 3, errors: 1, elapsed: time.Second, latencies: ms(1, 2, 9), cpu: time.Second, genCPU: 100 * time.Millisecond})
	total.add(result{requests: 1, elapsed: time.Second, latencies: ms(5), cpu: time.Second, genCPU: 100 * time.Millisecond})
	if total.requests != 4 || total.errors != 1 || total.rps() != 2 {
		t.Errorf("requests %d, errors %d, %v/s; want 4, 1, 2/s", total.requests, total.errors, total.rps())
	}
	if got := total.cpuPerRequest(); got != 500*time.Millisecond {
		t.Errorf("CPU per request %v, want 500ms", got)
	}
	if got := total.perRequest(total.genCPU); got != 50*time.Millisecond {
		t.Errorf("generator CPU per request %v, want 50ms", got)
	}
	if p50, p99 := total.pct(0.5), total.pct(0.99); p50 != 5*time.Millisecond || p99 != 9*time.Millisecond {
		t.Errorf("p50 %v, p99 %v; want 5ms and 9ms over both slices", p50, p99)
	}
}
