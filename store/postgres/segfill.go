package postgres

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/svc-feedback/svc/store"
	"github.com/svc-feedback/svc/store/internal/countlog"
	"github.com/svc-feedback/svc/store/internal/sqlrow"
)

// The fill of segment counts (store.SegmentCounter.FillSegments). Each survey of the team has a
// row in segment_fill per generation; a filler locks the first row not complete that no other
// filler holds (SKIP LOCKED), so instances filling at once take different surveys, and reads
// the survey's responses after the row's cursor, skipping those a write holds (its write moves
// them to the new generation itself). Once the cursor reaches the end, the survey is checked
// for any response still at an older generation (one whose write rolled back, say), which a
// last pass counts, before the survey is complete.

// segmentationOf reads a team's segments in tx.
func segmentationOf(ctx context.Context, tx pgx.Tx, teamID string) (store.Segmentation, error) {
	var (
		sg       store.Segmentation
		segments string
	)
	err := tx.QueryRow(ctx, `SELECT segments, segments_gen FROM team_settings WHERE team_id = $1`, teamID).Scan(&segments, &sg.Gen)
	if errors.Is(err, pgx.ErrNoRows) || (err == nil && segments == "") {
		return sg, nil
	}
	if err != nil {
		return sg, err
	}
	if err := json.Unmarshal([]byte(segments), &sg.Segments); err != nil {
		return sg, fmt.Errorf("segments of team %s: %w", teamID, err)
	}
	return sg, nil
}

// FillSegments implements store.SegmentCounter.
func (s *Store) FillSegments(ctx context.Context, teamID string, limit int) (store.SegmentsFill, error) {
	if limit <= 0 {
		return store.SegmentsFill{}, fmt.Errorf("fill segments: %w", store.Invalidf("limit must be positive"))
	}
	err := s.tx(ctx, "fill segments of team "+teamID, func(tx pgx.Tx) error {
		sg, err := segmentationOf(ctx, tx, teamID)
		if err != nil || len(sg.Segments) == 0 {
			return err
		}
		// Every survey gets its row of this generation, a row of an older one starting over.
		if _, err := tx.Exec(ctx, `INSERT INTO segment_fill (survey_id, gen, after_at, after_id, visited, complete)
			SELECT s.id, $2, -4611686018427387904, '', 0, false FROM surveys AS s WHERE s.team_id = $1
				AND NOT EXISTS (SELECT 1 FROM segment_fill AS f WHERE f.survey_id = s.id AND f.gen >= $2)
			ON CONFLICT (survey_id) DO UPDATE SET gen = excluded.gen, after_at = excluded.after_at, after_id = '',
				visited = 0, complete = false WHERE segment_fill.gen < excluded.gen`, teamID, sg.Gen); err != nil {
			return err
		}
		var (
			surveyID, afterID string
			afterAt, visited  int64
		)
		err = tx.QueryRow(ctx, `SELECT f.survey_id, f.after_at, f.after_id, f.visited FROM segment_fill AS f
			JOIN surveys AS s ON s.id = f.survey_id WHERE s.team_id = $1 AND f.gen = $2 AND NOT f.complete
			ORDER BY f.survey_id LIMIT 1 FOR UPDATE OF f SKIP LOCKED`, teamID, sg.Gen).Scan(&surveyID, &afterAt, &afterID, &visited)
		if errors.Is(err, pgx.ErrNoRows) {
			return nil // complete, or the rest taken by other fillers
		}
		if err != nil {
			return err
		}
		sv, err := s.surveyByID(ctx, surveyID)
		if err != nil {
			return err
		}
		return s.fillSurvey(ctx, tx, sg, sv, fillCursor{afterAt, afterID, visited}, limit)
	})
	if err != nil {
		return store.SegmentsFill{}, fmt.Errorf("fill segments of team %s: %w", teamID, err)
	}
	return s.SegmentsProgress(ctx, teamID)
}

// fillCursor is where a survey's fill stands.
type fillCursor struct {
	afterAt int64
	afterID string
	visited int64
}

// fillRow is a response the fill reads.
type fillRow struct {
	id, language, data, meta string
	finished                 bool
	createdAt                int64
	gen                      int64
}

