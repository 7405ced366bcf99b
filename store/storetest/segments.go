package storetest

import (
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/svc-feedback/svc/store"
	"github.com/svc-feedback/svc/survey"
)

// segModel is what a segment test wrote and has not deleted, to recount the segment counts
// from.
type segModel struct {
	def       survey.Definition
	responses map[string]segResponse
}

type segResponse struct {
	respondent string
	answers    survey.Answers
	meta       map[string]string
	language   string
	finished   bool
	at         time.Time
}

// segInner are the keys of ResponseCounts the segment tests compare.
var segInner = []string{store.AnsweredKey, store.ReachedKey, store.FunnelKey, store.OptionKey("missing"), store.OptionKey("favourite"), "nps", "stars"}

// put writes a response (an update keeps its creation time and stays finished once finished)
// and notes it.
func (m *segModel) put(t *testing.T, s store.Store, surveyID, id string, r segResponse) {
	t.Helper()
	if old, ok := m.responses[id]; ok {
		r.finished = r.finished || old.finished
		put(t, s, store.ResponseWrite{SurveyID: surveyID, ID: id, Respondent: r.respondent, Data: r.answers, Metadata: r.meta,
			Language: r.language, Finished: r.finished, At: r.at})
		r.at = old.at
	} else {
		put(t, s, store.ResponseWrite{SurveyID: surveyID, ID: id, Respondent: r.respondent, Data: r.answers, Metadata: r.meta,
			Language: r.language, Finished: r.finished, At: r.at})
	}
	m.responses[id] = r
}

// recount is what the segment keys of segment number index (declared as segment) hold for
// bucket over [from, to), worked out from the model.
func (m *segModel) recount(segment, bucket string, from, to time.Time) map[string]map[int]int64 {
	out := map[string]map[int]int64{}
	for _, k := range segInner {
		out[k] = map[int]int64{}
	}
	for _, r := range m.responses {
		v, ok := store.SegmentValue(&m.def, segment, r.answers, r.meta, r.language)
		if !ok || v != bucket || r.at.Before(from) || !r.at.Before(to) {
			continue
		}
		for _, c := range store.ResponseCounts(&m.def, r.answers, r.finished) {
			if counts, ok := out[c.Key]; ok {
				counts[c.N]++
			}
		}
	}
	return out
}

// checkSegments compares the store's segment counts of each value of each segment with a
// recount, over ranges of several shapes.
func (m *segModel) check(t *testing.T, s store.Store, surveyID string, gen int64, segments []string, values map[string][]string) {
	t.Helper()
	ranges := [][2]time.Time{
		{t0.Add(-time.Hour), t0.Add(30 * 24 * time.Hour)},
		{t0.Add(17*time.Hour + 13*time.Second), t0.Add(2*24*time.Hour + 5*time.Minute + 7*time.Second)},
		{t0.Add(3 * time.Hour), t0.Add(3*time.Hour + 40*time.Second)},
	}
	for i, seg := range segments {
		for _, v := range values[seg] {
			keys := make([]string, len(segInner))
			for j, k := range segInner {
				keys[j] = store.SegmentKey(gen, i, v, k)
			}
			for _, rg := range ranges {
				got, err := s.Counts(t.Context(), surveyID, keys, rg[0], rg[1])
				if err != nil {
					t.Fatalf("Counts of %s=%s: %v", seg, v, err)
				}
				want := m.recount(seg, v, rg[0], rg[1])
				for j, k := range segInner {
					if diff := cmp.Diff(want[k], got[keys[j]], cmpopts.EquateEmpty()); diff != "" {
						t.Errorf("%s=%s, key %q, [%s, %s) (-recount +store):\n%s", seg, v, k, rg[0].Format(time.TimeOnly), rg[1].Format(time.DateTime), diff)
					}
				}
			}
		}
	}
}

