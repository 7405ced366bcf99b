package sqlite

import (
	"bytes"
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/svc-feedback/svc/store"
	"github.com/svc-feedback/svc/store/internal/rollup"
	"github.com/svc-feedback/svc/store/internal/sqlrow"
)

// PutResponse implements store.Store. The survey's webhook URL and rating questions come
// from the read cache, in the caller's goroutine, so the writer only runs the writes.
func (s *Store) PutResponse(ctx context.Context, w store.ResponseWrite) (store.Response, bool, error) {
	sv, err := s.surveyByID(ctx, w.SurveyID)
	if err != nil {
		return store.Response{}, false, fmt.Errorf("put response: %w", err)
	}
	data, meta, err := sqlrow.EncodeWrite(w)
	if err != nil {
		return store.Response{}, false, fmt.Errorf("put response: %w", err)
	}
	sc := store.ResponseCounts(&sv.Definition, w.Data, w.Finished)
	texts := store.SummaryTexts(w.Data)
	at := sqlrow.MS(w.At)
	var (
		resp    store.Response
		created bool
	)
	err = s.write(ctx, func(tx *sql.Tx) error {
		created = false
		sg, err := segmentationIn(tx, sv.TeamID)
		if err != nil {
			return err
		}
		mark, err := s.markIn(tx, sg, w.SurveyID, &sv.Definition, w.Data, w.Metadata, w.Language)
		if err != nil {
			return fmt.Errorf("put response %s: %w", w.ID, err)
		}
		buckets := store.EncodeMark(mark)
		res, err := tx.Exec(`INSERT INTO responses (survey_id, id, respondent, data, metadata, telemetry, created_at, updated_at, finished, texts, language, seg_gen, seg_buckets)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (survey_id, id) DO NOTHING`,
			w.SurveyID, w.ID, w.Respondent, data, meta, w.Telemetry, at, at, w.Finished, nullText(texts), w.Language, mark.Gen, buckets)
		if err != nil {
			return s.mapErr(err, "put response "+w.ID)
		}
		if n, _ := res.RowsAffected(); n == 1 {
			created = true
			resp, err = s.createdResponse(tx, w, data, meta, at, sv, slices.Concat(sc, store.SegmentCounts(mark, sc)))
			return err
		}
		var (
			oldRespondent string
			oldCreated    int64
			oldData       []byte
			oldFinished   bool
			oldGen        int64
			oldBuckets    string
		)
		err = tx.QueryRow(`SELECT respondent, created_at, data, finished, seg_gen, seg_buckets FROM responses WHERE survey_id = ? AND id = ?`,
			w.SurveyID, w.ID).Scan(&oldRespondent, &oldCreated, &oldData, &oldFinished, &oldGen, &oldBuckets)
		switch {
		case err != nil:
			return s.mapErr(err, "put response "+w.ID)
		case w.Imported:
			resp, err = readResponse(tx, w.SurveyID, w.ID)
			return err
		case oldRespondent != w.Respondent:
			return fmt.Errorf("put response %s: %w", w.ID, store.Conflictf("the id belongs to another respondent's response"))
		}
		old, err := sqlrow.StoredCounts(&s.answers, &sv.Definition, oldData, oldFinished)
		if err != nil {
			return fmt.Errorf("put response %s: %w", w.ID, err)
		}
		oldMark, err := storedMark(sg.Gen, oldGen, oldBuckets)
		if err != nil {
			return fmt.Errorf("put response %s: %w", w.ID, err)
		}
		// The counts of a finished response stay finished, as the response does.
		now := sc
		if oldFinished && !w.Finished {
			now = store.ResponseCounts(&sv.Definition, w.Data, true)
		}
		old = slices.Concat(old, store.SegmentCounts(oldMark, old))
		now = slices.Concat(now, store.SegmentCounts(mark, now))
		resp, err = s.updateResponse(tx, w, data, meta, texts, at, oldCreated, oldFinished, old, now, mark)
		if err == nil && sv.WebhookURL != "" && sv.WebhookWaitSeconds > 0 {
			err = s.postponeDelivery(tx, sv, w, at, resp.Finished)
		}
		return err
	})
	if created || err != nil {
		s.persons.Drop(w.Respondent) // they have responded now (or may have, if the outcome is unknown)
	}
	if err != nil {
		return store.Response{}, false, err
	}
	return resp, created, nil
}

