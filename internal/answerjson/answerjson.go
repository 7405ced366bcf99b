// Package answerjson reads stored answers, JSON objects of answers by question id, fast: as a
// stream of tokens, with one decoder reused from one object to the next, leaving to
// encoding/json, which stays the reference, only what is not plain. Decoding them whole with
// encoding/json into a map of values was a fifth of a filtered summary's CPU, and most of what
// an update of a response cost the store's single writer beyond its SQL (docs/performance.md).
package answerjson

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/svc-feedback/svc/survey"
)

// Reader reads JSON objects of answers member by member, as a stream of tokens, with one
// decoder reused from one object to the next, so it serves one goroutine; its zero value is
// ready. It reads them as encoding/json's Unmarshal into a map[string]json.RawMessage does: a
// name may come twice (the caller keeps the last), invalid UTF-8 passes, and anything but one
// object alone is refused whole. Decoding the whole object into such a map, where a caller
// wants one or two of its answers, was most of a summary's and a filter's CPU.
type Reader struct {
	src  bytes.Reader
	dec  *jsontext.Decoder
	opts []jsontext.Options // made once: each Reset takes them again
}

// Decoder is the decoder Each's member reads a value from.
func (o *Reader) Decoder() *jsontext.Decoder { return o.dec }

// Each reads data, calling member with each member's name in turn; member reads the member's
// value from the Decoder, or skips it, before it returns. Each reports false, having stopped
// there, when data is not one JSON object alone or member fails.
func (o *Reader) Each(data []byte, member func(id string) error) bool {
	o.src.Reset(data)
	if o.dec == nil {
		o.opts = []jsontext.Options{jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true)}
		o.dec = jsontext.NewDecoder(&o.src, o.opts...)
	} else {
		o.dec.Reset(&o.src, o.opts...)
	}
	if tok, err := o.dec.ReadToken(); err != nil || tok.Kind() != '{' {
		return false
	}
	for o.dec.PeekKind() == '"' {
		name, err := o.dec.ReadToken()
		if err != nil || member(name.String()) != nil {
			return false
		}
	}
	if tok, err := o.dec.ReadToken(); err != nil || tok.Kind() != '}' {
		return false
	}
	_, err := o.dec.ReadToken()
	return err == io.EOF
}

// errNotPlain stops answers at a value it leaves to encoding/json.
var errNotPlain = errors.New("answerjson: an answer that is not a plain string, number or list of strings")

// answers decodes stored answers as survey.Answers' UnmarshalJSON does, reading the plain
// answers (a string, a number, a list of strings) as tokens into their typed values. It
// reports false, leaving the decoding to encoding/json, for anything else: a number out of
// float64's range, null, an object (a bug report), a list holding something other than
// strings, data that is not one object, and also invalid UTF-8 or a string that decodes to a
// replacement character, where encoding/json's replacements are the reference (FuzzAnswers
// found the two alike there, but the rare case is not worth the risk). Decoding a map of
// values with encoding/json and typing each was a fifth of a filtered summary's CPU.
func (o *Reader) answers(data []byte) (survey.Answers, bool) {
	if !utf8.Valid(data) {
		return nil, false
	}
	out := survey.Answers{}
	ok := o.Each(data, func(id string) error {
		a, err := o.plainAnswer()
		if err == nil {
			out[id] = a // a name given twice keeps its last answer, as a map decoded by encoding/json does
		}
		return err
	})
	return out, ok
}

// plainAnswer reads the next value as a plain answer, or fails with errNotPlain.
func (o *Reader) plainAnswer() (survey.Answer, error) {
	switch o.dec.PeekKind() {
	case '"':
		return o.plainText()
	case '0':
		tok, err := o.dec.ReadToken()
		if err != nil {
			return nil, err
		}
		f, err := tok.Float()
		if err != nil {
			return nil, errNotPlain
		}
		if f == 0 {
			f = 0 // -0 is the score 0, as survey.AnswerFromValue has it
		}
		return survey.Number(f), nil
	case '[':
		if _, err := o.dec.ReadToken(); err != nil {
			return nil, err
		}
		list := survey.Choices{}
		for o.dec.PeekKind() == '"' {
			s, err := o.plainText()
			if err != nil {
				return nil, err
			}
			list = append(list, string(s))
		}
		if tok, err := o.dec.ReadToken(); err != nil || tok.Kind() != ']' {
			return nil, errNotPlain
		}
		return list, nil
	}
	return nil, errNotPlain
}

// plainText reads a string that holds no replacement character.
func (o *Reader) plainText() (survey.Text, error) {
	tok, err := o.dec.ReadToken()
	if err != nil {
		return "", err
	}
	s := tok.String()
	if strings.ContainsRune(s, utf8.RuneError) {
		return "", errNotPlain
	}
	return survey.Text(s), nil
}

// Decode decodes stored answers as survey.Answers' UnmarshalJSON does: the plain ones as
// tokens (see answers), the rest with encoding/json. A nil Reader decodes with a Reader of its
// own.
func (o *Reader) Decode(data []byte) (survey.Answers, error) {
	if o == nil {
		o = &Reader{}
	}
	if a, ok := o.answers(data); ok {
		return a, nil
	}
	var a survey.Answers
	if err := json.Unmarshal(data, &a); err != nil {
		return nil, fmt.Errorf("stored answers: %w", err)
	}
	return a, nil
}