// fillSurvey counts the next limit responses of a survey after its cursor (or, at the end, the
// ones left at an older generation), in tx.
func (s *Store) fillSurvey(ctx context.Context, tx pgx.Tx, sg store.Segmentation, sv store.Survey, c fillCursor, limit int) error {
	const columns = `SELECT id, language, data, metadata, finished, created_at, seg_gen FROM responses`
	rows, err := tx.Query(ctx, columns+` WHERE survey_id = $1 AND (created_at, id) > ($2, $3)
		ORDER BY created_at, id LIMIT $4 FOR UPDATE SKIP LOCKED`, sv.ID, c.afterAt, c.afterID, limit)
	if err != nil {
		return err
	}
	page, err := pgx.CollectRows(rows, scanFillRow)
	if err != nil {
		return err
	}
	complete := false
	if len(page) < limit {
		// The end: what a write skipped here left at an older generation is counted now.
		ids := make([]string, len(page))
		for i, r := range page {
			ids[i] = r.id // this pass moves them: not left
		}
		rows, err := tx.Query(ctx, columns+` WHERE survey_id = $1 AND seg_gen < $2 AND id <> ALL($4) LIMIT $3 FOR UPDATE SKIP LOCKED`,
			sv.ID, sg.Gen, limit, ids)
		if err != nil {
			return err
		}
		left, err := pgx.CollectRows(rows, scanFillRow)
		if err != nil {
			return err
		}
		complete = len(left) == 0
		page = append(page, left...)
	}
	var b pgx.Batch
	sb := &segBatch{teams: map[string]store.Segmentation{sv.TeamID: sg}, gens: map[string]int64{}, named: map[segValue]bool{}, taken: map[segValue]int{}}
	if err := sb.readValues(ctx, tx, sv.ID); err != nil {
		return err
	}
	changes := countlog.Changes{}
	for _, r := range page {
		if r.createdAt > c.afterAt || (r.createdAt == c.afterAt && r.id > c.afterID) {
			c.afterAt, c.afterID = r.createdAt, r.id
			c.visited++
		}
		if r.gen >= sg.Gen {
			continue // written since the change: counted by its write
		}
		w, err := r.write()
		if err != nil {
			return fmt.Errorf("response %s: %w", r.id, err)
		}
		mark := sb.mark(sv, w)
		counts, err := sqlrow.StoredCounts(nil, &sv.Definition, []byte(r.data), r.finished)
		if err != nil {
			return fmt.Errorf("response %s: %w", r.id, err)
		}
		addChanges(changes, sv.ID, store.SegmentCounts(mark, counts), r.createdAt, 1)
		b.Queue(`UPDATE responses SET seg_gen = $1, seg_buckets = $2 WHERE survey_id = $3 AND id = $4`, mark.Gen, store.EncodeMark(mark), sv.ID, r.id)
	}
	sb.queueAdded(&b)
	queueLog(&b, changes)
	b.Queue(`UPDATE segment_fill SET after_at = $2, after_id = $3, visited = $4, complete = $5 WHERE survey_id = $1`,
		sv.ID, c.afterAt, c.afterID, c.visited, complete)
	return tx.SendBatch(ctx, &b).Close()
}

func scanFillRow(row pgx.CollectableRow) (fillRow, error) {
	var r fillRow
	err := row.Scan(&r.id, &r.language, &r.data, &r.meta, &r.finished, &r.createdAt, &r.gen)
	return r, err
}

// write is the stored response as the write that marks it sees it.
func (r fillRow) write() (store.ResponseWrite, error) {
	w := store.ResponseWrite{ID: r.id, Language: r.language}
	if err := json.Unmarshal([]byte(r.data), &w.Data); err != nil {
		return w, fmt.Errorf("stored answers: %w", err)
	}
	if r.meta != "" {
		if err := json.Unmarshal([]byte(r.meta), &w.Metadata); err != nil {
			return w, fmt.Errorf("stored metadata: %w", err)
		}
	}
	return w, nil
}

// readValues reads the values the survey names in its team's generation.
func (sb *segBatch) readValues(ctx context.Context, tx pgx.Tx, surveyID string) error {
	rows, err := tx.Query(ctx, segValuesSQL, []string{surveyID})
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var v segValue
		if err := rows.Scan(&v.surveyID, &v.seg, &v.value); err != nil {
			return err
		}
		sb.name(v)
	}
	return rows.Err()
}