// createdResponse records what follows the insert of a new response: its ratings, the
// counters, and its webhook delivery. The respondent's history needs no write: History reads
// the time of a respondent's newest response from the respondent index, which the insert has
// just extended.
func (s *Store) createdResponse(tx *sql.Tx, w store.ResponseWrite, data, meta []byte, at int64, sv store.Survey, sc []store.Count) (store.Response, error) {
	for _, c := range sc {
		s.op.rating(w.SurveyID, c.Key, c.N, at, 1)
	}
	if err := countIfFirstResponse(tx, w.SurveyID, w.Respondent, w.ID); err != nil {
		return store.Response{}, err
	}
	st := s.op.statsOf(w.SurveyID)
	st.responses++
	if w.Finished {
		st.finished++
	}
	if sv.WebhookURL != "" && !w.Imported {
		due := sqlrow.MS(sv.DeliveryDue(sqlrow.FromMS(at), w.Finished))
		if _, err := tx.Exec(`INSERT INTO deliveries (id, survey_id, response_id, state, next_attempt_at, created_at, updated_at)
			VALUES (?, ?, ?, 'pending', ?, ?, ?)`, "dlv_"+s.ids.New(), w.SurveyID, w.ID, due, at, at); err != nil {
			return store.Response{}, s.mapErr(err, "schedule delivery")
		}
	}
	t := sqlrow.FromMS(at)
	return store.Response{ID: w.ID, SurveyID: w.SurveyID, Respondent: w.Respondent, Data: data, Metadata: meta,
		Telemetry: w.Telemetry, Language: w.Language, Finished: w.Finished, CreatedAt: t, UpdatedAt: t}, nil
}

// updateResponse replaces a response's answers and segment mark, moving its scores in the
// rollups (which stay on the response's creation time) from old to sc.
func (s *Store) updateResponse(tx *sql.Tx, w store.ResponseWrite, data, meta, texts []byte, at, createdAt int64, wasFinished bool, old, sc []store.Count, mark store.SegmentMark) (store.Response, error) {
	finished := wasFinished || w.Finished // a finished response stays finished
	_, err := tx.Exec(`UPDATE responses SET data = ?, metadata = ?, telemetry = ?, updated_at = ?, finished = ?, texts = ?, language = ?,
		seg_gen = ?, seg_buckets = ? WHERE survey_id = ? AND id = ?`,
		data, meta, w.Telemetry, at, finished, nullText(texts), w.Language, mark.Gen, store.EncodeMark(mark), w.SurveyID, w.ID)
	if err != nil {
		return store.Response{}, s.mapErr(err, "update response "+w.ID)
	}
	if finished && !wasFinished {
		s.op.statsOf(w.SurveyID).finished++
	}
	gone, added := sqlrow.Changed(old, sc)
	for _, c := range gone {
		s.op.rating(w.SurveyID, c.Key, c.N, createdAt, -1)
	}
	for _, c := range added {
		s.op.rating(w.SurveyID, c.Key, c.N, createdAt, 1)
	}
	// An update's time is not in the respondent index, which orders by creation: History reads
	// it from the respondents table.
	if _, err := s.touchRespondent(tx, w.SurveyID, w.Respondent, "last_responded_at", at, 0); err != nil {
		return store.Response{}, err
	}
	return store.Response{ID: w.ID, SurveyID: w.SurveyID, Respondent: w.Respondent, Data: data, Metadata: meta,
		Telemetry: w.Telemetry, Language: w.Language, Finished: finished, CreatedAt: sqlrow.FromMS(createdAt), UpdatedAt: sqlrow.FromMS(at)}, nil
}

