package sqlite

import (
	"context"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/svc-feedback/svc/store"
)

// openForCheckpoints opens a store whose checkpoints the test runs itself, and which asks
// for the WAL to start over from restartFrames frames.
func openForCheckpoints(t *testing.T, restartFrames int) (*Store, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "svc.db")
	s, err := Open(t.Context(), path, &Options{checkpointEvery: -1, walRestartFrames: restartFrames})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s, path
}

// writeTeams commits n writes one by one, each a transaction of its own.
func writeTeams(t *testing.T, s *Store, prefix string, n int) {
	t.Helper()
	for i := range n {
		if err := s.CreateTeam(t.Context(), store.Team{ID: fmt.Sprintf("%s%d", prefix, i), Name: "x", CreatedAt: time.Now()}); err != nil {
			t.Fatal(err)
		}
	}
}

// walSequence reads the WAL header's checkpoint sequence number, which SQLite increments each
// time the WAL starts over.
func walSequence(t *testing.T, path string) uint32 {
	t.Helper()
	b, err := os.ReadFile(path + "-wal")
	if err != nil {
		t.Fatal(err)
	}
	if len(b) < 32 {
		t.Fatalf("WAL of %d bytes has no header", len(b))
	}
	return binary.BigEndian.Uint32(b[12:16])
}

// walFrames reads the WAL's length in frames and how many of them checkpoints have copied
// from the WAL index (the -shm file: mxFrame in its header, nBackfill after the header's two
// copies), without running a checkpoint of its own.
func walFrames(t *testing.T, path string) (frames, copied uint32) {
	t.Helper()
	b, err := os.ReadFile(path + "-shm")
	if err != nil {
		t.Fatal(err)
	}
	if len(b) < 100 {
		t.Fatalf("WAL index of %d bytes", len(b))
	}
	return binary.NativeEndian.Uint32(b[16:20]), binary.NativeEndian.Uint32(b[96:100])
}

// TestWriterStartsWALOverWhenAsked puts the WAL in the state steady writes keep it in, with
// frames a checkpoint has not copied yet, and asks the writer to finish the checkpoint: its
// next write starts the WAL over instead of appending to it.
func TestWriterStartsWALOverWhenAsked(t *testing.T) {
	s, path := openForCheckpoints(t, 16)
	writeTeams(t, s, "a", 10)
	// A reader's snapshot holds back the checkpoint, which copies only the frames it sees,
	// while more writes commit.
	ctx := context.Background()
	reader, err := s.rdb.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var n int
	if err := reader.QueryRow("SELECT COUNT(*) FROM teams").Scan(&n); err != nil {
		t.Fatal(err)
	}
	writeTeams(t, s, "b", 10)
	if err := s.checkpoint(); err != nil {
		t.Fatal(err)
	}
	if err := reader.Rollback(); err != nil {
		t.Fatal(err)
	}
	if s.finishCheckpoint.Load() {
		t.Fatal("checkpoint asked the writer to finish while a reader held back the copy")
	}
	frames, copied := walFrames(t, path)
	if copied >= frames {
		t.Fatalf("the checkpoint copied %d of %d frames; the test needs some left", copied, frames)
	}
	seq := walSequence(t, path)

	s.finishCheckpoint.Store(true)
	writeTeams(t, s, "c", 1)
	if got := walSequence(t, path); got != seq+1 {
		t.Errorf("WAL checkpoint sequence %d after the writer finished the checkpoint, want %d (started over)", got, seq+1)
	}
	if after, _ := walFrames(t, path); after >= frames {
		t.Errorf("WAL holds %d frames after starting over, had %d", after, frames)
	}
	if s.finishCheckpoint.Load() {
		t.Error("the writer left the request to finish a checkpoint standing")
	}
	for _, id := range []string{"a0", "b9", "c0"} {
		if _, err := s.Team(t.Context(), id); err != nil {
			t.Errorf("team %s after the WAL started over: %v", id, err)
		}
	}
}

// TestCheckpointAsksWriterOnlyForLongWAL checks when the checkpointer asks the writer to
// finish: once the WAL reaches the restart length and all of it is copied, not before.
func TestCheckpointAsksWriterOnlyForLongWAL(t *testing.T) {
	// The restart length is well above the frames that opening a new database (its migrations)
	// leaves in the WAL.
	const restart = 128
	s, path := openForCheckpoints(t, restart)
	var limit int
	if err := s.wdb.QueryRow("PRAGMA journal_size_limit").Scan(&limit); err != nil {
		t.Fatal(err)
	}
	if want := 2 * restart * (4096 + 24); limit != want {
		t.Errorf("journal_size_limit = %d, want %d (twice the restart length)", limit, want)
	}
	writeTeams(t, s, "a", 2)
	if err := s.checkpoint(); err != nil {
		t.Fatal(err)
	}
	if frames, _ := walFrames(t, path); frames >= restart || s.finishCheckpoint.Load() {
		t.Fatalf("a WAL of %d frames (under %d): asked the writer = %v, want false", frames, restart, s.finishCheckpoint.Load())
	}
	writeTeams(t, s, "b", 100)
	frames, _ := walFrames(t, path)
	if frames < restart {
		t.Fatalf("100 more writes left a WAL of %d frames; the test needs at least %d", frames, restart)
	}
	if err := s.checkpoint(); err != nil {
		t.Fatal(err)
	}
	if !s.finishCheckpoint.Load() {
		t.Errorf("a WAL of %d frames (%d or more): the checkpointer did not ask the writer to finish", frames, restart)
	}
}
