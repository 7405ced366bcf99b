//go:build !unix

package sqlite_test

import "time"

// processCPU returns -1: this platform's CPU time is not read here.
func processCPU() time.Duration { return -1 }
