package report

import (
	"encoding/json"
	"math"
	"slices"
	"testing"

	"github.com/svc-feedback/svc/store"
	"github.com/svc-feedback/svc/survey"
)

// matchByUnmarshal is how a filter tested answers before matcher: the answers decoded by
// encoding/json into a map of raw values, each named one tested. matcher must agree.
func matchByUnmarshal(f Filter, r store.Response) bool {
	if !f.matchOthers(r) {
		return false
	}
	var answers map[string]json.RawMessage
	_ = json.Unmarshal(r.Data, &answers)
	for id, af := range f.answers {
		if !af.match(answers[id]) {
			return false
		}
	}
	return true
}

// matchFilters are the filters the cases below are tested with: each kind of answer term
// alone, together, and beside a term on another field.
var matchFilters = func() []Filter {
	nine, six := 9.0, 6.0
	nps := answerFilter{typ: survey.TypeRating, min: &nine}
	pick := answerFilter{typ: survey.TypeMultiSelect, values: []string{"red", "teal"}}
	text := answerFilter{typ: survey.TypeOpenEnded, values: []string{"SLOW"}}
	low := answerFilter{typ: survey.TypeRating, max: &six, values: []string{"3", "6"}}
	done := true
	return []Filter{
		{answers: map[string]answerFilter{"q_nps": nps}},
		{answers: map[string]answerFilter{"q_pick": pick}},
		{answers: map[string]answerFilter{"q_text": text}},
		{answers: map[string]answerFilter{"q_nps": low}},
		{answers: map[string]answerFilter{"q_nps": nps, "q_pick": pick, "q_text": text}},
		{answers: map[string]answerFilter{"q_pick": pick}, finished: &done},
		{finished: &done},
	}
}()

var matchCases = []string{
	`{"q_nps":9,"q_pick":["red"],"q_text":"slow export"}`,
	`{"q_nps":10,"q_pick":"teal","q_text":"Export is SLOW"}`,
	`{"q_nps":6,"q_pick":["blue","teal"],"q_text":"fast"}`,
	`{"q_nps":3.0,"q_pick":[],"q_text":""}`,
	`{"q_nps":9.5}`,
	`{"q_nps":"9","q_pick":"red"}`,
	`{"q_nps":null,"q_pick":null,"q_text":null}`,
	`{"q_nps":1,"q_nps":9}`,                           // the last of duplicates counts
	`{"q_nps":9,"q_nps":1}`,                           // both ways
	`{"q_pick":["red",3],"q_text":["slow"]}`,          // an array with a number; a list for a text
	`{"q_pick":["red",null],"q_text":{"a":"slow"}}`,   // a null element; an object
	`{"other":{"q_nps":9},"q_nps":9e0}`,               // a nested name is not an answer
	`{"q_text":"sl\u006fw","q_pick":["r\u0065d"]}`,    // escapes
	"{\"q_text\":\"slow \xff\",\"q_pick\":[\"red\"]}", // invalid UTF-8 in a value
	"{\"q_\xffnps\":9,\"q_nps\":9}",                   // and in a name
	`{"q_nps":9} `,
	`{"q_nps":9}{}`, // trailing data: no answers
	`{"q_nps":9,}`,  // invalid JSON
	`{"q_nps":9`,    // cut short
	`["q_nps",9]`,   // not an object
	`null`,
	``,
	`{}`,
}

// TestMatcherMatchesAsEncodingJSON: for every case and filter, finished or not, matcher picks
// exactly the responses that encoding/json's reading picked, one matcher serving all in turn.
func TestMatcherMatchesAsEncodingJSON(t *testing.T) {
	for _, f := range matchFilters {
		m := f.matcher()
		for _, data := range matchCases {
			for _, finished := range []bool{false, true} {
				r := store.Response{Data: []byte(data), Finished: finished}
				if want, got := matchByUnmarshal(f, r), m.Match(r); got != want {
					t.Errorf("filter %+v, answers %q, finished %v: matcher %v, encoding/json %v", f.answers, data, finished, got, want)
				}
			}
		}
	}
	// The cases must pick and leave both, or the comparison proves little.
	picked := 0
	m := matchFilters[0].matcher()
	for _, data := range matchCases {
		if m.Match(store.Response{Data: []byte(data)}) {
			picked++
		}
	}
	if picked == 0 || picked == len(matchCases) {
		t.Errorf("the NPS filter picks %d of %d cases", picked, len(matchCases))
	}
}

