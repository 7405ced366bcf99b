package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/svc-feedback/svc/internal/answerjson"
	"github.com/svc-feedback/svc/store"
	"github.com/svc-feedback/svc/store/internal/sqlrow"
	"github.com/svc-feedback/svc/survey"
)

// Declared segments (store.SegmentCounter). Every write reads its team's segments in the
// writer's transaction, so a write and a change of the segments are ordered by the writer: a
// write after the change counts in the new generation, and the fill (one batch per writer
// transaction too) finds every response written before it at an older generation.

var _ store.SegmentCounter = (*Store)(nil)

// segmentationIn reads a team's segments in tx.
func segmentationIn(tx *sql.Tx, teamID string) (store.Segmentation, error) {
	var (
		sg       store.Segmentation
		segments string
	)
	err := tx.QueryRow(`SELECT segments, segments_gen FROM team_settings WHERE team_id = ?`, teamID).Scan(&segments, &sg.Gen)
	if errors.Is(err, sql.ErrNoRows) || (err == nil && segments == "") {
		return sg, nil
	}
	if err != nil {
		return sg, mapErr(err, "segments of team "+teamID)
	}
	if err := json.Unmarshal([]byte(segments), &sg.Segments); err != nil {
		return sg, fmt.Errorf("segments of team %s: %w", teamID, err)
	}
	return sg, nil
}

// namedValues remembers the segment values a survey counts by name, so that a write of a value
// seen before reads nothing: a value once named stays named in its generation. It may also
// hold a value whose naming rolled back with its batch; the counts stay exact (each response
// keeps the buckets it was counted under), and a read only takes a value from the counts when
// the survey names it or has places free (report's segment reads).
type namedValues struct {
	m map[string]struct{}
}

// maxNamedValues bounds namedValues, which starts over when full.
const maxNamedValues = 100_000

func namedKey(surveyID string, gen int64, i int, v string) string {
	return surveyID + "\x00" + strconv.FormatInt(gen, 10) + "\x00" + strconv.Itoa(i) + "\x00" + v
}

func (n *namedValues) has(k string) bool {
	_, ok := n.m[k]
	return ok
}

func (n *namedValues) add(k string) {
	if n.m == nil || len(n.m) >= maxNamedValues {
		n.m = make(map[string]struct{})
	}
	n.m[k] = struct{}{}
}

// markIn works out a response's mark (store.Segmentation.Mark) in tx, naming new values of the
// survey's segments while places are free. It runs in the writer goroutine.
func (s *Store) markIn(tx *sql.Tx, sg store.Segmentation, surveyID string, def *survey.Definition, a survey.Answers, meta map[string]string, language string) (store.SegmentMark, error) {
	return sg.Mark(def, a, meta, language, func(i int, v string) (bool, error) {
		k := namedKey(surveyID, sg.Gen, i, v)
		if s.named.has(k) {
			return true, nil
		}
		var one int
		err := tx.QueryRow(`SELECT 1 FROM segment_values WHERE survey_id = ? AND gen = ? AND seg = ? AND value = ?`, surveyID, sg.Gen, i, v).Scan(&one)
		if err == nil {
			s.named.add(k)
			return true, nil
		}
		if !errors.Is(err, sql.ErrNoRows) {
			return false, mapErr(err, "segment values")
		}
		res, err := tx.Exec(`INSERT INTO segment_values (survey_id, gen, seg, value) SELECT ?1, ?2, ?3, ?4
			WHERE (SELECT COUNT(*) FROM segment_values WHERE survey_id = ?1 AND gen = ?2 AND seg = ?3) < ?5`,
			surveyID, sg.Gen, i, v, store.MaxSegmentValues)
		if err != nil {
			return false, mapErr(err, "segment values")
		}
		n, _ := res.RowsAffected()
		if n == 1 {
			s.named.add(k)
		}
		return n == 1, nil
	})
}

// storedMark is the mark a response's row keeps, as its segment counts stand now: none when it
// was counted in an older generation than gen, whose counts no longer count.
func storedMark(gen, rowGen int64, buckets string) (store.SegmentMark, error) {
	if rowGen != gen || gen == 0 {
		return store.SegmentMark{}, nil
	}
	return store.DecodeMark(rowGen, buckets)
}

