// Package segfill runs the fill of declared segments' counts (store.SegmentCounter.FillSegments)
// in the background: when a team's segments change, a Filler counts the responses stored
// before the change, a batch at a time, until its store says the fill is complete.
package segfill

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/svc-feedback/svc/store"
)

// Batch is how many responses one call of FillSegments counts: one short transaction, so that
// the writes waiting behind it wait little.
const Batch = 500

// Poll is how often an idle Filler lists the teams that declare segments, to fill those whose
// segments changed where its Notify is not called (the console, another process on the same
// database): a declaration is counted within about this long.
const Poll = time.Minute

// Filler fills the segment counts of the teams it is told of (Notify). Start it once; Close
// stops it. A fill it leaves behind (a stop, a failure) is resumed where the store recorded it
// when the team is notified again.
type Filler struct {
	s     store.SegmentCounter
	log   *slog.Logger
	retry time.Duration // how long to wait after a failure, or a call that counted nothing
	poll  time.Duration // how often an idle Filler looks for teams whose segments changed elsewhere

	mu      sync.Mutex
	pending map[string]bool
	wake    chan struct{}
	stop    chan struct{}
	done    chan struct{}
}

// New returns a Filler of s, logging its failures to log (nil: slog.Default()).
func New(s store.SegmentCounter, log *slog.Logger) *Filler {
	if log == nil {
		log = slog.Default()
	}
	return &Filler{s: s, log: log, retry: time.Second, poll: Poll, pending: map[string]bool{},
		wake: make(chan struct{}, 1), stop: make(chan struct{}), done: make(chan struct{})}
}

// Notify asks the Filler to fill a team's segment counts, if they need it.
func (f *Filler) Notify(teamID string) {
	f.mu.Lock()
	f.pending[teamID] = true
	f.mu.Unlock()
	select {
	case f.wake <- struct{}{}:
	default:
	}
}

// Start runs the Filler in its own goroutine.
func (f *Filler) Start() { go f.run() }

// Close stops the Filler after its batch in progress, or when ctx is done.
func (f *Filler) Close(ctx context.Context) error {
	close(f.stop)
	select {
	case <-f.done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (f *Filler) run() {
	defer close(f.done)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		select {
		case <-f.stop:
			cancel()
		case <-f.done:
		}
	}()
	f.resume(ctx)
	for {
		team, ok := f.next()
		if !ok {
			select {
			case <-f.wake:
			case <-time.After(f.poll):
				f.resume(ctx) // segments declared where no Notify reaches: the console, another process
			case <-f.stop:
				return
			}
			continue
		}
		if !f.fill(ctx, team) {
			select { // nothing counted: another process holds the rest, or the store failed
			case <-time.After(f.retry):
			case <-f.stop:
				return
			}
		}
	}
}

// resume notes every team that declares segments, so that a fill a stop left behind goes on
// when the process starts again rather than when the team's settings are next read; a complete
// team costs one call.
func (f *Filler) resume(ctx context.Context) {
	teams, err := f.s.SegmentTeams(ctx)
	if err != nil {
		if ctx.Err() == nil {
			f.log.Error("segments: list the teams to resume their fills", "err", err)
		}
		return
	}
	f.mu.Lock()
	for _, t := range teams {
		f.pending[t] = true
	}
	f.mu.Unlock()
}

// next returns a team to fill.
func (f *Filler) next() (string, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for team := range f.pending {
		return team, true
	}
	return "", false
}

// fill runs one batch of a team's fill and reports whether it made progress.
func (f *Filler) fill(ctx context.Context, team string) bool {
	before, err := f.s.SegmentsProgress(ctx, team)
	if err == nil && before.State == store.FillFilling {
		var after store.SegmentsFill
		if after, err = f.s.FillSegments(ctx, team, Batch); err == nil {
			if after.State == store.FillFilling {
				return after.Done != before.Done || after.Surveys != before.Surveys
			}
			before = after
		}
	}
	if err != nil {
		if ctx.Err() == nil {
			f.log.Error("svc: fill segment counts", "team", team, "err", err)
		}
		return false
	}
	f.mu.Lock()
	delete(f.pending, team) // complete, or no segments
	f.mu.Unlock()
	return true
}
