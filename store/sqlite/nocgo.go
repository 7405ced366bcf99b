//go:build !cgo

package sqlite

// cgoEnabled tells Open that the SQLite driver, which is C code, is missing from this build, so
// that it fails with ErrNeedsCgo rather than with the driver's stub error on first use.
const cgoEnabled = false

// constraintSentinel has no SQLite errors to read without cgo.
func constraintSentinel(error) error { return nil }