// SegmentState implements store.SegmentCounter.
func (s *Store) SegmentState(ctx context.Context, surveyID string) (store.SegmentState, error) {
	if err := s.checkOpen("segment state"); err != nil {
		return store.SegmentState{}, err
	}
	sv, err := s.surveyByID(ctx, surveyID)
	if err != nil {
		return store.SegmentState{}, fmt.Errorf("segment state: %w", err)
	}
	tx, err := s.rdb.BeginTx(ctx, nil)
	if err != nil {
		return store.SegmentState{}, s.mapErr(err, "segment state")
	}
	defer tx.Rollback() //nolint:errcheck // a read: nothing to keep
	var st store.SegmentState
	if st.Segmentation, err = segmentationIn(tx, sv.TeamID); err != nil || len(st.Segments) == 0 {
		return st, err
	}
	var complete bool
	err = tx.QueryRowContext(ctx, `SELECT complete FROM segment_fill WHERE survey_id = ? AND gen = ?`, surveyID, st.Gen).Scan(&complete)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return st, s.mapErr(err, "segment state")
	}
	st.Complete = complete
	st.Values = make([][]string, len(st.Segments))
	rows, err := tx.QueryContext(ctx, `SELECT seg, value FROM segment_values WHERE survey_id = ? AND gen = ?`, surveyID, st.Gen)
	if err != nil {
		return st, s.mapErr(err, "segment state")
	}
	defer rows.Close()
	for rows.Next() {
		var (
			i int
			v string
		)
		if err := rows.Scan(&i, &v); err != nil {
			return st, s.mapErr(err, "segment state")
		}
		if i >= 0 && i < len(st.Values) {
			st.Values[i] = append(st.Values[i], v)
		}
	}
	return st, s.mapErr(rows.Err(), "segment state")
}

// addSegmentCounts adds to counts (sign times) what the responses of [lo, hi) add under a segment
// key (store.SegmentKey) of the survey: those counted in its generation under its bucket.
func (s *Store) addSegmentCounts(ctx context.Context, tx *sql.Tx, counts map[int]int64, sign int64, sv store.Survey, key string, lo, hi int64) error {
	gen, index, bucket, inner, _ := store.ParseSegmentKey(key)
	rows, err := tx.QueryContext(ctx, `SELECT data, finished, seg_buckets FROM responses
		WHERE survey_id = ? AND created_at >= ? AND created_at < ? AND seg_gen = ?`, sv.ID, lo, hi, gen)
	if err != nil {
		return s.mapErr(err, "segment counts")
	}
	defer rows.Close()
	var answers answerjson.Reader
	for rows.Next() {
		var (
			data     []byte
			finished bool
			buckets  string
		)
		if err := rows.Scan(&data, &finished, &buckets); err != nil {
			return s.mapErr(err, "segment counts")
		}
		m, err := store.DecodeMark(gen, buckets)
		if err != nil {
			return err
		}
		if index >= len(m.Buckets) || m.Buckets[index] == nil || *m.Buckets[index] != bucket {
			continue
		}
		if err := sqlrow.AddKeyCounts(&answers, counts, sign, &sv.Definition, inner, data, finished); err != nil {
			return err
		}
	}
	return s.mapErr(rows.Err(), "segment counts")
}

