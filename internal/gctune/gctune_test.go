package gctune

import (
	"runtime/debug"
	"testing"
)

func TestApply(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(-1))

	debug.SetGCPercent(100)
	debug.SetMemoryLimit(1 << 40)
	if p, l := Apply(func(string) string { return "" }); p != Percent || l != MemoryLimit {
		t.Errorf("Apply with nothing set = %d, %d; want %d, %d", p, l, Percent, MemoryLimit)
	}

	// The operator's own settings win: Apply leaves what the runtime took from them.
	debug.SetGCPercent(50)
	debug.SetMemoryLimit(1 << 30)
	env := map[string]string{"GOGC": "50", "GOMEMLIMIT": "1GiB"}
	if p, l := Apply(func(k string) string { return env[k] }); p != 50 || l != 1<<30 {
		t.Errorf("Apply with GOGC and GOMEMLIMIT set = %d, %d; want 50, %d", p, l, 1<<30)
	}
	env = map[string]string{"GOMEMLIMIT": "1GiB"}
	if p, l := Apply(func(k string) string { return env[k] }); p != Percent || l != 1<<30 {
		t.Errorf("Apply with GOMEMLIMIT set = %d, %d; want %d, %d", p, l, Percent, 1<<30)
	}
}
