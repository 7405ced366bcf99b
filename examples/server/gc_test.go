package main

import (
	"runtime/debug"
	"testing"
)

func TestTuneGC(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(-1))

	debug.SetGCPercent(100)
	debug.SetMemoryLimit(1 << 40)
	if p, l := tuneGC(func(string) string { return "" }); p != gcPercent || l != gcMemoryLimit {
		t.Errorf("tuneGC with nothing set = %d, %d; want %d, %d", p, l, gcPercent, gcMemoryLimit)
	}

	// The operator's own settings win: tuneGC leaves what the runtime took from them.
	debug.SetGCPercent(50)
	debug.SetMemoryLimit(1 << 30)
	env := map[string]string{"GOGC": "50", "GOMEMLIMIT": "1GiB"}
	if p, l := tuneGC(func(k string) string { return env[k] }); p != 50 || l != 1<<30 {
		t.Errorf("tuneGC with GOGC and GOMEMLIMIT set = %d, %d; want 50, %d", p, l, 1<<30)
	}
	env = map[string]string{"GOMEMLIMIT": "1GiB"}
	if p, l := tuneGC(func(k string) string { return env[k] }); p != gcPercent || l != 1<<30 {
		t.Errorf("tuneGC with GOMEMLIMIT set = %d, %d; want %d, %d", p, l, gcPercent, 1<<30)
	}
}
