package report

import "github.com/svc-feedback/svc/internal/answerjson"

// textReader finds the written answers in responses' texts (store.ResponseTexts), reading each
// as a stream of tokens. A summary reads up to latestScan responses a period for them:
// decoding each into a map of raw values with encoding/json cost nine-tenths of the summary of
// a survey whose newest responses lack an open-ended answer, and nearly all of it was the
// map, the reflection and the copies of values nobody reads.
//
// It reads as encoding/json's Unmarshal into a map[string]json.RawMessage would: invalid
// JSON gives nothing, and of two members with the same name, the last counts.
type textReader struct {
	obj answerjson.Reader
	// found holds a response's written answers until the whole of it has been read.
	found []foundText
}

type foundText struct {
	id   string
	text string
}

func newTextReader() *textReader { return &textReader{} }

// written returns the written answers in texts, a JSON object of answers by question id, to
// the questions open holds (each with its options, nil for an open-ended question), in the
// order they come. The result is valid until the next call.
func (t *textReader) written(texts []byte, open map[string]map[string]bool) []foundText {
	t.found = t.found[:0]
	ok := t.obj.Each(texts, func(id string) error {
		options, ok := open[id]
		if !ok {
			return t.obj.Decoder().SkipValue()
		}
		t.drop(id) // the last of duplicate members counts
		text, ok, err := t.text(options)
		if ok {
			t.found = append(t.found, foundText{id, text})
		}
		return err
	})
	if !ok {
		return nil
	}
	return t.found
}

// drop forgets what an earlier member named id gave.
func (t *textReader) drop(id string) {
	for i := range t.found {
		if t.found[i].id == id {
			t.found = append(t.found[:i], t.found[i+1:]...)
			return
		}
	}
}

// text reads the next value, an answer to a question textsOf accepted, and returns the text a
// person wrote in it: the answer of an open-ended question (options nil), or the free text
// of a select question, one that is not among its options. A null reads as an empty string,
// as encoding/json reads it. The error is the decoder's: the texts are not valid JSON.
func (t *textReader) text(options map[string]bool) (string, bool, error) {
	switch t.obj.Decoder().PeekKind() {
	case '"', 'n':
		tok, err := t.obj.Decoder().ReadToken()
		if err != nil {
			return "", false, err
		}
		var s string
		if tok.Kind() == '"' {
			s = tok.String()
		}
		return s, !options[s], nil
	case '[':
		if options != nil {
			return t.freeText(options)
		}
	}
	return "", false, t.obj.Decoder().SkipValue()
}

// freeText reads the next value, an array, and returns its first string that is not among
// options, when every element is a string (or null, which reads as an empty string).
func (t *textReader) freeText(options map[string]bool) (string, bool, error) {
	if _, err := t.obj.Decoder().ReadToken(); err != nil { // [
		return "", false, err
	}
	var (
		text         string
		found, other bool
	)
	for k := t.obj.Decoder().PeekKind(); k != ']'; k = t.obj.Decoder().PeekKind() {
		if k != '"' && k != 'n' {
			other = true // an element that is not a string: no free text in this answer
			if err := t.obj.Decoder().SkipValue(); err != nil {
				return "", false, err
			}
			continue
		}
		tok, err := t.obj.Decoder().ReadToken()
		if err != nil {
			return "", false, err
		}
		var s string
		if k == '"' {
			s = tok.String()
		}
		if !found && !options[s] {
			text, found = s, true
		}
	}
	if _, err := t.obj.Decoder().ReadToken(); err != nil { // ]
		return "", false, err
	}
	return text, found && !other, nil
}
