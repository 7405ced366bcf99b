package sqlrow

import "math"

// Widen moves a score's bound a billionth of itself outwards (in the direction of sign), for a
// Store that tests store.Narrowing in its query: the database reads a stored number's text with
// its own code (SQLite as a double, PostgreSQL as an exact numeric), which may land a bit away
// from where Go's reading does, and a score on the bound must not be left out for it. The
// caller tests each response against the exact bound.
func Widen(bound float64, sign float64) float64 {
	return bound + sign*(math.Abs(bound)*1e-9+math.SmallestNonzeroFloat64)
}

// MaxNarrowValues bounds the values a Store's query tests for a store.Narrowing's choices: a
// filter holds at most 50, but a Store takes any Narrowing, and one of many thousand values
// would fail the query (PostgreSQL recurses through a path's chain of ||, SQLite allows 32,766
// parameters). A choice whose values would take its query past it is left to the caller.
const MaxNarrowValues = 256
