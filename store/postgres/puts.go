package postgres

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/svc-feedback/svc/store"
	"github.com/svc-feedback/svc/store/internal/sqlrow"
)

// Writes of responses are committed in batches: a few writer goroutines each take the writes
// waiting when they are free and run them in one transaction. Under load, one commit (one WAL
// flush) then serves many responses, and the counters and rollup rows that the responses share
// (same survey, same minute, same scores) are changed once per batch rather than once per
// response, which is what limited PostgreSQL's throughput. A write that arrives when a writer is
// idle runs at once, alone, so batching adds no wait when svc is quiet.
const (
	// maxPutBatch is Options.MaxBatch's default.
	maxPutBatch = 64
	// batchedWriteBytes is the size above which a write runs on its own, on the caller's
	// goroutine: a batch holds its writes' bodies in memory until it commits, and a bug
	// report's screenshot would make every batch-mate wait for its upload to the database.
	batchedWriteBytes = 64 << 10
	// putBatchTimeout bounds one batch's transaction, which runs on no caller's context.
	putBatchTimeout = 30 * time.Second
)

// putOp is one PutResponse call and, once run, its outcome.
type putOp struct {
	w          store.ResponseWrite
	sv         store.Survey
	data, meta []byte
	at         int64

	resp    store.Response
	created bool
	old     *store.Response // the stored response, when the id was taken
	err     error
	done    chan struct{}
}

// startWriters starts the writer goroutines that opts ask for; Close stops them.
func (s *Store) startWriters(opts *Options) {
	s.puts = make(chan *putOp)
	s.stopPuts = make(chan struct{})
	s.maxBatch = maxPutBatch
	writers := 1
	if opts != nil {
		if opts.MaxBatch > 0 {
			s.maxBatch = opts.MaxBatch
		}
		if opts.Writers > 0 {
			writers = opts.Writers
		}
		s.onCommit = opts.OnCommit
	}
	for range writers {
		s.writers.Add(1)
		go s.writer()
	}
}

// put runs op: alone if it is large, in a writer's next batch otherwise. Once a writer has
// taken op, put waits for its outcome rather than for ctx, so that a caller is never told of a
// failure for a response that is then committed.
func (s *Store) put(ctx context.Context, op *putOp) {
	size := len(op.data) + len(op.meta)
	if op.w.Telemetry != nil {
		size += len(*op.w.Telemetry)
	}
	if size > batchedWriteBytes {
		if err := s.runPuts(ctx, []*putOp{op}); err != nil {
			op.err = err
		}
		return
	}
	op.done = make(chan struct{})
	select {
	case s.puts <- op:
		<-op.done
	case <-ctx.Done():
		op.err = fmt.Errorf("put response %s: %w", op.w.ID, ctx.Err())
	case <-s.stopPuts:
		op.err = fmt.Errorf("put response %s: %w", op.w.ID, store.ErrClosed)
	}
}

// writer runs batches until Close: it takes a write, adds the writes waiting now, and runs them.
// A write for a response already in the batch waits for the next, so that a batch writes each
// response once.
func (s *Store) writer() {
	defer s.writers.Done()
	batch := make([]*putOp, 0, s.maxBatch)
	var next *putOp
	for {
		if next == nil {
			select {
			case next = <-s.puts:
			case <-s.stopPuts:
				return
			}
		}
		batch = append(batch[:0], next)
		next = s.takePuts(&batch)
		s.runBatch(batch)
		for _, op := range batch {
			close(op.done)
		}
	}
}

// takePuts moves the writes waiting now into the batch, as far as it has room, up to one for a
// response the batch already writes, which it returns.
func (s *Store) takePuts(batch *[]*putOp) *putOp {
	for len(*batch) < s.maxBatch {
		select {
		case op := <-s.puts:
			if slices.ContainsFunc(*batch, func(o *putOp) bool { return o.w.SurveyID == op.w.SurveyID && o.w.ID == op.w.ID }) {
				return op
			}
			*batch = append(*batch, op)
		default:
			return nil
		}
	}
	return nil
}

// runBatch runs a batch in one transaction. When it fails (a write PostgreSQL refuses, or a
// deadlock with another instance), nothing of it was committed, and each write runs again in a
// transaction of its own, so that only a failing write fails.
func (s *Store) runBatch(batch []*putOp) {
	run := func(ops []*putOp) error {
		ctx, cancel := context.WithTimeout(context.Background(), putBatchTimeout)
		defer cancel()
		return s.runPuts(ctx, ops)
	}
	err := run(batch)
	switch {
	case err == nil:
	case len(batch) == 1:
		batch[0].err = err
	default:
		for _, op := range batch {
			if err := run([]*putOp{op}); err != nil {
				op.err = err
			}
		}
	}
}

