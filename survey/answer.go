package survey

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
)

// Answer is one question's answer: Text, Number, Choices or BugReportAnswer.
type Answer interface {
	isAnswer()
}

// Text is a string answer (single-select, open-ended).
type Text string

// Number is a numeric answer (rating).
type Number float64

// Choices is a list of strings (multi-select).
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

func (Text) isAnswer()            {}
func (Number) isAnswer()          {}
func (Choices) isAnswer()         {}
func (BugReportAnswer) isAnswer() {}

// MarshalJSON writes an empty list as [] rather than null.
func (c Choices) MarshalJSON() ([]byte, error) {
	if c == nil {
		return []byte("[]"), nil
	}
	return json.Marshal([]string(c))
}

// Answers maps question ids to answers: the data of a response.
type Answers map[string]Answer

// UnmarshalJSON decodes each answer by its JSON shape.
func (a *Answers) UnmarshalJSON(b []byte) error {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil {
		return err
	}
	if raw == nil {
		return errors.New("data must be an object of answers by question id, not null")
	}
	out := make(Answers, len(raw))
	for id, v := range raw {
		ans, err := DecodeAnswer(v)
		if err != nil {
			return fmt.Errorf("data: answer to %q: %w", id, err)
		}
		out[id] = ans
	}
	*a = out
	return nil
}

// DecodeAnswer decodes one answer: a JSON string is Text, a number is Number, an array of
// strings is Choices and an object is a BugReportAnswer (with title and metadata, and no other
// members than its own). Anything else is an error.
func DecodeAnswer(raw json.RawMessage) (Answer, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return nil, errors.New("empty answer")
	}
	switch c := raw[0]; {
	case c == '"':
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return nil, err
		}
		return Text(s), nil
	case c == '-' || c >= '0' && c <= '9':
		var f float64
		if err := json.Unmarshal(raw, &f); err != nil {
			return nil, errors.New("a number answer must be a finite number")
		}
		return Number(f), nil
	case c == '[':
		var list []string
		if err := json.Unmarshal(raw, &list); err != nil {
			return nil, errors.New("a list answer must hold only strings")
		}
		if list == nil {
			list = []string{}
		}
		return Choices(list), nil
	case c == '{':
		var br struct {
			Title               *string `json:"title"`
			Metadata            *string `json:"metadata"`
			Description         *string `json:"description"`
			ScreenshotDataURL   *string `json:"screenshotDataUrl"`
			RecordingEventsJSON *string `json:"recordingEventsJson"`
		}
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&br); err != nil {
			return nil, fmt.Errorf("a bug report answer: %w", err)
		}
		if br.Title == nil || br.Metadata == nil {
			return nil, errors.New("a bug report answer needs a title and metadata strings")
		}
		return BugReportAnswer{
			Title: *br.Title, Metadata: *br.Metadata, Description: br.Description,
			ScreenshotDataURL: br.ScreenshotDataURL, RecordingEventsJSON: br.RecordingEventsJSON,
		}, nil
	}
	return nil, errors.New("an answer must be a string, a number, a list of strings or a bug report object")
}