// checkResponses compares SegmentResponses of buckets of a segment with a recount.
func (m *segModel) checkResponses(t *testing.T, sc store.SegmentCounter, surveyID string, gen int64, index int, segment string, buckets []string) {
	t.Helper()
	from, to := t0.Add(5*time.Hour+3*time.Second), t0.Add(40*time.Hour)
	var want store.Stats
	people := map[string]bool{}
	for _, r := range m.responses {
		v, ok := store.SegmentValue(&m.def, segment, r.answers, r.meta, r.language)
		if !ok || !slices.Contains(buckets, v) || r.at.Before(from) || !r.at.Before(to) {
			continue
		}
		want.TotalResponses++
		if r.finished {
			want.FinishedResponses++
		}
		if !people[r.respondent] {
			people[r.respondent] = true
			want.UniqueResponders++
		}
	}
	got, err := sc.SegmentResponses(t.Context(), surveyID, gen, index, buckets, from, to)
	if err != nil || got != want {
		t.Errorf("SegmentResponses(%s in %q) = %+v, %v; want %+v", segment, buckets, got, err, want)
	}
}

// segResponseOf makes the i-th response of a segment test.
func segResponseOf(i int, plan, language string) segResponse {
	a := survey.Answers{"nps": survey.Number(i % 11)}
	if i%2 == 0 {
		a["favourite"] = survey.Text([]string{"Reports", "Alerts", "something else"}[i%3])
		a["stars"] = survey.Number(i%5 + 1)
	} else {
		a["missing"] = survey.Choices{"Speed", "Docs"}
	}
	meta := map[string]string{"page": "/x"}
	if plan != "" {
		meta["plan"] = plan
	}
	at := t0.Add(time.Duration(i)*41*time.Minute + time.Duration(i*13)*time.Second)
	return segResponse{respondent: fmt.Sprint("p", i%9), answers: a, meta: meta, language: language, finished: i%4 == 0, at: at}
}

// declare sets a team's segments and returns their generation.
func declare(t *testing.T, s store.Store, teamID string, segments ...string) int64 {
	t.Helper()
	st, err := targeter(t, s).ModifySettings(t.Context(), teamID, func(st *store.TeamSettings) error {
		st.Segments = segments
		return nil
	})
	if err != nil {
		t.Fatalf("declare segments: %v", err)
	}
	return st.SegmentsGeneration
}

// fillAll runs the fill until it is complete, limit responses a call.
func fillAll(t *testing.T, sc store.SegmentCounter, teamID string, limit int) store.SegmentsFill {
	t.Helper()
	for range 1000 {
		p, err := sc.FillSegments(t.Context(), teamID, limit)
		if err != nil {
			t.Fatalf("FillSegments: %v", err)
		}
		if p.State != store.FillFilling {
			return p
		}
	}
	t.Fatal("the fill never completes")
	return store.SegmentsFill{}
}

var segTestSegments = []string{"metadata.plan", "language", "answer.favourite", "answer.nps", "hidden.source"}

