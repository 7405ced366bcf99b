package client

import (
	"net/url"
	"strconv"
)

// Filter picks responses by what they hold, with one meaning on every read that takes it (the
// list, the export, the summary, stats and trends). All its conditions must hold; the zero
// Filter picks every response.
type Filter struct {
	// Answers keeps responses whose answer to a question is any of the values: a rating's
	// score, a choice's option value (or the free text written instead), or a word an
	// open-ended answer contains, in any case.
	Answers map[string][]string
	// Min and Max bound rating questions' scores, by question id.
	Min, Max map[string]float64
	// Metadata keeps responses whose metadata key holds any of the values.
	Metadata map[string][]string
	// Finished, when set, keeps only finished (true) or only unfinished (false) responses.
	Finished *bool
}

// addTo adds the filter's query parameters to q.
func (f *Filter) addTo(q url.Values) url.Values {
	if f == nil {
		return q
	}
	for id, values := range f.Answers {
		q["answer."+id] = append(q["answer."+id], values...)
	}
	for id, n := range f.Min {
		q.Set("answer."+id+".min", strconv.FormatFloat(n, 'g', -1, 64))
	}
	for id, n := range f.Max {
		q.Set("answer."+id+".max", strconv.FormatFloat(n, 'g', -1, 64))
	}
	for key, values := range f.Metadata {
		q["metadata."+key] = append(q["metadata."+key], values...)
	}
	if f.Finished != nil {
		q.Set("finished", strconv.FormatBool(*f.Finished))
	}
	return q
}