// postponeDelivery moves the delivery of a response written at, not yet attempted, to when the
// survey's webhook wait says: the wait after this write, or now once the response is finished.
func (s *Store) postponeDelivery(tx *sql.Tx, sv store.Survey, w store.ResponseWrite, at int64, finished bool) error {
	due := sqlrow.MS(sv.DeliveryDue(sqlrow.FromMS(at), finished))
	_, err := tx.Exec(`UPDATE deliveries SET next_attempt_at = ?, updated_at = ?
		WHERE survey_id = ? AND response_id = ? AND state = 'pending' AND attempts = 0`, due, at, w.SurveyID, w.ID)
	return s.mapErr(err, "postpone delivery")
}

const responseColumns = `id, survey_id, respondent, data, metadata, telemetry, language, finished, created_at, updated_at`

func scanResponse(row interface{ Scan(...any) error }) (store.Response, error) {
	var (
		r                 store.Response
		data, meta        []byte
		telemetry         sql.NullString
		created, modified int64
	)
	if err := row.Scan(&r.ID, &r.SurveyID, &r.Respondent, &data, &meta, &telemetry, &r.Language, &r.Finished, &created, &modified); err != nil {
		return store.Response{}, err
	}
	r.Data, r.Metadata = data, meta
	if telemetry.Valid {
		r.Telemetry = &telemetry.String
	}
	r.CreatedAt, r.UpdatedAt = sqlrow.FromMS(created), sqlrow.FromMS(modified)
	return r, nil
}

func readResponse(tx *sql.Tx, surveyID, id string) (store.Response, error) {
	r, err := scanResponse(tx.QueryRow(`SELECT `+responseColumns+` FROM responses WHERE survey_id = ? AND id = ?`, surveyID, id))
	return r, mapErr(err, "read response "+id)
}

// Responses implements store.Store.
func (s *Store) Responses(ctx context.Context, q store.ResponseQuery) ([]store.Response, *store.Cursor, error) {
	if err := s.checkOpen("list responses"); err != nil {
		return nil, nil, err
	}
	if q.Limit <= 0 {
		return nil, nil, fmt.Errorf("list responses: %w", store.Invalidf("limit must be positive"))
	}
	sqlq, args := responsesQuery(q)
	page := make([]store.Response, 0, min(q.Limit+1, 101))
	limit := q.Limit
	// The page is read from the driver's rows directly: database/sql's Scan would convert and
	// copy every column of every row again, 12-15% of a page request's CPU. The driver hands
	// out a fresh copy of each value for each row, which the page keeps (database/sql's driver
	// contract would let a driver reuse a buffer; the conformance suite's list test gives every
	// row metadata of its own, and fails if a driver upgrade starts doing so).
	conn, err := s.rdb.Conn(ctx)
	if err != nil {
		return nil, nil, s.mapErr(err, "list responses")
	}
	defer conn.Close()
	err = conn.Raw(func(dc any) error {
		qc, ok := dc.(driver.QueryerContext)
		if !ok {
			return errors.New("the driver cannot query")
		}
		named := make([]driver.NamedValue, len(args))
		for i, a := range args {
			named[i] = driver.NamedValue{Ordinal: i + 1, Value: a}
		}
		rows, err := qc.QueryContext(ctx, sqlq, named)
		if err != nil {
			return err
		}
		defer rows.Close()
		page, limit, err = appendResponseRows(page, rows, q)
		return err
	})
	if err != nil {
		return nil, nil, s.mapErr(err, "list responses")
	}
	page, next := sqlrow.Trim(page, limit, func(r store.Response) store.Cursor {
		return store.Cursor{CreatedAt: r.CreatedAt, ID: r.ID}
	})
	return page, next, nil
}

// nullText is texts as a column value: NULL for none.
func nullText(texts []byte) any {
	if texts == nil {
		return nil
	}
	return string(texts)
}

var _ store.TextReader = (*Store)(nil)

