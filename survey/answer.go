package survey

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"

	"github.com/svc-feedback/svc/internal/jsonappend"
)

// Answer is one question's answer: Text, Number, Choices, BugReportAnswer, Bool or Fields.
type Answer interface {
	isAnswer()
}

// Text is a string answer (single-select, open-ended, date, cta).
type Text string

// Number is a numeric answer (rating).
type Number float64

// Choices is a list of strings (multi-select, ranking).
type Choices []string

// BugReportAnswer is the answer to a bug-report question.
type BugReportAnswer struct {
	Title       string  `json:"title"`
	Metadata    string  `json:"metadata"`
	Description *string `json:"description,omitempty"`
	// ScreenshotDataURL is an image data URL ("data:image/png;base64,...").
	ScreenshotDataURL *string `json:"screenshotDataUrl,omitempty"`
	// RecordingEventsJSON is a JSON-encoded array of recording events.
	RecordingEventsJSON *string `json:"recordingEventsJson,omitempty"`
}

// UnknownAnswer is an answer of a shape this version of svc does not know, kept as its JSON:
// what DecodeAnswerOrUnknown gives a reader of stored responses (the client, a webhook
// receiver) for an answer a newer server wrote. No question accepts it, so no server stores one.
type UnknownAnswer json.RawMessage

// MarshalJSON writes the answer as it was read.
func (u UnknownAnswer) MarshalJSON() ([]byte, error) {
	if len(u) == 0 {
		return []byte("null"), nil
	}
	return u, nil
}

func (UnknownAnswer) isAnswer()   {}
func (Text) isAnswer()            {}
func (Number) isAnswer()          {}
func (Choices) isAnswer()         {}
func (BugReportAnswer) isAnswer() {}

// MarshalJSON writes an empty list as [] rather than null.
func (c Choices) MarshalJSON() ([]byte, error) {
	return c.appendJSON(nil), nil
}

// appendJSON appends the list as a JSON array; an empty or nil list is [].
func (c Choices) appendJSON(b []byte) []byte {
	b = append(b, '[')
	for i, s := range c {
		if i > 0 {
			b = append(b, ',')
		}
		b = jsonappend.String(b, s)
	}
	return append(b, ']')
}

// Answers maps question ids to answers: the data of a response.
type Answers map[string]Answer

// AppendJSON appends the answers to b as a JSON object with its keys in order: the bytes
// json.Marshal writes for them, without its reflection, which costs a few per cent of every
// response stored. Nil answers are null.
func (a Answers) AppendJSON(b []byte) ([]byte, error) {
	if a == nil {
		return append(b, "null"...), nil
	}
	b = append(b, '{')
	for i, id := range jsonappend.SortedKeys(a) {
		if i > 0 {
			b = append(b, ',')
		}
		b = jsonappend.String(b, id)
		b = append(b, ':')
		var err error
		switch v := a[id].(type) {
		case Text:
			b = jsonappend.String(b, string(v))
		case Number:
			b, err = jsonappend.Float(b, float64(v))
		case Choices:
			b = v.appendJSON(b)
		case BugReportAnswer:
			b = v.appendJSON(b)
		case Fields:
			b = v.appendJSON(b)
		case Bool:
			b = strconv.AppendBool(b, bool(v))
		default: // pointers to answers, and nil
			var q []byte
			if q, err = json.Marshal(v); err == nil {
				b = append(b, q...)
			}
		}
		if err != nil {
			return nil, fmt.Errorf("answer to %q: %w", id, err)
		}
	}
	return append(b, '}'), nil
}

// appendJSON appends the bug report as encoding/json writes the struct: the optional members
// only when set.
func (r BugReportAnswer) appendJSON(b []byte) []byte {
	b = append(b, `{"title":`...)
	b = jsonappend.String(b, r.Title)
	b = append(b, `,"metadata":`...)
	b = jsonappend.String(b, r.Metadata)
	for _, m := range []struct {
		name  string
		value *string
	}{{`,"description":`, r.Description}, {`,"screenshotDataUrl":`, r.ScreenshotDataURL}, {`,"recordingEventsJson":`, r.RecordingEventsJSON}} {
		if m.value != nil {
			b = append(b, m.name...)
			b = jsonappend.String(b, *m.value)
		}
	}
	return append(b, '}')
}

// UnmarshalJSON decodes each answer by its JSON shape (see AnswerFromValue).
func (a *Answers) UnmarshalJSON(b []byte) error {
	// Decoding into plain values and converting them reads the bytes twice in all; decoding
	// each answer as a json.RawMessage would read them six times.
	var values map[string]any
	if err := json.Unmarshal(b, &values); err != nil {
		return err
	}
	if values == nil {
		return errors.New("data must be an object of answers by question id, not null")
	}
	out, err := AnswersFromValues(values)
	if err != nil {
		return err
	}
	*a = out
	return nil
}

