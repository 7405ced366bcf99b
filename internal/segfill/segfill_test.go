package segfill

import (
	"context"
	"errors"
	"log/slog"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/svc-feedback/svc/store"
)

// fakeCounter fills a team's total responses a batch a call, failing the calls it is told to.
type fakeCounter struct {
	store.SegmentCounter
	mu       sync.Mutex
	done     map[string]int64
	total    int64
	failures int
	calls    int
	complete chan string
	teams    []string // the teams that declare segments
}

func (f *fakeCounter) SegmentTeams(context.Context) ([]string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.teams), nil
}

func (f *fakeCounter) progress(team string) store.SegmentsFill {
	if f.done[team] >= f.total {
		return store.SegmentsFill{State: store.FillComplete, Done: f.total, Total: f.total}
	}
	return store.SegmentsFill{State: store.FillFilling, Done: f.done[team], Total: f.total, Surveys: 1}
}

func (f *fakeCounter) SegmentsProgress(_ context.Context, team string) (store.SegmentsFill, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.progress(team), nil
}

func (f *fakeCounter) FillSegments(_ context.Context, team string, limit int) (store.SegmentsFill, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls++
	if f.failures > 0 {
		f.failures--
		return store.SegmentsFill{}, errors.New("the database is away")
	}
	f.done[team] = min(f.total, f.done[team]+int64(limit))
	p := f.progress(team)
	if p.State == store.FillComplete {
		select { // said once a test has read it: a polling Filler asks again
		case f.complete <- team:
		default:
		}
	}
	return p, nil
}

// A notified team is filled batch by batch until complete, through a failure on the way.
func TestFillerFillsNotifiedTeams(t *testing.T) {
	fc := &fakeCounter{done: map[string]int64{}, total: 3*Batch + 7, failures: 1, complete: make(chan string, 2)}
	f := New(fc, slog.New(slog.DiscardHandler))
	f.retry = 0
	f.Start()
	f.Notify("a")
	f.Notify("b")
	got := map[string]bool{<-fc.complete: true, <-fc.complete: true}
	if err := f.Close(t.Context()); err != nil {
		t.Fatal(err)
	}
	if !got["a"] || !got["b"] {
		t.Errorf("teams filled: %v, want a and b", got)
	}
	if fc.calls != 2*4+1 { // four batches each, and the failed call
		t.Errorf("FillSegments calls = %d, want 9", fc.calls)
	}
}

// A Filler starting up resumes the fills of the teams that declare segments, unasked: a process
// stopped in the middle of a fill goes on with it when it starts again.
func TestFillerResumesDeclaringTeamsAtStart(t *testing.T) {
	fc := &fakeCounter{done: map[string]int64{}, total: 2*Batch + 1, complete: make(chan string, 1), teams: []string{"c"}}
	f := New(fc, slog.New(slog.DiscardHandler))
	f.retry = 0
	f.Start()
	if got := <-fc.complete; got != "c" {
		t.Errorf("filled %q, want c", got)
	}
	if err := f.Close(t.Context()); err != nil {
		t.Fatal(err)
	}
	if fc.calls != 3 {
		t.Errorf("FillSegments calls = %d, want 3", fc.calls)
	}
}

// An idle Filler looks for teams again now and then, so that segments declared where its
// Notify is not called (the console, another process) are filled all the same.
func TestFillerFindsTeamsDeclaredElsewhere(t *testing.T) {
	fc := &fakeCounter{done: map[string]int64{}, total: Batch + 1, complete: make(chan string, 1)}
	f := New(fc, slog.New(slog.DiscardHandler))
	f.retry, f.poll = 0, time.Millisecond
	f.Start()
	fc.mu.Lock()
	fc.teams = []string{"d"} // declared by another process: no Notify
	fc.mu.Unlock()
	if got := <-fc.complete; got != "d" {
		t.Errorf("filled %q, want d", got)
	}
	if err := f.Close(t.Context()); err != nil {
		t.Fatal(err)
	}
}