// narrowFilters are matchFilters and filters whose bounds a Store must not take for more
// than they say: bounds and values that are not numbers, values beside a range, a range
// that picks nothing.
var narrowFilters = func() []Filter {
	nan, inf, nine, three := math.NaN(), math.Inf(1), 9.0, 3.0
	return append(slices.Clip(matchFilters),
		Filter{answers: map[string]answerFilter{"q_nps": {typ: survey.TypeRating, min: &nan, max: &nine}}},
		Filter{answers: map[string]answerFilter{"q_nps": {typ: survey.TypeRating, values: []string{"NaN", "9.5", "1e999"}}}},
		Filter{answers: map[string]answerFilter{"q_nps": {typ: survey.TypeRating, values: []string{"NaN"}}}},
		Filter{answers: map[string]answerFilter{"q_nps": {typ: survey.TypeRating, min: &three, max: &inf, values: []string{"1", "10"}}}},
		Filter{answers: map[string]answerFilter{"q_nps": {typ: survey.TypeRating, min: &nine, max: &three}}},
		Filter{answers: map[string]answerFilter{"q_pick": {typ: survey.TypeSingleSelect, values: []string{"red"}}}},
	)
}()

// TestNarrowingKeepsWhatMatches: what a filter lets a Store test in its query
// (store.Narrowing) lets through every response the filter picks, and leaves some out.
func TestNarrowingKeepsWhatMatches(t *testing.T) {
	for _, f := range narrowFilters {
		m, n := f.matcher(), f.narrowing()
		left := 0
		for _, data := range matchCases {
			for _, finished := range []bool{false, true} {
				r := store.Response{Data: []byte(data), Finished: finished}
				if m.Match(r) && !n.Passes(r) {
					t.Errorf("filter %+v picks %q (finished %v), which its narrowing %+v leaves out", f.answers, data, finished, n)
				}
				if !n.Passes(r) {
					left++
				}
			}
		}
		if n != nil && left == 0 {
			t.Errorf("the narrowing %+v of filter %+v leaves nothing out", n, f.answers)
		}
	}
	if n := matchFilters[3].narrowing(); len(n.Scores) != 1 || n.Scores[0].Min != 3 || n.Scores[0].Max != 6 {
		t.Errorf("scores 3 or 6, at most 6: narrowing %+v, want [3, 6]", n)
	}
	// The same filter makes the same query: its terms come in the order of their ids.
	pick := answerFilter{typ: survey.TypeMultiSelect, values: []string{"red"}}
	f := Filter{answers: map[string]answerFilter{"q_c": pick, "q_a": pick, "q_b": pick, "q_d": pick}}
	for range 20 {
		var got []string
		for _, c := range f.narrowing().Choices {
			got = append(got, c.QuestionID)
		}
		if !slices.Equal(got, []string{"q_a", "q_b", "q_c", "q_d"}) {
			t.Fatalf("choice terms in the order %v, want their ids'", got)
		}
	}
}

// FuzzFilterMatch compares matcher with encoding/json's reading on any answers.
func FuzzFilterMatch(f *testing.F) {
	for _, c := range matchCases {
		f.Add([]byte(c))
	}
	ms := make([]*matcher, len(matchFilters))
	narrowings := make([]*store.Narrowing, len(matchFilters))
	for i, flt := range matchFilters {
		ms[i], narrowings[i] = flt.matcher(), flt.narrowing()
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		r := store.Response{Data: data}
		for i, m := range ms {
			want, got := matchByUnmarshal(matchFilters[i], r), m.Match(r)
			if got != want {
				t.Errorf("filter %+v, answers %q: matcher %v, encoding/json %v", matchFilters[i].answers, data, got, want)
			}
			if got && !narrowings[i].Passes(r) {
				t.Errorf("filter %+v picks %q, which its narrowing leaves out", matchFilters[i].answers, data)
			}
		}
	})
}