// testSegmentCounts: with segments declared, the counts per value are exact under creation,
// updates that move a response to another value, deletion and erasure; a survey's counts are
// complete once the fill has passed it; values beyond the first MaxSegmentValues count as one.
func testSegmentCounts(t *testing.T, s store.Store) {
	sc := optional[store.SegmentCounter](t, s, "store.SegmentCounter")
	ctx := t.Context()
	mustTeam(t, s, "a")
	sv := mustSurvey(t, s, newSurvey("a", t0))
	gen := declare(t, s, "a", segTestSegments...)
	if gen != 1 {
		t.Fatalf("first declaration's generation = %d, want 1", gen)
	}
	m := &segModel{def: sv.Definition, responses: map[string]segResponse{}}
	m.def.Normalize()
	plans, languages := []string{"pro", "free", "team", ""}, []string{"de", "fr", "", "de-AT"}
	idOf := map[int]string{}
	for i := range 90 {
		idOf[i] = ids.New()
		m.put(t, s, sv.ID, idOf[i], segResponseOf(i, plans[i%4], languages[i%3]))
	}
	for i := 0; i < 90; i += 5 { // another plan, language and answers; some finish
		r := segResponseOf(i+1, plans[(i+1)%4], languages[(i+2)%4])
		r.respondent, r.at, r.finished = m.responses[idOf[i]].respondent, r.at.Add(time.Hour), i%10 == 0
		m.put(t, s, sv.ID, idOf[i], r)
	}
	for i := 3; i < 90; i += 11 {
		if err := s.DeleteResponse(ctx, sv.ID, idOf[i]); err != nil {
			t.Fatal(err)
		}
		delete(m.responses, idOf[i])
	}
	if _, err := s.EraseRespondent(ctx, "a", "p4"); err != nil {
		t.Fatal(err)
	}
	for id, r := range m.responses {
		if r.respondent == "p4" {
			delete(m.responses, id)
		}
	}
	values := map[string][]string{"metadata.plan": {"pro", "free", "team", ""}, "language": {"de", "fr", "de-AT"},
		"answer.favourite": {"Reports", "Alerts", "something else"}, "answer.nps": {"0", "3", "7", "10"}}
	m.check(t, s, sv.ID, gen, segTestSegments, values)

	st, err := sc.SegmentState(ctx, sv.ID)
	if err != nil || st.Gen != gen || st.Complete {
		t.Fatalf("state before the fill: %+v, %v; want generation %d, not complete", st, err, gen)
	}
	if p := fillAll(t, sc, "a", 1000); p.State != store.FillComplete || p.Done != p.Total || p.Total != int64(len(m.responses)) {
		t.Errorf("fill's progress = %+v, want complete, %d of %d", p, len(m.responses), len(m.responses))
	}
	if st, err = sc.SegmentState(ctx, sv.ID); err != nil || !st.Complete || len(st.Values) != len(segTestSegments) {
		t.Fatalf("state after the fill: %+v, %v", st, err)
	}
	if len(st.Values[4]) != 0 || len(st.Values[0]) != 3 { // no hidden fields; "" is not named
		t.Errorf("values named: %q", st.Values)
	}
	m.check(t, s, sv.ID, gen, segTestSegments, values) // the fill counted nothing twice
	m.checkResponses(t, sc, sv.ID, gen, 0, "metadata.plan", []string{"pro", "team"})
	m.checkResponses(t, sc, sv.ID, gen, 2, "answer.favourite", []string{"Alerts"})
	testSegmentOther(t, s, sc)
}

// testSegmentOther: the first MaxSegmentValues values of a segment are counted by name, the
// rest together under store.SegmentOther.
func testSegmentOther(t *testing.T, s store.Store, sc store.SegmentCounter) {
	mustTeam(t, s, "b")
	sv := mustSurvey(t, s, newSurvey("b", t0))
	gen := declare(t, s, "b", "metadata.plan")
	n := store.MaxSegmentValues + 5
	for i := range n {
		put(t, s, store.ResponseWrite{SurveyID: sv.ID, ID: ids.New(), Respondent: "x", Data: survey.Answers{"nps": survey.Number(i % 11)},
			Metadata: map[string]string{"plan": fmt.Sprint("plan-", i)}, At: t0.Add(time.Duration(i) * time.Minute)})
	}
	st, err := sc.SegmentState(t.Context(), sv.ID)
	if err != nil || len(st.Values) != 1 || len(st.Values[0]) != store.MaxSegmentValues {
		t.Fatalf("state: %+v, %v; want %d values named", st, err, store.MaxSegmentValues)
	}
	got, err := s.Counts(t.Context(), sv.ID, []string{store.SegmentKey(gen, 0, store.SegmentOther, store.FunnelKey)}, t0, t0.Add(time.Duration(n)*time.Minute))
	if err != nil || got[store.SegmentKey(gen, 0, store.SegmentOther, store.FunnelKey)][0] != 5 {
		t.Errorf("other's responses: %v, %v; want 5", got, err)
	}
}