// AnswersFromValues types the answers of a data object that encoding/json decoded into a
// map[string]any, with the rules of AnswerFromValue.
func AnswersFromValues(values map[string]any) (Answers, error) {
	out := make(Answers, len(values))
	for id, v := range values {
		ans, err := AnswerFromValue(v)
		if err != nil {
			return nil, fmt.Errorf("data: answer to %q: %w", id, err)
		}
		out[id] = ans
	}
	return out, nil
}

// DecodeAnswer decodes one answer from its JSON encoding, with the rules of AnswerFromValue.
func DecodeAnswer(raw json.RawMessage) (Answer, error) {
	if len(bytes.TrimSpace(raw)) == 0 {
		return nil, errors.New("empty answer")
	}
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return nil, fmt.Errorf("an answer: %w", err)
	}
	return AnswerFromValue(v)
}

// DecodeAnswerOrUnknown decodes one answer like DecodeAnswer, but keeps an answer of a shape it
// does not know as an UnknownAnswer rather than failing: for readers of responses that a newer
// server may have written. It fails only on JSON that does not parse.
func DecodeAnswerOrUnknown(raw json.RawMessage) (Answer, error) {
	if !json.Valid(raw) {
		return nil, errors.New("an answer is not valid JSON")
	}
	a, err := DecodeAnswer(raw)
	if err != nil {
		return UnknownAnswer(bytes.Clone(raw)), nil
	}
	return a, nil
}

// DecodeAnswersOrUnknown decodes a data object of answers with the rules of
// DecodeAnswerOrUnknown.
func DecodeAnswersOrUnknown(b []byte) (Answers, error) {
	var raws map[string]json.RawMessage
	if err := json.Unmarshal(b, &raws); err != nil {
		return nil, err
	}
	if raws == nil {
		return nil, nil
	}
	out := make(Answers, len(raws))
	for id, raw := range raws {
		a, err := DecodeAnswerOrUnknown(raw)
		if err != nil {
			return nil, fmt.Errorf("answer to %q: %w", id, err)
		}
		out[id] = a
	}
	return out, nil
}

// AnswerFromValue types one answer that encoding/json decoded into an any: a string is Text,
// a number is Number, a boolean is Bool, an array of strings is Choices, an object with a bug
// report's members is a BugReportAnswer (title and metadata strings, optional description,
// screenshotDataUrl and recordingEventsJson strings or nulls, and no other members), and any
// other object of strings is Fields (a matrix's or a contact question's answer; AsFields reads
// either object as names and texts). Anything else is an error.
func AnswerFromValue(v any) (Answer, error) {
	switch v := v.(type) {
	case string:
		return Text(v), nil
	case float64:
		if v == 0 {
			v = 0 // -0 is valid JSON, but the answer is the score 0: stored and sent back as 0
		}
		return Number(v), nil
	case []any:
		list := make(Choices, len(v))
		for i, e := range v {
			s, ok := e.(string)
			if !ok {
				return nil, errors.New("a list answer must hold only strings")
			}
			list[i] = s
		}
		return list, nil
	case map[string]any:
		return objectAnswer(v)
	case bool:
		return Bool(v), nil
	}
	return nil, errors.New("an answer must be a string, a number, true, a list of strings, an object of strings or a bug report object")
}

func bugReportFromValue(m map[string]any) (Answer, error) {
	str := func(name string) (*string, error) {
		switch v := m[name].(type) {
		case nil:
			return nil, nil
		case string:
			return &v, nil
		}
		return nil, fmt.Errorf("a bug report answer: %s must be a string", name)
	}
	for k := range m {
		switch k {
		case "title", "metadata", "description", "screenshotDataUrl", "recordingEventsJson":
		default:
			return nil, fmt.Errorf("a bug report answer: unknown member %q", k)
		}
	}
	title, err := str("title")
	if err != nil {
		return nil, err
	}
	meta, err := str("metadata")
	if err != nil {
		return nil, err
	}
	if title == nil || meta == nil {
		return nil, errors.New("a bug report answer needs a title and metadata strings")
	}
	br := BugReportAnswer{Title: *title, Metadata: *meta}
	if br.Description, err = str("description"); err != nil {
		return nil, err
	}
	if br.ScreenshotDataURL, err = str("screenshotDataUrl"); err != nil {
		return nil, err
	}
	if br.RecordingEventsJSON, err = str("recordingEventsJson"); err != nil {
		return nil, err
	}
	return br, nil
}