// FillSegments implements store.SegmentCounter: one writer transaction counts up to limit
// responses of the first survey of the team (by id) whose fill is not complete, from where its
// fill stopped, and records where that is.
func (s *Store) FillSegments(ctx context.Context, teamID string, limit int) (store.SegmentsFill, error) {
	if limit <= 0 {
		return store.SegmentsFill{}, fmt.Errorf("fill segments: %w", store.Invalidf("limit must be positive"))
	}
	err := s.write(ctx, func(tx *sql.Tx) error {
		sg, err := segmentationIn(tx, teamID)
		if err != nil || len(sg.Segments) == 0 {
			return err
		}
		var surveyID string
		err = tx.QueryRow(`SELECT s.id FROM surveys AS s LEFT JOIN segment_fill AS f ON f.survey_id = s.id AND f.gen = ?
			WHERE s.team_id = ? AND f.complete IS NOT 1 ORDER BY s.id LIMIT 1`, sg.Gen, teamID).Scan(&surveyID)
		if errors.Is(err, sql.ErrNoRows) {
			return nil // complete
		}
		if err != nil {
			return s.mapErr(err, "fill segments")
		}
		return s.fillSurvey(ctx, tx, sg, surveyID, limit)
	})
	if err != nil {
		return store.SegmentsFill{}, fmt.Errorf("fill segments of team %s: %w", teamID, err)
	}
	return s.SegmentsProgress(ctx, teamID)
}

// fillRow is a response the fill reads.
type fillRow struct {
	id, language   string
	data, meta     []byte
	finished       bool
	createdAt, gen int64
}

// fillSurvey counts the next limit responses of a survey in generation sg, in tx.
func (s *Store) fillSurvey(ctx context.Context, tx *sql.Tx, sg store.Segmentation, surveyID string, limit int) error {
	sv, err := s.surveyByID(ctx, surveyID)
	if err != nil {
		return err
	}
	afterAt, afterID, visited := int64(-1<<62), "", int64(0)
	err = tx.QueryRow(`SELECT after_at, after_id, visited FROM segment_fill WHERE survey_id = ? AND gen = ?`, surveyID, sg.Gen).
		Scan(&afterAt, &afterID, &visited)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return s.mapErr(err, "fill segments")
	}
	rows, err := tx.Query(`SELECT id, language, data, metadata, finished, created_at, seg_gen FROM responses
		WHERE survey_id = ? AND (created_at, id) > (?, ?) ORDER BY created_at, id LIMIT ?`, surveyID, afterAt, afterID, limit)
	if err != nil {
		return s.mapErr(err, "fill segments")
	}
	var page []fillRow
	for rows.Next() {
		var r fillRow
		if err := rows.Scan(&r.id, &r.language, &r.data, &r.meta, &r.finished, &r.createdAt, &r.gen); err != nil {
			rows.Close()
			return s.mapErr(err, "fill segments")
		}
		page = append(page, r)
	}
	if err := rows.Close(); err != nil {
		return s.mapErr(err, "fill segments")
	}
	for _, r := range page {
		afterAt, afterID = r.createdAt, r.id
		if r.gen >= sg.Gen {
			continue // written since the change: counted by its write
		}
		mark, err := s.fillMark(tx, sg, sv, r)
		if err != nil {
			return fmt.Errorf("response %s: %w", r.id, err)
		}
		counts, err := sqlrow.StoredCounts(&s.answers, &sv.Definition, r.data, r.finished)
		if err != nil {
			return fmt.Errorf("response %s: %w", r.id, err)
		}
		for _, c := range store.SegmentCounts(mark, counts) {
			s.op.rating(surveyID, c.Key, c.N, r.createdAt, 1)
		}
		if _, err := tx.Exec(`UPDATE responses SET seg_gen = ?, seg_buckets = ? WHERE survey_id = ? AND id = ?`,
			mark.Gen, store.EncodeMark(mark), surveyID, r.id); err != nil {
			return s.mapErr(err, "fill segments")
		}
	}
	_, err = tx.Exec(`INSERT INTO segment_fill (survey_id, gen, after_at, after_id, visited, complete) VALUES (?, ?, ?, ?, ?, ?)
		ON CONFLICT (survey_id) DO UPDATE SET gen = excluded.gen, after_at = excluded.after_at, after_id = excluded.after_id,
			visited = excluded.visited, complete = excluded.complete`,
		surveyID, sg.Gen, afterAt, afterID, visited+int64(len(page)), len(page) < limit)
	return s.mapErr(err, "fill segments")
}

