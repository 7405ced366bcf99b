package report

import (
	"encoding/json"

	"github.com/svc-feedback/svc/internal/answerjson"
	"github.com/svc-feedback/svc/store"
)

// matcher tests responses against a filter, reading the answers the filter names from each
// response's stored answers as a stream of tokens and skipping the rest. A filtered summary,
// list or export tests every response of its range: decoding each response's answers into a
// map of raw values with encoding/json was two-fifths of a filtered summary's CPU.
//
// It reads as encoding/json's Unmarshal into a map[string]json.RawMessage did: invalid JSON
// gives no answers, and of two members with the same name, the last counts. Its decoder is
// reused from one response to the next, so a matcher serves one goroutine.
type matcher struct {
	f   Filter
	obj answerjson.Reader
	// passed tells, for each question the filter names, whether the response's answer (its
	// last member of that name so far) passes.
	passed map[string]bool
}

// matcher returns a matcher of f, to test responses one after the other.
func (f Filter) matcher() *matcher {
	return &matcher{f: f, passed: make(map[string]bool, len(f.answers))}
}

// Match reports whether the filter picks r: it passes every condition of the filter.
func (m *matcher) Match(r store.Response) bool {
	if !m.f.matchOthers(r) {
		return false
	}
	if len(m.f.answers) == 0 {
		return true
	}
	if !m.read(r.Data) {
		return false // as no answers: none passes
	}
	for id := range m.f.answers {
		if !m.passed[id] {
			return false
		}
	}
	return true
}

// read reads data, a response's answers, noting in passed whether each answer the filter
// names passes; it reports false for data that is not a JSON object and nothing else.
func (m *matcher) read(data []byte) bool {
	clear(m.passed)
	return m.obj.Each(data, func(id string) error {
		af, ok := m.f.answers[id]
		if !ok {
			return m.obj.Decoder().SkipValue()
		}
		v, err := m.obj.Decoder().ReadValue()
		if err == nil {
			m.passed[id] = af.match(json.RawMessage(v)) // v is valid until the next read
		}
		return err
	})
}
