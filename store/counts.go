package store

import (
	"hash/fnv"
	"strings"

	"github.com/svc-feedback/svc/survey"
)

// A survey's answer counts are kept on write, per key and number, in the same rollups as its
// rating counts, so that Counts reads them for any time range at a cost that does not
// grow with the responses: a rating question's counts are keyed by its id and numbered by
// score; the summary's by the keys below, which begin with a control character that no
// question id has (survey.Definition.Validate refuses them).
const (
	// AnsweredKey counts the responses that answered a question, numbered by its position.
	AnsweredKey = "\x1fanswered"
	// ReachedKey counts the responses that reached a question (see Counts), numbered by its
	// position.
	ReachedKey = "\x1freached"
	// FunnelKey counts responses: number 0 every response, number 1 the finished ones.
	FunnelKey = "\x1ffunnel"
	// EventsKey counts events: number 0 views, number 1 dismissals.
	EventsKey = "\x1fevents"
	// OtherOption numbers a choice answered with free text rather than an option.
	OtherOption = -1
)

// EventCount is the count an event of type t adds to: EventsKey, 0 for a view, 1 for a
// dismissal.
func EventCount(t EventType) Count {
	if t == EventView {
		return Count{EventsKey, 0}
	}
	return Count{EventsKey, 1}
}

// OptionKey is the key of a single- or multi-select question's choices; each option's number
// is OptionNumber of its value.
func OptionKey(questionID string) string { return "\x1foption\x1f" + questionID }

// IsCountKey reports whether key is one of the summary's keys rather than a question id.
func IsCountKey(key string) bool { return strings.HasPrefix(key, "\x1f") }

// OptionNumber is the number an option value is counted under: a hash of the value, so that a
// count stays with its option when options are added, removed or reordered.
func OptionNumber(value string) int {
	h := fnv.New32a()
	_, _ = h.Write([]byte(value))
	return int(h.Sum32() & 0x7fffffff)
}

// Count is one count a response adds to: a key and a number.
type Count struct {
	Key string
	N   int
}

// ResponseCounts lists what a response with answers a, finished or not, adds to its survey's counts:
// each rating's score; each answered question; each question reached; each choice; the answers
// of the types morecounts.go counts; and the response itself in the funnel. def must be normalized (questions in position order).
//
// The questions a response reached are those on its route through the survey (routing as the
// widget follows it, from the answers given) up to and including the question after the last
// one it answered, or the whole route once finished: a person who stopped saw that question
// and left there. Any question answered off the route counts as reached too.
func ResponseCounts(def *survey.Definition, a survey.Answers, finished bool) []Count {
	out := make([]Count, 0, 2*len(a)+4)
	out = append(out, Count{FunnelKey, 0})
	if finished {
		out = append(out, Count{FunnelKey, 1})
	}
	for i := range def.Questions {
		q := &def.Questions[i]
		ans, ok := a[q.ID]
		if !ok {
			continue
		}
		out = append(out, Count{AnsweredKey, q.Position})
		switch v := ans.(type) {
		case survey.Number:
			if q.Type() == survey.TypeRating {
				out = append(out, Count{q.ID, int(v)})
			}
		case survey.Text:
			if q.Type() == survey.TypeSingleSelect {
				out = append(out, Count{OptionKey(q.ID), optionOf(q, string(v))})
			}
		case survey.Choices:
			if q.Type() == survey.TypeRanking {
				break // counted by rank below
			}
			for _, c := range v {
				out = append(out, Count{OptionKey(q.ID), optionOf(q, c)})
			}
		}
		out = append(out, moreCounts(q, ans)...)
	}
	for _, pos := range reached(def, a, finished) {
		out = append(out, Count{ReachedKey, pos})
	}
	return out
}

// optionOf is the number a choice is counted under: its option's, or OtherOption for free text.
func optionOf(q *survey.Question, value string) int {
	var options []survey.Option
	switch p := q.Properties.(type) {
	case survey.SingleSelectProperties:
		options = p.Options
	case survey.MultiSelectProperties:
		options = p.Options
	}
	for _, o := range options {
		if o.Value == value {
			return OptionNumber(value)
		}
	}
	return OtherOption
}

// reached lists the positions of the questions a response reached (see Counts).
func reached(def *survey.Definition, a survey.Answers, finished bool) []int {
	route := def.Route(a)
	on := make([]bool, len(def.Questions))
	last := -1 // index in route of the last question answered
	for i, qi := range route {
		on[qi] = true
		if _, answered := a[def.Questions[qi].ID]; answered {
			last = i
		}
	}
	if !finished {
		for _, qi := range route[min(last+2, len(route)):] {
			on[qi] = false
		}
		route = route[:min(last+2, len(route))]
	}
	positions := make([]int, 0, len(route)+1)
	for _, qi := range route {
		positions = append(positions, def.Questions[qi].Position)
	}
	// A question answered was reached, on the route or not (a client may answer what its
	// routing skipped): reached never counts fewer than answered.
	for i := range def.Questions {
		q := &def.Questions[i]
		if _, answered := a[q.ID]; answered && !on[i] {
			positions = append(positions, q.Position)
		}
	}
	return positions
}
