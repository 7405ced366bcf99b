// Package gctune sets the garbage collector of svc's server programs: the example server and
// both servers of the load benchmark, so that the benchmark compares like with like.
//
// A server of svc keeps a live heap of tens of megabytes, and allocates about 14 KB per
// response PUT; at Go's default GOGC=100 it collects often, for little memory saved. Letting
// the heap grow to five times its live size, under a soft limit that bounds it when large
// bodies make the live heap itself large, cut the server's CPU per PUT by 11-14% under the
// load benchmark, for about 12 MB more memory at its peak (see the README).
package gctune

import (
	"runtime/debug"
)

const (
	// Percent is the GOGC value Apply sets.
	Percent = 400
	// MemoryLimit is the GOMEMLIMIT value Apply sets, in bytes: past it the collector runs as
	// often as it must, whatever Percent allows.
	MemoryLimit = 512 << 20
)

// Apply sets GOGC to Percent and GOMEMLIMIT to MemoryLimit, each unless getenv reports it set,
// so that an operator's own GOGC or GOMEMLIMIT wins. It returns the settings in force after it.
func Apply(getenv func(string) string) (percent int, memoryLimit int64) {
	if getenv("GOGC") == "" {
		debug.SetGCPercent(Percent)
	}
	if getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(MemoryLimit)
	}
	percent = debug.SetGCPercent(-1)
	debug.SetGCPercent(percent)
	return percent, debug.SetMemoryLimit(-1)
}
