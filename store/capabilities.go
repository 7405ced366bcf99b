package store

import (
	"context"
	"time"
)

// Capabilities. Beside the Store interface, which every backend implements, a Store may have
// any of these optional interfaces. svc uses each one a Store has, and works without it, as
// its doc says. Both svc backends (store/sqlite and store/postgres) have them all but
// DeliveryWatcher, which only a database several processes share needs (store/postgres); the
// conformance suite (store/storetest) checks those a Store has.
//
//   - Pinger: a cheap readiness check, for GET /readyz (else a read).
//   - SharedSurveyReader: surveys read without a copy, on every widget request.
//   - SurveyModifier: a survey read and changed in one atomic step, for If-Match and merge
//     patches across processes (without it, a change of another process in between is lost).
//   - TextReader: responses' short texts apart from their answers, so a summary's cost does not
//     grow with the answers it does not show.
//   - PeriodCounter: the counts of many periods in one read, for trends (else one Counts per
//     period).
//   - DeliveryWatcher: wakes every process's webhook sender when any schedules a delivery
//     (else each polls once a second).
//   - OutboxCounter: the outbox's backlog, for metrics.
//   - PoolReporter: how busy the connections and writer are, for metrics.
//   - SegmentCounter (segments.go): counts per value of a team's declared segments, so that a
//     read filtered by one of them reads counts (else it reads the responses).

// Pinger is an optional interface of a Store that can tell cheaply whether it can serve: Ping
// returns nil when it can read its data, and an error (ErrClosed after Close) when it cannot.
// The handler's readiness probe uses it; a Store without it is probed with a read.
type Pinger interface {
	Ping(ctx context.Context) error
}

// SharedSurveyReader is an optional interface of a Store that keeps surveys in memory.
// SharedSurvey is Survey without the copy that protects the store's own survey from the
// caller: what it returns shares its questions with the store, and the caller must not
// change any of it. The handler reads surveys this way on every widget request, where the copy
// was 3% of a GET survey's CPU.
type SharedSurveyReader interface {
	SharedSurvey(ctx context.Context, teamID, id string) (Survey, error)
}

// SurveyModifier is an optional interface of a Store that changes a survey atomically: for
// changes that depend on the survey as it stands (a merge patch, an If-Match check, a secret's
// rotation) when several processes share the database. ModifySurvey reads the team's survey as
// stored, never from a cache, calls fn with it, and stores what fn leaves in it as UpdateSurvey
// does, with no other change of the survey between the read and the write, in this process or
// another. It returns the survey stored (its UpdatedAt as stored). An error of fn is returned as
// it is, and nothing changes. fn may run more than once, only the last run counting, so it must
// compute only from the survey it is given. It returns ErrNotFound for a survey the team does
// not hold. Use store.ModifySurvey, which falls back on Survey and UpdateSurvey for a Store
// without it.
type SurveyModifier interface {
	ModifySurvey(ctx context.Context, teamID, id string, fn func(*Survey) error) (Survey, error)
}

// DeliveryWatcher is an optional interface of a Store shared by several processes that can
// tell when a delivery was scheduled anywhere, so that every process's sender wakes at once
// rather than at its next poll. WatchDeliveries calls wake for each delivery scheduled (by any
// process) until ctx is done, reconnecting on its own after a failure; it returns ctx's error.
// A wake may be spurious, or several may be merged into one.
type DeliveryWatcher interface {
	WatchDeliveries(ctx context.Context, wake func()) error
}

// OutboxCounter is an optional interface of a Store that can count its webhook outbox:
// PendingDeliveries returns how many deliveries are pending or being sent. Metrics use it.
type OutboxCounter interface {
	PendingDeliveries(ctx context.Context) (int64, error)
}

// PoolReporter is an optional interface of a Store with a pool of database connections:
// PoolStats says how busy it is now, cheaply and without I/O. Metrics read it at each scrape.
type PoolReporter interface {
	PoolStats() PoolStats
}

// PoolStats is how busy a Store's connections and writer are.
type PoolStats struct {
	// MaxConns is the most connections the pool opens; InUse are running a query now, and Idle
	// are open and free.
	MaxConns, InUse, Idle int
	// Waits counts the queries that waited for a free connection since the Store opened, and
	// WaitTime is how long they waited in all. Both only grow.
	Waits    int64
	WaitTime time.Duration
	// QueuedWrites are the writes waiting for the Store's writer (group commit) now.
	QueuedWrites int
}

// TextReader is an optional interface of a Store that keeps each response's SummaryTexts
// apart from its answers. ResponseTexts lists them as Responses lists responses (newest first,
// or oldest with q.Oldest; q's survey, respondent, time bounds, cursor and limit; MaxBytes
// ignored), at a cost that does not grow with the size of the responses' other answers.
// The summary reads the texts it shows this way when the Store has it.
type TextReader interface {
	ResponseTexts(ctx context.Context, q ResponseQuery) (page []ResponseTexts, next *Cursor, err error)
}

// PeriodCounter is an optional interface of a Store that reads the counts of many consecutive
// periods at once. PeriodCounts returns, for each period [bounds[i], bounds[i+1]), what Counts
// returns for it (len(bounds)-1 maps, each with a map for every key asked), all read at one
// point in time; bounds must number at least two and not go back in time, or it returns an
// error wrapping ErrInvalid. A trend reads its buckets this way: one read of the days the
// buckets span, where a Counts per bucket would read the store again for each.
type PeriodCounter interface {
	PeriodCounts(ctx context.Context, surveyID string, keys []string, bounds []time.Time) ([]map[string]map[int]int64, error)
}