// ResponseTexts implements store.TextReader from the page index, which holds the texts: the
// responses' rows, and their overflow pages of large answers, are not read.
func (s *Store) ResponseTexts(ctx context.Context, q store.ResponseQuery) ([]store.ResponseTexts, *store.Cursor, error) {
	if err := s.checkOpen("list response texts"); err != nil {
		return nil, nil, err
	}
	if q.Limit <= 0 {
		return nil, nil, fmt.Errorf("list response texts: %w", store.Invalidf("limit must be positive"))
	}
	from := `SELECT id, created_at, texts FROM responses INDEXED BY responses_page`
	if q.Respondent != "" {
		from = `SELECT id, created_at, texts FROM responses` // through the respondent's index
	}
	sqlq, args := pageQuery(from, q)
	rows, err := s.rdb.QueryContext(ctx, sqlq, args...)
	if err != nil {
		return nil, nil, s.mapErr(err, "list response texts")
	}
	defer rows.Close()
	var page []store.ResponseTexts
	for rows.Next() {
		var (
			t       store.ResponseTexts
			created int64
			texts   []byte
		)
		if err := rows.Scan(&t.ID, &created, &texts); err != nil {
			return nil, nil, s.mapErr(err, "list response texts")
		}
		t.CreatedAt, t.Texts = sqlrow.FromMS(created), texts
		page = append(page, t)
	}
	if err := rows.Err(); err != nil {
		return nil, nil, s.mapErr(err, "list response texts")
	}
	page, next := sqlrow.Trim(page, q.Limit, func(t store.ResponseTexts) store.Cursor { return store.Cursor{CreatedAt: t.CreatedAt, ID: t.ID} })
	return page, next, nil
}

// responsesQuery builds the query of a page of responses, one more than the limit.
func responsesQuery(q store.ResponseQuery) (string, []any) {
	// Data and metadata come as one value, joined by a NUL byte (which JSON text never
	// contains): each value the driver hands out costs two allocations.
	return pageQuery(`SELECT id, respondent, CAST(data || x'00' || metadata AS BLOB), created_at, updated_at, finished, language FROM responses`, q)
}

// pageQuery completes a selection of responses with q's conditions, order and limit (one more
// than q.Limit, which tells whether more follow).
func pageQuery(selection string, q store.ResponseQuery) (string, []any) {
	sqlq := selection + ` WHERE survey_id = +?`
	args := []any{q.SurveyID}
	if q.Respondent != "" {
		sqlq += ` AND respondent = +?`
		args = append(args, q.Respondent)
	}
	after, before := sqlrow.TimeBounds(q)
	if !after.IsZero() {
		sqlq += ` AND created_at >= ?`
		args = append(args, sqlrow.MS(after))
	}
	if !before.IsZero() {
		sqlq += ` AND created_at <= ?`
		args = append(args, sqlrow.MS(before))
	}
	sqlq, args = narrow(sqlq, args, q.Narrow)
	cmp, order := "<", "DESC"
	if q.Oldest {
		cmp, order = ">", "ASC"
	}
	if q.Cursor != nil {
		sqlq += ` AND (created_at, id) ` + cmp + ` (?, ?)`
		args = append(args, sqlrow.MS(q.Cursor.CreatedAt), q.Cursor.ID)
	}
	sqlq += ` ORDER BY created_at ` + order + `, id ` + order + ` LIMIT +?`
	return sqlq, append(args, int64(q.Limit+1)) // the driver takes int64, not int
}

// appendResponseRows appends the responses of the driver's rows to page, and returns the page's
// size: q.Limit, or fewer when the responses' data and metadata reach q.MaxBytes first. Rows
// are read up to one past that size, which tells whether more follow.
func appendResponseRows(page []store.Response, rows driver.Rows, q store.ResponseQuery) ([]store.Response, int, error) {
	// One set of destinations for the page: taken by address into scanValues's arguments,
	// fresh variables would be moved to the heap for every row.
	var (
		id, respondent    string
		both              []byte
		created, modified int64
		finished          int64
		language          string
	)
	values := make([]driver.Value, 7)
	dest := []any{&id, &respondent, &both, &created, &modified, &finished, &language}
	limit, size := q.Limit, 0
	for len(page) <= limit {
		if err := rows.Next(values); err == io.EOF {
			break
		} else if err != nil {
			return page, limit, err
		}
		if err := scanValues(values, dest...); err != nil {
			return page, limit, err
		}
		end := bytes.IndexByte(both, 0)
		if end < 0 {
			return page, limit, fmt.Errorf("response %s: stored data and metadata do not split", id)
		}
		// Capped, so that appending to the data cannot overwrite the metadata after it.
		data, meta := both[:end:end], both[end+1:]
		page = append(page, store.Response{ID: id, SurveyID: q.SurveyID, Respondent: respondent, Data: data, Metadata: meta,
			Language: language, Finished: finished != 0, CreatedAt: sqlrow.FromMS(created), UpdatedAt: sqlrow.FromMS(modified)})
		if size += len(both) - 1; q.MaxBytes > 0 && size >= q.MaxBytes && len(page) < limit {
			limit = len(page) // the page is full by size: one more row tells whether more follow
		}
	}
	return page, limit, nil
}