// testSegmentFill: responses stored before segments are declared are counted by the fill, in
// batches, resumed where it stopped, with writes, updates and deletions between its batches;
// a change of the segments starts a new generation, filled again.
func testSegmentFill(t *testing.T, s store.Store) {
	sc := optional[store.SegmentCounter](t, s, "store.SegmentCounter")
	ctx := t.Context()
	mustTeam(t, s, "a")
	sv := mustSurvey(t, s, newSurvey("a", t0))
	other := mustSurvey(t, s, newSurvey("a", t0))
	m := &segModel{def: sv.Definition, responses: map[string]segResponse{}}
	m.def.Normalize()
	plans := []string{"pro", "free", "team"}
	var idsWritten []string
	for i := range 60 {
		id := ids.New()
		idsWritten = append(idsWritten, id)
		m.put(t, s, sv.ID, id, segResponseOf(i, plans[i%3], "de"))
		put(t, s, store.ResponseWrite{SurveyID: other.ID, ID: ids.New(), Respondent: "o", Data: survey.Answers{}, At: t0})
	}
	if p, err := sc.SegmentsProgress(ctx, "a"); err != nil || p.State != store.FillNone {
		t.Fatalf("progress without segments: %+v, %v", p, err)
	}
	gen := declare(t, s, "a", "metadata.plan", "answer.favourite")
	p, err := sc.FillSegments(ctx, "a", 7) // one batch, then the fill stops
	if err != nil || p.State != store.FillFilling || p.Done > 7 || p.Total != 120 {
		t.Fatalf("progress after one batch: %+v, %v; want filling, at most 7 of 120", p, err)
	}
	if st, err := sc.SegmentState(ctx, sv.ID); err != nil || st.Complete {
		t.Fatalf("state while filling: %+v, %v", st, err)
	}
	// Between batches: an update moving a filled and an unfilled response, a deletion, a new one.
	for _, i := range []int{0, 40} {
		r := segResponseOf(i+1, "team", "fr")
		r.respondent, r.at = m.responses[idsWritten[i]].respondent, r.at.Add(time.Minute)
		m.put(t, s, sv.ID, idsWritten[i], r)
	}
	if err := s.DeleteResponse(ctx, sv.ID, idsWritten[50]); err != nil {
		t.Fatal(err)
	}
	delete(m.responses, idsWritten[50])
	m.put(t, s, sv.ID, ids.New(), segResponseOf(61, "pro", "de"))
	p = fillAll(t, sc, "a", 9) // resumed
	if p.State != store.FillComplete || p.Done != p.Total {
		t.Errorf("progress once filled: %+v", p)
	}
	values := map[string][]string{"metadata.plan": plans, "answer.favourite": {"Reports", "Alerts", "something else"}}
	m.check(t, s, sv.ID, gen, []string{"metadata.plan", "answer.favourite"}, values)
	if st, err := sc.SegmentState(ctx, sv.ID); err != nil || !st.Complete {
		t.Fatalf("state once filled: %+v, %v", st, err)
	}

	// A change of the segments: a new generation, counted from scratch by the fill.
	gen2 := declare(t, s, "a", "answer.favourite")
	if gen2 != gen+1 {
		t.Fatalf("generation after a change = %d, want %d", gen2, gen+1)
	}
	if again := declare(t, s, "a", "answer.favourite"); again != gen2 {
		t.Errorf("generation after the same segments again = %d, want %d", again, gen2)
	}
	if st, err := sc.SegmentState(ctx, sv.ID); err != nil || st.Complete || st.Gen != gen2 {
		t.Fatalf("state after a change: %+v, %v", st, err)
	}
	// Two fillers at once (on a shared database, as two processes would) count each response once.
	errs := make(chan error, 2)
	for range 2 {
		go func() {
			for range 1000 {
				p, err := sc.FillSegments(ctx, "a", 5)
				if err != nil || p.State == store.FillComplete {
					errs <- err
					return
				}
			}
			errs <- errors.New("the fill never completes")
		}()
	}
	for range 2 {
		if err := <-errs; err != nil {
			t.Fatalf("FillSegments at once: %v", err)
		}
	}
	m.check(t, s, sv.ID, gen2, []string{"answer.favourite"}, values)
}

// testSegmentTeams: SegmentTeams lists the teams that declare segments, and no longer a team
// that cleared them, so that a starting process resumes exactly the fills that may be left.
func testSegmentTeams(t *testing.T, s store.Store) {
	sc := optional[store.SegmentCounter](t, s, "store.SegmentCounter")
	for _, id := range []string{"a", "b", "c"} {
		mustTeam(t, s, id)
	}
	declare(t, s, "a", "language")
	declare(t, s, "c", "metadata.plan", "language")
	declare(t, s, "b", "language")
	declare(t, s, "b")
	got, err := sc.SegmentTeams(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, []string{"a", "c"}) {
		t.Errorf("SegmentTeams = %q, want [a c]", got)
	}
}
