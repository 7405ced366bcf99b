package postgres

import (
	"slices"

	"github.com/jackc/pgx/v5"

	"github.com/svc-feedback/svc/store"
	"github.com/svc-feedback/svc/store/internal/countlog"
)

// kind is a kind of interaction a respondent has with a survey, an index into the arrays of
// tally and touch.
type kind int

const (
	responded kind = iota
	viewed
	dismissed
	kinds
)

// kindOf is the kind of an event of type t.
func kindOf(t store.EventType) kind {
	if t == store.EventDismiss {
		return dismissed
	}
	return viewed
}

// followUps gathers what writes change besides their own rows: the counters, the respondents'
// histories and the rollups, summed so that each row changes once per transaction however many
// of its writes share it.
type followUps struct {
	tallies map[string]*tally // by survey
	touches map[[2]string]*touch
	ratings countlog.Changes
	// viewed are the (survey, respondent) pairs of new views, whose prompts they use up.
	viewed [][2]string
}

// tally is what writes add to one survey's counters.
type tally struct {
	firsts   [kinds][]string // the respondents, for the unique counters
	added    [kinds]int64
	finished int64
}

// touch is a respondent's latest interaction of each kind that has one, and their views.
type touch struct {
	at    [kinds]int64
	set   [kinds]bool
	views int32
}

func newFollowUps() *followUps {
	return &followUps{tallies: map[string]*tally{}, touches: map[[2]string]*touch{}, ratings: countlog.Changes{}}
}

func (f *followUps) tally(surveyID string) *tally {
	t := f.tallies[surveyID]
	if t == nil {
		t = &tally{}
		f.tallies[surveyID] = t
	}
	return t
}

// interact counts an interaction of a respondent at at (Unix ms), and moves their last time of
// that kind forward to it.
func (f *followUps) interact(surveyID, respondent string, k kind, at int64) {
	t := f.tally(surveyID)
	t.added[k]++
	t.firsts[k] = append(t.firsts[k], respondent)
	f.touch(surveyID, respondent, k, at)
}

// touch moves a respondent's last time of a kind forward to at, and returns their touch.
func (f *followUps) touch(surveyID, respondent string, k kind, at int64) *touch {
	key := [2]string{surveyID, respondent}
	t := f.touches[key]
	if t == nil {
		t = &touch{}
		f.touches[key] = t
	}
	if !t.set[k] || at > t.at[k] {
		t.at[k], t.set[k] = at, true
	}
	return t
}

// event counts a new event: its interaction, its count in the rollups and, for a view, the
// respondent's views; a view that is not imported uses up their prompts of the survey.
func (f *followUps) event(e store.Event) {
	at := e.At.UnixMilli()
	k := kindOf(e.Type)
	f.interact(e.SurveyID, e.Respondent, k, at)
	if k == viewed {
		f.touches[[2]string{e.SurveyID, e.Respondent}].views++
		if !e.Imported {
			f.viewed = append(f.viewed, [2]string{e.SurveyID, e.Respondent})
		}
	}
	addChanges(f.ratings, e.SurveyID, []store.Count{store.EventCount(e.Type)}, at, 1)
}

// queue queues the changes, on the counter rows that row picks (see rowOf), and the rows of the
// count log; it reports how many count changes it logged. Every statement takes its rows in
// one order (surveys, then respondents, sorted), and each survey's counters change in one
// statement, so that transactions sharing rows wait for each other but never deadlock.
func (f *followUps) queue(b *pgx.Batch, row int) int {
	surveys := make([]string, 0, len(f.tallies))
	for id := range f.tallies {
		surveys = append(surveys, id)
	}
	slices.Sort(surveys)
	for _, id := range surveys {
		t := f.tallies[id]
		for k := range t.firsts {
			slices.Sort(t.firsts[k])
			t.firsts[k] = slices.Compact(t.firsts[k])
		}
		b.Queue(countSurvey, id, t.firsts[responded], t.firsts[viewed], t.firsts[dismissed],
			t.added[responded], t.added[viewed], t.added[dismissed], t.finished, row%statsShards)
	}
	f.queueTouches(b)
	if len(f.viewed) > 0 {
		surveys, respondents := make([]string, len(f.viewed)), make([]string, len(f.viewed))
		for i, v := range f.viewed {
			surveys[i], respondents[i] = v[0], v[1]
		}
		b.Queue(`DELETE FROM prompts WHERE (survey_id, respondent) IN (SELECT * FROM unnest($1::text[], $2::text[]))`, surveys, respondents)
	}
	return queueLog(b, f.ratings)
}

// countSurvey adds to survey $1's counter row $9: $5 responses, $6 views, $7 dismissals and $8
// finished responses, and to each unique counter the respondents of $2, $3 and $4 having their
// first of that kind (one insert into the kind's table tells, however many writes race).
const countSurvey = `WITH
	r AS (INSERT INTO responders (survey_id, respondent) SELECT $1, x FROM unnest($2::text[]) AS x ORDER BY x
		ON CONFLICT DO NOTHING RETURNING 1),
	v AS (INSERT INTO viewers (survey_id, respondent) SELECT $1, x FROM unnest($3::text[]) AS x ORDER BY x
		ON CONFLICT DO NOTHING RETURNING 1),
	d AS (INSERT INTO dismissers (survey_id, respondent) SELECT $1, x FROM unnest($4::text[]) AS x ORDER BY x
		ON CONFLICT DO NOTHING RETURNING 1)
	UPDATE survey_stats SET
		responses = responses + $5, unique_responders = unique_responders + (SELECT COUNT(*) FROM r),
		views = views + $6, unique_viewers = unique_viewers + (SELECT COUNT(*) FROM v),
		dismissals = dismissals + $7, unique_dismissers = unique_dismissers + (SELECT COUNT(*) FROM d),
		finished = finished + $8
	WHERE survey_id = $1 AND shard = $9`

// queueTouches queues moving the respondents' last times forward, in one statement.
func (f *followUps) queueTouches(b *pgx.Batch) {
	n := len(f.touches)
	if n == 0 {
		return
	}
	surveys, respondents := make([]string, 0, n), make([]string, 0, n)
	views := make([]int32, 0, n)
	var times [kinds][]*int64
	for key, t := range f.touches {
		surveys, respondents = append(surveys, key[0]), append(respondents, key[1])
		views = append(views, t.views)
		for k := range kinds {
			var at *int64
			if t.set[k] {
				at = &t.at[k]
			}
			times[k] = append(times[k], at)
		}
	}
	// GREATEST ignores NULLs: a time not given keeps the stored one.
	b.Queue(`INSERT INTO respondents (survey_id, respondent, last_responded_at, last_viewed_at, last_dismissed_at, views)
		SELECT * FROM unnest($1::text[], $2::text[], $3::bigint[], $4::bigint[], $5::bigint[], $6::int[]) ORDER BY 1, 2
		ON CONFLICT (survey_id, respondent) DO UPDATE SET
			last_responded_at = GREATEST(respondents.last_responded_at, excluded.last_responded_at),
			last_viewed_at = GREATEST(respondents.last_viewed_at, excluded.last_viewed_at),
			last_dismissed_at = GREATEST(respondents.last_dismissed_at, excluded.last_dismissed_at),
			views = respondents.views + excluded.views`,
		surveys, respondents, times[responded], times[viewed], times[dismissed], views)
}
