package sqlite

import (
	"fmt"
	"time"
)

// checkpointInterval is how often the checkpointer copies the WAL into the database.
const checkpointInterval = 500 * time.Millisecond

// walRestartFrames is the length of the WAL (in frames: 512 MiB of 4 KiB pages) from which the
// checkpointer asks the writer to finish a checkpoint, so that the WAL starts over. Each start
// over syncs the pages copied since the last one while the writes go on; at 128 MiB the
// syncs came four times as often, and over 45 s of the PUT load p99 was 24-27 ms against
// 22-23 ms at 512 MiB (and 23 ms with a WAL left to grow, to 3 GB).
const walRestartFrames = 131072

// checkpointer runs checkpoints beside the writer every interval until Close.
func (s *Store) checkpointer(every time.Duration) {
	defer close(s.checkpointDone)
	if every < 0 {
		return
	}
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-s.closing:
			return
		case <-t.C:
			// A failed checkpoint is retried at the next tick; the WAL only grows meanwhile.
			_ = s.checkpoint()
		}
	}
}

// checkpoint copies the WAL into the database without waiting for the writer (a passive
// checkpoint), and asks the writer to finish the job once the WAL is long.
//
// SQLite starts the WAL over, at the writer's next transaction, only when every frame in it
// has been copied. Under steady writes a passive checkpoint never gets there: the writer
// commits new frames while it copies. The WAL would then grow for as long as the writes last
// (by 70 MB a second under the load benchmark) and never shrink. So once the WAL is long, the
// checkpointer runs again until a run finds few new frames, and then asks the writer to copy
// those few itself between two batches, when nothing else is writing. Its next transaction
// starts the WAL over.
//
// A checkpoint that does not reach the end of the WAL leaves the pages it copied unsynced:
// SQLite syncs the database file only when a checkpoint copies every frame, which under steady
// writes is the writer's. That sync then wrote out everything copied since the WAL last
// started over, and took 60 ms under the load benchmark with every write waiting. So each run
// of the checkpointer on a long WAL syncs the file itself, and the writer's sync finds only the
// last few pages to write. (Syncing after every run, or starting the kernel's writeback after
// every run, spread the writing out but cost the writes' own syncs more: PUT p99 27-35 ms
// under the load benchmark against 22-23 ms.)
func (s *Store) checkpoint() error {
	var (
		busy, frames, copied int
		syncErr              error
	)
	for i, prev := 0, -1; i < 4; i, prev = i+1, frames {
		if err := s.cdb.QueryRow("PRAGMA wal_checkpoint(PASSIVE)").Scan(&busy, &frames, &copied); err != nil {
			return fmt.Errorf("sqlite: checkpoint: %w", err)
		}
		if frames < s.walRestartFrames {
			return nil
		}
		// A failed sync only leaves more for the writer's: SQLite syncs the file at the end of
		// the writer's checkpoint all the same, so the WAL still starts over.
		if err := s.dbFile.Sync(); err != nil && syncErr == nil {
			syncErr = fmt.Errorf("sqlite: checkpoint: sync %s: %w", s.dbFile.Name(), err)
		}
		if prev >= 0 && frames-prev < s.walRestartFrames/256 {
			break
		}
	}
	// Unless a reader holds back the copy.
	if copied == frames {
		s.finishCheckpoint.Store(true)
	}
	return syncErr
}

// finishCheckpointIfAsked runs, in the writer between two batches, the last of a checkpoint the
// checkpointer asked for (see checkpoint). The checkpointer has just copied all but the latest
// frames, so this takes a few milliseconds at most. A failure leaves the WAL to grow until the
// next request.
func (s *Store) finishCheckpointIfAsked() {
	if s.finishCheckpoint.Swap(false) {
		_, _ = s.wdb.Exec("PRAGMA wal_checkpoint(PASSIVE)")
	}
}
