package postgres

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/jackc/pgx/v5"

	"github.com/svc-feedback/svc/store"
	"github.com/svc-feedback/svc/store/internal/sqlrow"
)

// insertWrites begins the transaction, inserts every response unless its id is taken, marking
// the ones inserted as created, and the events, in one statement; and reads the segments of the
// responses' teams (queueSegments), which it returns (nil for a batch of events only).
func insertWrites(ctx context.Context, conn querier, ops []*writeOp) (*segBatch, error) {
	var b pgx.Batch
	b.Queue(`BEGIN`)
	var events eventRows
	responses := false
	for _, op := range ops {
		if op.event != nil {
			events.add(*op.event)
			continue
		}
		responses = true
		w := op.w
		b.Queue(`INSERT INTO responses (survey_id, id, respondent, data, metadata, telemetry, created_at, updated_at, finished, texts, language)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $7, $8, $9, $10) ON CONFLICT (survey_id, id) DO NOTHING RETURNING true`,
			w.SurveyID, w.ID, w.Respondent, op.data, op.meta, w.Telemetry, op.at, w.Finished, textsParam(op.texts), w.Language)
	}
	events.queue(&b)
	if responses {
		queueSegments(&b, ops)
	}
	br := conn.SendBatch(ctx, &b)
	_, err := br.Exec()
	for _, op := range ops {
		if err != nil {
			break
		}
		if op.event != nil {
			continue
		}
		if err = br.QueryRow().Scan(&op.created); errors.Is(err, pgx.ErrNoRows) {
			err = nil // the id is taken: an update
		}
	}
	if err == nil && len(events.surveys) > 0 {
		_, err = br.Exec()
	}
	var sb *segBatch
	if err == nil && responses {
		sb, err = readSegments(br)
	}
	return sb, errors.Join(err, br.Close())
}

