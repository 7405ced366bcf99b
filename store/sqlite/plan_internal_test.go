//go:build cgo

package sqlite

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/svc-feedback/svc/store"
)

// TestRangedPagesSeekToTheCursor: a page past the first of a ranged list or export seeks to its
// cursor in the index, rather than to the range's start, reading every row before the cursor
// again (which made a ranged export quadratic: 5.4 s of CPU for a filtered summary of 80,000
// responses, 0.9 s since).
func TestRangedPagesSeekToTheCursor(t *testing.T) {
	s, err := Open(t.Context(), filepath.Join(t.TempDir(), "svc.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	t0 := time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)
	cursor := &store.Cursor{CreatedAt: t0.Add(24 * time.Hour), ID: "r1"}
	for _, tc := range []struct {
		q    store.ResponseQuery
		seek string
	}{
		{store.ResponseQuery{Oldest: true, After: t0, Before: t0.AddDate(0, 1, 0), Cursor: cursor}, "(created_at,id)>(?,?)"},
		{store.ResponseQuery{After: t0, Before: t0.AddDate(0, 1, 0), Cursor: cursor}, "(created_at,id)<(?,?)"},
	} {
		tc.q.SurveyID, tc.q.Limit = "s1", 100
		sql, args := pageQuery(`SELECT id FROM responses`, tc.q)
		plan := queryPlan(t, s, sql, args...)
		if !strings.Contains(strings.Join(plan, "; "), tc.seek) {
			t.Errorf("oldest first %v: the plan %q does not seek to the cursor (%s)", tc.q.Oldest, plan, tc.seek)
		}
	}
}

// TestDaySpansSeekEachSpan: a trend's spans of days are read span by span through the day
// rollup's key, not by reading every day of the question once per span (which made a year of
// weeks 50 times slower than a query per week).
func TestDaySpansSeekEachSpan(t *testing.T) {
	s, err := Open(t.Context(), filepath.Join(t.TempDir(), "svc.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	plan := queryPlan(t, s, daySpansQuery, "[[1,8],[8,15]]", "s1", "nps")
	if len(plan) < 2 || !strings.Contains(plan[0], "json_each") || !strings.Contains(plan[1], "day>? AND day<?") {
		t.Errorf("the plan %q does not seek each span's days", plan)
	}
}

// queryPlan is SQLite's plan of a query on the read pool, one step a line.
func queryPlan(t *testing.T, s *Store, query string, args ...any) []string {
	t.Helper()
	rows, err := s.rdb.QueryContext(t.Context(), "EXPLAIN QUERY PLAN "+query, args...)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var plan []string
	for rows.Next() {
		var id, parent, unused int
		var detail string
		if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
			t.Fatal(err)
		}
		plan = append(plan, detail)
	}
	return plan
}
