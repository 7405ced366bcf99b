package main

import "runtime/debug"

// Garbage collector settings for a server of svc. It keeps a live heap of tens of megabytes
// and allocates about 14 KB per response PUT, so at Go's default GOGC=100 it collects often
// for little memory saved. Letting the heap grow to five times its live size, under a soft
// limit that bounds it when large bodies make the live heap itself large, cut the CPU per PUT
// by 11-14% under the load benchmark (docs/performance.md), for about 12 MB more at the peak.
const (
	gcPercent     = 400
	gcMemoryLimit = 512 << 20
)

// tuneGC applies those settings, each unless the operator set GOGC or GOMEMLIMIT, and returns
// the settings in force after it.
func tuneGC(getenv func(string) string) (percent int, memoryLimit int64) {
	if getenv("GOGC") == "" {
		debug.SetGCPercent(gcPercent)
	}
	if getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(gcMemoryLimit)
	}
	percent = debug.SetGCPercent(-1)
	debug.SetGCPercent(percent)
	return percent, debug.SetMemoryLimit(-1)
}