// fillMark works out the mark of a stored response, in tx.
func (s *Store) fillMark(tx *sql.Tx, sg store.Segmentation, sv store.Survey, r fillRow) (store.SegmentMark, error) {
	var a survey.Answers
	if err := json.Unmarshal(r.data, &a); err != nil {
		return store.SegmentMark{}, fmt.Errorf("stored answers: %w", err)
	}
	var meta map[string]string
	if len(r.meta) > 0 {
		if err := json.Unmarshal(r.meta, &meta); err != nil {
			return store.SegmentMark{}, fmt.Errorf("stored metadata: %w", err)
		}
	}
	return s.markIn(tx, sg, sv.ID, &sv.Definition, a, meta, r.language)
}

// SegmentsProgress implements store.SegmentCounter.
func (s *Store) SegmentsProgress(ctx context.Context, teamID string) (store.SegmentsFill, error) {
	if err := s.checkOpen("segments progress"); err != nil {
		return store.SegmentsFill{}, err
	}
	tx, err := s.rdb.BeginTx(ctx, nil)
	if err != nil {
		return store.SegmentsFill{}, s.mapErr(err, "segments progress")
	}
	defer tx.Rollback() //nolint:errcheck // a read: nothing to keep
	sg, err := segmentationIn(tx, teamID)
	if err != nil || len(sg.Segments) == 0 {
		return store.SegmentsFill{State: store.FillNone}, err
	}
	var (
		p    store.SegmentsFill
		left int64
	)
	err = tx.QueryRowContext(ctx, `SELECT COALESCE(SUM(st.responses), 0),
			COALESCE(SUM(CASE WHEN f.complete = 1 THEN st.responses ELSE MIN(COALESCE(f.visited, 0), COALESCE(st.responses, 0)) END), 0),
			COALESCE(SUM(f.complete IS NOT 1), 0)
		FROM surveys AS s LEFT JOIN survey_stats AS st ON st.survey_id = s.id
		LEFT JOIN segment_fill AS f ON f.survey_id = s.id AND f.gen = ? WHERE s.team_id = ?`, sg.Gen, teamID).Scan(&p.Total, &p.Done, &left)
	if err != nil {
		return store.SegmentsFill{}, s.mapErr(err, "segments progress")
	}
	p.State, p.Surveys = store.FillComplete, left
	if left > 0 {
		p.State = store.FillFilling
	}
	return p, nil
}

// SegmentResponses implements store.SegmentCounter.
func (s *Store) SegmentResponses(ctx context.Context, surveyID string, gen int64, index int, buckets []string, from, to time.Time) (store.Stats, error) {
	if err := s.checkOpen("segment responses"); err != nil {
		return store.Stats{}, err
	}
	list, err := json.Marshal(buckets)
	if err != nil {
		return store.Stats{}, fmt.Errorf("segment responses: %w", err)
	}
	var st store.Stats
	err = s.rdb.QueryRowContext(ctx, `SELECT COUNT(*), COUNT(DISTINCT respondent), COALESCE(SUM(finished), 0) FROM responses
		WHERE survey_id = ? AND created_at >= ? AND created_at < ? AND seg_gen = ? AND seg_buckets <> ''
			AND json_extract(seg_buckets, ?) IN (SELECT value FROM json_each(?))`,
		surveyID, sqlrow.MS(from), sqlrow.MS(to), gen, fmt.Sprintf("$[%d]", index), string(list)).
		Scan(&st.TotalResponses, &st.UniqueResponders, &st.FinishedResponses)
	return st, s.mapErr(err, "segment responses")
}

// SegmentTeams implements store.SegmentCounter.
func (s *Store) SegmentTeams(ctx context.Context) ([]string, error) {
	if err := s.checkOpen("segment teams"); err != nil {
		return nil, err
	}
	rows, err := s.rdb.QueryContext(ctx, `SELECT team_id FROM team_settings WHERE segments <> '' ORDER BY team_id`)
	if err != nil {
		return nil, s.mapErr(err, "segment teams")
	}
	defer rows.Close()
	var teams []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, s.mapErr(err, "segment teams")
		}
		teams = append(teams, id)
	}
	return teams, s.mapErr(rows.Err(), "segment teams")
}