// runPuts runs writes in one transaction and tells Options.OnCommit once it has committed.
func (s *Store) runPuts(ctx context.Context, ops []*putOp) error {
	start := time.Now()
	err := s.transactPuts(ctx, ops)
	if err == nil && s.onCommit != nil {
		s.onCommit(len(ops), time.Since(start))
	}
	return err
}

// transactPuts runs writes in one transaction of three round trips at most: BEGIN with the
// inserts, which tell which responses are new; the existing ones locked, if any; then
// everything that follows from the writes, and the COMMIT. Each write's own failures (another
// respondent's id, a response deleted meanwhile) are its error and leave the others be; an
// error returned fails them all, and nothing was committed.
func (s *Store) transactPuts(ctx context.Context, ops []*putOp) error {
	slices.SortFunc(ops, func(a, b *putOp) int { // one lock order for every transaction
		return cmpKeys(a.w.SurveyID, a.w.ID, b.w.SurveyID, b.w.ID)
	})
	what := "put responses"
	if len(ops) == 1 {
		what = "put response " + ops[0].w.ID
	}
	return s.pipelined(ctx, what, func(conn querier) error {
		for _, op := range ops {
			op.resp, op.created, op.old, op.err = store.Response{}, false, nil, nil
		}
		if err := insertResponses(ctx, conn, ops); err != nil {
			return err
		}
		if err := s.lockTaken(ctx, conn, ops); err != nil {
			return err
		}
		var b pgx.Batch
		s.queueFollowUps(&b, rowOf(conn), ops)
		b.Queue(`COMMIT`)
		return conn.SendBatch(ctx, &b).Close()
	})
}

func cmpKeys(s1, id1, s2, id2 string) int {
	if c := strings.Compare(s1, s2); c != 0 {
		return c
	}
	return strings.Compare(id1, id2)
}

// insertResponses begins the transaction and inserts every write's response unless its id is
// taken, marking the ones inserted as created.
func insertResponses(ctx context.Context, conn querier, ops []*putOp) error {
	var b pgx.Batch
	b.Queue(`BEGIN`)
	for _, op := range ops {
		w := op.w
		b.Queue(`INSERT INTO responses (survey_id, id, respondent, data, metadata, telemetry, created_at, updated_at, finished)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $7, $8) ON CONFLICT (survey_id, id) DO NOTHING RETURNING true`,
			w.SurveyID, w.ID, w.Respondent, op.data, op.meta, w.Telemetry, op.at, w.Finished)
	}
	br := conn.SendBatch(ctx, &b)
	_, err := br.Exec()
	for _, op := range ops {
		if err != nil {
			break
		}
		if err = br.QueryRow().Scan(&op.created); errors.Is(err, pgx.ErrNoRows) {
			err = nil // the id is taken: an update
		}
	}
	return errors.Join(err, br.Close())
}

// lockTaken locks and reads the stored responses of the writes whose ids were taken.
func (s *Store) lockTaken(ctx context.Context, conn querier, ops []*putOp) error {
	var b pgx.Batch
	for _, op := range ops {
		if !op.created {
			b.Queue(`SELECT `+responseColumns+` FROM responses WHERE survey_id = $1 AND id = $2 FOR UPDATE`, op.w.SurveyID, op.w.ID)
		}
	}
	if b.Len() == 0 {
		return nil
	}
	br := conn.SendBatch(ctx, &b)
	for _, op := range ops {
		if op.created {
			continue
		}
		old, err := scanResponse(br.QueryRow())
		switch {
		case errors.Is(err, pgx.ErrNoRows): // deleted since the insert found it
			op.err = s.mapErr(err, "put response "+op.w.ID)
		case err != nil:
			return errors.Join(err, br.Close())
		default:
			op.old = &old
		}
	}
	return br.Close()
}

// followUps gathers what a batch's writes change besides their responses, so that each
// counter, history and rollup row changes once per batch.
type followUps struct {
	tallies map[string]*tally // by survey
	touches touches
	ratings ratingDeltas
}

// tally is what a batch adds to one survey's counters.
type tally struct {
	respondents       []string // of the created responses
	created, finished int64
}

func (f *followUps) tally(surveyID string) *tally {
	t := f.tallies[surveyID]
	if t == nil {
		t = &tally{}
		f.tallies[surveyID] = t
	}
	return t
}

