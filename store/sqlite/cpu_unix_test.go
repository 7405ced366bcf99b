//go:build unix

package sqlite_test

import (
	"syscall"
	"time"
)

// processCPU returns the CPU time (user and system) the process has used so far, or -1 if it
// cannot tell.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return -1
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
