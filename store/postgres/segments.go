package postgres

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/jackc/pgx/v5"

	"github.com/svc-feedback/svc/store"
)

// Declared segments (store.SegmentCounter). A batch of writes reads the segments of its teams
// in its first round trip, holding a key-share lock on each team's row until it commits: a
// change of the segments (ModifySettings locks the row for update) waits for the writes that
// read the generation before it, and every write after it reads the new one. So once a change
// has committed, no response is written at an older generation any more, and the fill, which
// starts after, finds every response it must count.

var _ store.SegmentCounter = (*Store)(nil)

// segValue is a value of a survey's segment.
type segValue struct {
	surveyID string
	seg      int
	value    string
}

// segBatch is what a transaction knows of its teams' segments and its surveys' named values.
type segBatch struct {
	teams map[string]store.Segmentation
	gens  map[string]int64 // each survey's team's generation, for its values
	named map[segValue]bool
	taken map[segValue]int // per survey and segment (value ""): how many values are named
	added []segValue       // named by this transaction, inserted at its end
}

// queueSegments queues the reads of the segments of the writes' teams, locking their rows, and
// of the named values of their surveys.
func queueSegments(b *pgx.Batch, ops []*writeOp) {
	var teams, surveys []string
	for _, op := range ops {
		if op.event == nil {
			teams, surveys = append(teams, op.sv.TeamID), append(surveys, op.w.SurveyID)
		}
	}
	slices.Sort(teams)
	b.Queue(`SELECT t.id, COALESCE(ts.segments, ''), COALESCE(ts.segments_gen, 0) FROM teams AS t
		LEFT JOIN team_settings AS ts ON ts.team_id = t.id WHERE t.id = ANY($1) ORDER BY t.id FOR KEY SHARE OF t`, slices.Compact(teams))
	b.Queue(segValuesSQL, surveys)
}

// segValuesSQL reads the values named by the surveys of $1 in their teams' generations.
const segValuesSQL = `SELECT v.survey_id, v.seg, v.value FROM segment_values AS v
	JOIN surveys AS s ON s.id = v.survey_id JOIN team_settings AS ts ON ts.team_id = s.team_id AND ts.segments_gen = v.gen
	WHERE v.survey_id = ANY($1)`

// readSegments reads what queueSegments queued.
func readSegments(br pgx.BatchResults) (*segBatch, error) {
	sb := &segBatch{teams: map[string]store.Segmentation{}, gens: map[string]int64{}, named: map[segValue]bool{}, taken: map[segValue]int{}}
	rows, err := br.Query()
	if err != nil {
		return nil, err
	}
	for rows.Next() {
		var (
			team, segments string
			gen            int64
		)
		if err := rows.Scan(&team, &segments, &gen); err != nil {
			rows.Close()
			return nil, err
		}
		sg := store.Segmentation{Gen: gen}
		if segments != "" {
			if err := json.Unmarshal([]byte(segments), &sg.Segments); err != nil {
				rows.Close()
				return nil, fmt.Errorf("segments of team %s: %w", team, err)
			}
		}
		sb.teams[team] = sg
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if rows, err = br.Query(); err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var v segValue
		if err := rows.Scan(&v.surveyID, &v.seg, &v.value); err != nil {
			return nil, err
		}
		sb.name(v)
	}
	return sb, rows.Err()
}

func (sb *segBatch) name(v segValue) {
	sb.named[v] = true
	sb.taken[segValue{v.surveyID, v.seg, ""}]++
}

// mark works out the mark of a response written in this transaction.
func (sb *segBatch) mark(sv store.Survey, w store.ResponseWrite) store.SegmentMark {
	sg := sb.teams[sv.TeamID]
	m, _ := sg.Mark(&sv.Definition, w.Data, w.Metadata, w.Language, func(i int, value string) (bool, error) {
		v := segValue{sv.ID, i, value}
		if sb.named[v] {
			return true, nil
		}
		if sb.taken[segValue{sv.ID, i, ""}] >= store.MaxSegmentValues {
			return false, nil
		}
		sb.name(v)
		sb.gens[sv.ID] = sg.Gen
		sb.added = append(sb.added, v)
		return true, nil
	}) // the namer never fails
	return m
}

// queueAdded queues the inserts of the values this transaction named, in one order for every
// transaction, so that two inserting the same values never wait for each other in a cycle.
func (sb *segBatch) queueAdded(b *pgx.Batch) {
	slices.SortFunc(sb.added, func(a, b segValue) int {
		return cmp.Or(cmp.Compare(a.surveyID, b.surveyID), cmp.Compare(a.seg, b.seg), cmp.Compare(a.value, b.value))
	})
	for _, v := range sb.added {
		b.Queue(`INSERT INTO segment_values (survey_id, gen, seg, value) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING`,
			v.surveyID, sb.gens[v.surveyID], v.seg, v.value)
	}
	sb.added = sb.added[:0]
}

// storedMark is the mark a response's row keeps, as its segment counts stand now: none when it
// was counted in an older generation than gen, whose counts no longer count.
func storedMark(gen, rowGen int64, buckets string) (store.SegmentMark, error) {
	if rowGen != gen || gen == 0 {
		return store.SegmentMark{}, nil
	}
	return store.DecodeMark(rowGen, buckets)
}

// withSegments scans a row of responseColumns followed by seg_gen and seg_buckets.
type withSegments struct {
	row     pgx.Row
	gen     *int64
	buckets *string
}

func (w withSegments) Scan(dest ...any) error {
	return w.row.Scan(append(dest, w.gen, w.buckets)...)
}

// teamGen reads a team's segments generation in tx.
func teamGen(ctx context.Context, tx pgx.Tx, teamID string) (int64, error) {
	var gen int64
	err := tx.QueryRow(ctx, `SELECT segments_gen FROM team_settings WHERE team_id = $1`, teamID).Scan(&gen)
	if errors.Is(err, pgx.ErrNoRows) {
		return 0, nil
	}
	return gen, err
}