// queueFollowUps queues, for every write that has no error of its own, its update (for a taken
// id), the counters, the respondent's history, the rollups and the webhook delivery; and
// settles each write's outcome, which holds once the batch commits.
func (s *Store) queueFollowUps(b *pgx.Batch, row int, ops []*putOp) {
	f := followUps{tallies: map[string]*tally{}, touches: touches{}, ratings: ratingDeltas{}}
	notify := false
	for _, op := range ops {
		switch {
		case op.err != nil:
		case op.created:
			notify = s.queueCreated(b, &f, op) || notify
		default:
			s.queueUpdated(b, &f, op)
		}
	}
	surveys := make([]string, 0, len(f.tallies))
	for id := range f.tallies {
		surveys = append(surveys, id)
	}
	slices.Sort(surveys)
	for _, id := range surveys {
		t := f.tallies[id]
		slices.Sort(t.respondents)
		countFirsts(b, row, id, responded, slices.Compact(t.respondents), t.created, t.finished)
	}
	f.touches.queue(b, responded.column)
	f.ratings.queue(b, row)
	if notify {
		b.Queue(`SELECT pg_notify($1, '')`, deliveriesChannel)
	}
}

// queueCreated adds a new response's follow-ups; it reports whether it scheduled a delivery.
func (s *Store) queueCreated(b *pgx.Batch, f *followUps, op *putOp) bool {
	w, sv := op.w, op.sv
	op.resp = store.Response{ID: w.ID, SurveyID: w.SurveyID, Respondent: w.Respondent, Data: op.data, Metadata: op.meta,
		Telemetry: w.Telemetry, Finished: w.Finished, CreatedAt: sqlrow.FromMS(op.at), UpdatedAt: sqlrow.FromMS(op.at)}
	t := f.tally(w.SurveyID)
	t.created++
	t.respondents = append(t.respondents, w.Respondent)
	if w.Finished {
		t.finished++
	}
	f.touches.add(w.SurveyID, w.Respondent, op.at)
	f.ratings.add(w.SurveyID, store.Counts(&sv.Definition, w.Data, w.Finished), op.at, 1)
	if sv.WebhookURL == "" || w.Imported {
		return false
	}
	b.Queue(`INSERT INTO deliveries (id, survey_id, response_id, state, next_attempt_at, created_at, updated_at)
		VALUES ($1, $2, $3, 'pending', $5, $4, $4)`, "dlv_"+s.ids.New(), w.SurveyID, w.ID, op.at,
		sqlrow.MS(sv.DeliveryDue(sqlrow.FromMS(op.at), w.Finished)))
	return true
}

// queueUpdated replaces the answers of an existing response of the same respondent; an
// imported write changes nothing.
func (s *Store) queueUpdated(b *pgx.Batch, f *followUps, op *putOp) {
	w, sv, old := op.w, op.sv, *op.old
	switch {
	case w.Imported:
		op.resp = old
		return
	case old.Respondent != w.Respondent:
		op.err = fmt.Errorf("put response %s: %w", w.ID, store.Conflictf("the id belongs to another respondent's response"))
		return
	}
	oldCounts, err := sqlrow.StoredCounts(&sv.Definition, old.Data, old.Finished)
	if err != nil {
		op.err = fmt.Errorf("put response %s: %w", w.ID, err)
		return
	}
	finished := old.Finished || w.Finished // a finished response stays finished
	b.Queue(`UPDATE responses SET data = $1, metadata = $2, telemetry = $3, updated_at = $4, finished = $5 WHERE survey_id = $6 AND id = $7`,
		op.data, op.meta, w.Telemetry, op.at, finished, w.SurveyID, w.ID)
	if finished && !old.Finished {
		f.tally(w.SurveyID).finished++
	}
	f.touches.add(w.SurveyID, w.Respondent, op.at)
	// The scores move in the rollups, which stay on the response's creation time.
	gone, added := sqlrow.Changed(oldCounts, store.Counts(&sv.Definition, w.Data, finished))
	f.ratings.add(w.SurveyID, gone, sqlrow.MS(old.CreatedAt), -1)
	f.ratings.add(w.SurveyID, added, sqlrow.MS(old.CreatedAt), 1)
	if sv.WebhookURL != "" && sv.WebhookWaitSeconds > 0 {
		// Not yet attempted: due the wait after this write, or now once finished.
		b.Queue(`UPDATE deliveries SET next_attempt_at = $1, updated_at = $2
			WHERE survey_id = $3 AND response_id = $4 AND state = 'pending' AND attempts = 0`,
			sqlrow.MS(sv.DeliveryDue(sqlrow.FromMS(op.at), finished)), op.at, w.SurveyID, w.ID)
	}
	op.resp = store.Response{ID: w.ID, SurveyID: w.SurveyID, Respondent: w.Respondent, Data: op.data, Metadata: op.meta,
		Telemetry: w.Telemetry, Finished: finished, CreatedAt: old.CreatedAt, UpdatedAt: sqlrow.FromMS(op.at)}
}