// SegmentsProgress implements store.SegmentCounter.
func (s *Store) SegmentsProgress(ctx context.Context, teamID string) (store.SegmentsFill, error) {
	var p store.SegmentsFill
	err := s.tx(ctx, "segments progress of team "+teamID, func(tx pgx.Tx) error {
		sg, err := segmentationOf(ctx, tx, teamID)
		if err != nil || len(sg.Segments) == 0 {
			p.State = store.FillNone
			return err
		}
		var left int64
		if err := tx.QueryRow(ctx, `WITH st AS (SELECT survey_id, SUM(responses) AS n FROM survey_stats
				WHERE survey_id IN (SELECT id FROM surveys WHERE team_id = $1) GROUP BY 1)
			SELECT COALESCE(SUM(COALESCE(st.n, 0)), 0)::bigint,
				COALESCE(SUM(CASE WHEN f.complete THEN COALESCE(st.n, 0) ELSE LEAST(COALESCE(f.visited, 0), COALESCE(st.n, 0)) END), 0)::bigint,
				COUNT(*) FILTER (WHERE f.complete IS NOT TRUE)
			FROM surveys AS s LEFT JOIN st ON st.survey_id = s.id LEFT JOIN segment_fill AS f ON f.survey_id = s.id AND f.gen = $2
			WHERE s.team_id = $1`, teamID, sg.Gen).Scan(&p.Total, &p.Done, &left); err != nil {
			return err
		}
		p.State, p.Surveys = store.FillComplete, left
		if left > 0 {
			p.State = store.FillFilling
		}
		return nil
	})
	return p, err
}

// SegmentState implements store.SegmentCounter.
func (s *Store) SegmentState(ctx context.Context, surveyID string) (store.SegmentState, error) {
	sv, err := s.surveyByID(ctx, surveyID)
	if err != nil {
		return store.SegmentState{}, fmt.Errorf("segment state: %w", err)
	}
	var st store.SegmentState
	err = s.tx(ctx, "segment state of survey "+surveyID, func(tx pgx.Tx) error {
		if st.Segmentation, err = segmentationOf(ctx, tx, sv.TeamID); err != nil || len(st.Segments) == 0 {
			return err
		}
		err := tx.QueryRow(ctx, `SELECT complete FROM segment_fill WHERE survey_id = $1 AND gen = $2`, surveyID, st.Gen).Scan(&st.Complete)
		if err != nil && !errors.Is(err, pgx.ErrNoRows) {
			return err
		}
		st.Values = make([][]string, len(st.Segments))
		rows, err := tx.Query(ctx, `SELECT seg, value FROM segment_values WHERE survey_id = $1 AND gen = $2 ORDER BY seg, value`, surveyID, st.Gen)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var (
				i int
				v string
			)
			if err := rows.Scan(&i, &v); err != nil {
				return err
			}
			if i >= 0 && i < len(st.Values) {
				st.Values[i] = append(st.Values[i], v)
			}
		}
		return rows.Err()
	})
	return st, err
}

// SegmentResponses implements store.SegmentCounter.
func (s *Store) SegmentResponses(ctx context.Context, surveyID string, gen int64, index int, buckets []string, from, to time.Time) (store.Stats, error) {
	if err := s.checkOpen("segment responses"); err != nil {
		return store.Stats{}, err
	}
	var st store.Stats
	err := s.pool.QueryRow(ctx, `SELECT COUNT(*), COUNT(DISTINCT respondent), COUNT(*) FILTER (WHERE finished) FROM responses
		WHERE survey_id = $1 AND created_at >= $2 AND created_at < $3 AND seg_gen = $4 AND seg_buckets <> ''
			AND (seg_buckets::jsonb ->> $5::int) = ANY($6)`,
		surveyID, sqlrow.MS(from), sqlrow.MS(to), gen, index, buckets).
		Scan(&st.TotalResponses, &st.UniqueResponders, &st.FinishedResponses)
	return st, s.mapErr(err, "segment responses of survey "+surveyID)
}

// SegmentTeams implements store.SegmentCounter.
func (s *Store) SegmentTeams(ctx context.Context) ([]string, error) {
	if err := s.checkOpen("segment teams"); err != nil {
		return nil, err
	}
	rows, err := s.pool.Query(ctx, `SELECT team_id FROM team_settings WHERE segments <> '' ORDER BY team_id`)
	if err != nil {
		return nil, s.mapErr(err, "segment teams")
	}
	teams, err := pgx.CollectRows(rows, pgx.RowTo[string])
	return teams, s.mapErr(err, "segment teams")
}
