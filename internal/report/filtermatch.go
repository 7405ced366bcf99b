package report

import (
	"bytes"
	"encoding/json"
	"io"

	"github.com/go-json-experiment/json/jsontext"

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
	src bytes.Reader
	dec *jsontext.Decoder
	// passed tells, for each question the filter names, whether the response's answer (its
	// last member of that name so far) passes.
	passed map[string]bool
}

// matcher returns a matcher of f, to test responses one after the other.
func (f Filter) matcher() *matcher {
	return &matcher{f: f, dec: jsontext.NewDecoder(bytes.NewReader(nil)), passed: make(map[string]bool, len(f.answers))}
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
	m.src.Reset(data)
	m.dec.Reset(&m.src, jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true))
	if tok, err := m.dec.ReadToken(); err != nil || tok.Kind() != '{' {
		return false
	}
	for m.dec.PeekKind() == '"' {
		name, err := m.dec.ReadToken()
		if err != nil {
			return false
		}
		id := name.String() // before the next read, which ends the token's validity
		af, ok := m.f.answers[id]
		if !ok {
			if m.dec.SkipValue() != nil {
				return false
			}
			continue
		}
		v, err := m.dec.ReadValue()
		if err != nil {
			return false
		}
		m.passed[id] = af.match(json.RawMessage(v)) // the value, too, is valid until the next read
	}
	if tok, err := m.dec.ReadToken(); err != nil || tok.Kind() != '}' {
		return false
	}
	_, err := m.dec.ReadToken()
	return err == io.EOF
}