// scanValues stores a row's values, as the driver returned them, in dest: *string, *[]byte or
// *int64, each taking the driver's own types for it (text may come as []byte, a blob as string).
func scanValues(row []driver.Value, dest ...any) error {
	for i, d := range dest {
		v := row[i]
		switch d := d.(type) {
		case *string:
			switch v := v.(type) {
			case string:
				*d = v
			case []byte:
				*d = string(v)
			default:
				return fmt.Errorf("column %d: %T is not text", i, v)
			}
		case *[]byte:
			switch v := v.(type) {
			case []byte:
				*d = v
			case string:
				*d = []byte(v)
			case nil:
				*d = nil
			default:
				return fmt.Errorf("column %d: %T is not a blob", i, v)
			}
		case *int64:
			n, ok := v.(int64)
			if !ok {
				return fmt.Errorf("column %d: %T is not an integer", i, v)
			}
			*d = n
		default:
			return fmt.Errorf("column %d: cannot store in %T", i, d)
		}
	}
	return nil
}

// rollups are the per-bucket rating count tables, largest bucket first.
var rollups = []struct {
	table, column string
	size          int64
}{
	{"rating_days", "day", rollup.DayMS},
	{"rating_hours", "hour", rollup.HourMS},
	{"rating_minutes", "minute", rollup.MinuteMS},
}

// countIfFirstResponse counts the respondent of the response id just inserted as a unique
// responder when it is their only response in the survey. The test reads the respondent
// index, whose page the insert has just brought into the cache: recording respondents in the
// respondents table instead would dirty a page at a random place for every response, a page
// that each commit writes to the WAL and each checkpoint copies back. The counter is updated
// here rather than with the batch's other counter changes because an UPDATE is the cheapest
// way to run the test (a query inside a transaction makes database/sql start a goroutine), and
// the counters' row is written by the batch anyway.
func countIfFirstResponse(tx *sql.Tx, surveyID, respondent, id string) error {
	_, err := tx.Exec(`UPDATE survey_stats SET unique_responders = unique_responders + 1
		WHERE survey_id = ?1 AND NOT EXISTS (
			SELECT 1 FROM responses WHERE survey_id = ?1 AND respondent = ?2 AND id <> ?3)`,
		surveyID, respondent, id)
	return mapErr(err, "count unique responders")
}

// touchRespondent moves one of a respondent's last-interaction times forward to at, adds views
// to their count of views, and reports whether it was the first interaction of that kind. A
// known respondent takes one UPDATE; only a first interaction of the kind needs the upsert.
func (s *Store) touchRespondent(tx *sql.Tx, surveyID, respondent, column string, at int64, views int) (bool, error) {
	res, err := tx.Exec(`UPDATE respondents SET `+column+` = MAX(`+column+`, ?), views = views + ?
		WHERE survey_id = ? AND respondent = ? AND `+column+` IS NOT NULL`, at, views, surveyID, respondent)
	if err != nil {
		return false, s.mapErr(err, "respondent history")
	}
	if n, _ := res.RowsAffected(); n == 1 {
		return false, nil
	}
	_, err = tx.Exec(`INSERT INTO respondents (survey_id, respondent, `+column+`, views) VALUES (?, ?, ?, ?)
		ON CONFLICT (survey_id, respondent) DO UPDATE SET `+column+` = excluded.`+column+`, views = views + excluded.views`,
		surveyID, respondent, at, views)
	if err != nil {
		return false, s.mapErr(err, "respondent history")
	}
	return true, nil
}