// lockTaken locks and reads the stored responses of the writes whose ids were taken.
func (s *Store) lockTaken(ctx context.Context, conn querier, ops []*writeOp) error {
	var b pgx.Batch
	for _, op := range ops {
		if op.event == nil && !op.created {
			b.Queue(`SELECT `+responseColumns+`, seg_gen, seg_buckets FROM responses WHERE survey_id = $1 AND id = $2 FOR UPDATE`, op.w.SurveyID, op.w.ID)
		}
	}
	if b.Len() == 0 {
		return nil
	}
	br := conn.SendBatch(ctx, &b)
	for _, op := range ops {
		if op.event != nil || op.created {
			continue
		}
		old, err := scanResponse(withSegments{br.QueryRow(), &op.oldGen, &op.oldBuckets})
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

// queueCreated adds a new response's follow-ups; it reports whether it scheduled a delivery.
func (s *Store) queueCreated(b *pgx.Batch, f *followUps, sb *segBatch, op *writeOp) bool {
	w, sv := op.w, op.sv
	op.resp = store.Response{ID: w.ID, SurveyID: w.SurveyID, Respondent: w.Respondent, Data: op.data, Metadata: op.meta,
		Telemetry: w.Telemetry, Language: w.Language, Finished: w.Finished, CreatedAt: sqlrow.FromMS(op.at), UpdatedAt: sqlrow.FromMS(op.at)}
	f.interact(w.SurveyID, w.Respondent, responded, op.at)
	if w.Finished {
		f.tally(w.SurveyID).finished++
	}
	counts := store.ResponseCounts(&sv.Definition, w.Data, w.Finished)
	addChanges(f.ratings, w.SurveyID, counts, op.at, 1)
	if sg := sb.teams[sv.TeamID]; len(sg.Segments) > 0 {
		mark := sb.mark(sv, w)
		addChanges(f.ratings, w.SurveyID, store.SegmentCounts(mark, counts), op.at, 1)
		b.Queue(`UPDATE responses SET seg_gen = $1, seg_buckets = $2 WHERE survey_id = $3 AND id = $4`, mark.Gen, store.EncodeMark(mark), w.SurveyID, w.ID)
	}
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
func (s *Store) queueUpdated(b *pgx.Batch, f *followUps, sb *segBatch, op *writeOp) {
	w, sv, old := op.w, op.sv, *op.old
	switch {
	case w.Imported:
		op.resp = old
		return
	case old.Respondent != w.Respondent:
		op.err = fmt.Errorf("put response %s: %w", w.ID, store.Conflictf("the id belongs to another respondent's response"))
		return
	}
	oldCounts, err := sqlrow.StoredCounts(nil, &sv.Definition, old.Data, old.Finished)
	if err != nil {
		op.err = fmt.Errorf("put response %s: %w", w.ID, err)
		return
	}
	sg := sb.teams[sv.TeamID]
	oldMark, err := storedMark(sg.Gen, op.oldGen, op.oldBuckets)
	if err != nil {
		op.err = fmt.Errorf("put response %s: %w", w.ID, err)
		return
	}
	mark := sb.mark(sv, w)
	finished := old.Finished || w.Finished // a finished response stays finished
	b.Queue(`UPDATE responses SET data = $1, metadata = $2, telemetry = $3, updated_at = $4, finished = $5, texts = $6, language = $7,
		seg_gen = $10, seg_buckets = $11 WHERE survey_id = $8 AND id = $9`,
		op.data, op.meta, w.Telemetry, op.at, finished, textsParam(op.texts), w.Language, w.SurveyID, w.ID, mark.Gen, store.EncodeMark(mark))
	if finished && !old.Finished {
		f.tally(w.SurveyID).finished++
	}
	f.touch(w.SurveyID, w.Respondent, responded, op.at)
	// The scores move in the rollups, which stay on the response's creation time.
	newCounts := store.ResponseCounts(&sv.Definition, w.Data, finished)
	gone, added := sqlrow.Changed(slices.Concat(oldCounts, store.SegmentCounts(oldMark, oldCounts)),
		slices.Concat(newCounts, store.SegmentCounts(mark, newCounts)))
	addChanges(f.ratings, w.SurveyID, gone, sqlrow.MS(old.CreatedAt), -1)
	addChanges(f.ratings, w.SurveyID, added, sqlrow.MS(old.CreatedAt), 1)
	if sv.WebhookURL != "" && sv.WebhookWaitSeconds > 0 {
		// Not yet attempted: due the wait after this write, or now once finished.
		b.Queue(`UPDATE deliveries SET next_attempt_at = $1, updated_at = $2
			WHERE survey_id = $3 AND response_id = $4 AND state = 'pending' AND attempts = 0`,
			sqlrow.MS(sv.DeliveryDue(sqlrow.FromMS(op.at), finished)), op.at, w.SurveyID, w.ID)
	}
	op.resp = store.Response{ID: w.ID, SurveyID: w.SurveyID, Respondent: w.Respondent, Data: op.data, Metadata: op.meta,
		Telemetry: w.Telemetry, Language: w.Language, Finished: finished, CreatedAt: old.CreatedAt, UpdatedAt: sqlrow.FromMS(op.at)}
}

// eventRows are new events, as the arrays of one insert.
type eventRows struct {
	surveys, respondents, types []string
	ats                         []int64
}

func (r *eventRows) add(e store.Event) {
	r.surveys, r.respondents = append(r.surveys, e.SurveyID), append(r.respondents, e.Respondent)
	r.types, r.ats = append(r.types, string(e.Type)), append(r.ats, e.At.UnixMilli())
}

func (r *eventRows) queue(b *pgx.Batch) {
	if len(r.surveys) > 0 {
		b.Queue(`INSERT INTO events (survey_id, respondent, type, created_at, imported)
			SELECT *, false FROM unnest($1::text[], $2::text[], $3::text[], $4::bigint[])`, r.surveys, r.respondents, r.types, r.ats)
	}
}

// textsParam is a response's SummaryTexts as a parameter: NULL for none.
func textsParam(texts []byte) any {
	if texts == nil {
		return nil
	}
	return texts
}
