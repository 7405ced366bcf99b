package webhookverify

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/svc-feedback/svc/survey"
)

// EventResponseCreated is the only event type.
const EventResponseCreated = "response.created"

// Event is a webhook delivery's payload.
type Event struct {
	Event     string    `json:"event"`
	Timestamp time.Time `json:"timestamp"`
	Data      EventData `json:"data"`
}

// MarshalJSON writes the timestamp in UTC with millisecond precision, like every svc time.
func (e Event) MarshalJSON() ([]byte, error) {
	type plain Event
	return json.Marshal(struct {
		plain
		Timestamp string `json:"timestamp"`
	}{plain(e), e.Timestamp.UTC().Format("2006-01-02T15:04:05.000Z")})
}

// EventData holds the event's subject.
type EventData struct {
	Response Response `json:"response"`
}

// Response is a new response with its answers in question order.
type Response struct {
	ID         string             `json:"id"`
	Respondent string             `json:"respondent"`
	Data       []AnsweredQuestion `json:"data"`
	Metadata   map[string]string  `json:"metadata"`
	// Finished tells whether the respondent had finished the survey when the delivery was
	// made (false from a sender that does not say).
	Finished bool `json:"finished"`
	// Language is the language the answers were given in, when the writer said (a translated
	// survey's widget does).
	Language string `json:"language,omitempty"`
	Survey   Survey `json:"survey"`
}

// AnsweredQuestion is one answer with its question.
type AnsweredQuestion struct {
	Question QuestionRef `json:"question"`
	Answer   AnswerValue `json:"answer"`
}

// QuestionRef names a question.
type QuestionRef struct {
	ID    string `json:"id"`
	Title string `json:"title"`
}

// AnswerValue is an answer both typed (Raw: survey.Text, survey.Number, survey.Choices,
// survey.BugReportAnswer, survey.Bool or survey.Fields) and as its JSON encoding (Stringified).
type AnswerValue struct {
	Raw         survey.Answer `json:"raw"`
	Stringified string        `json:"stringified"`
}

// UnmarshalJSON decodes raw into its answer type.
func (a *AnswerValue) UnmarshalJSON(b []byte) error {
	var v struct {
		Raw         json.RawMessage `json:"raw"`
		Stringified string          `json:"stringified"`
	}
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	// An answer of a shape a newer server sends stays readable, as survey.UnknownAnswer.
	raw, err := survey.DecodeAnswerOrUnknown(v.Raw)
	if err != nil {
		return err
	}
	a.Raw, a.Stringified = raw, v.Stringified
	return nil
}

// NewAnswerValue pairs an answer with its JSON encoding. The encoding leaves <, > and & as they
// are, as JavaScript's JSON.stringify does, rather than escaping them for HTML as json.Marshal
// would: receivers that compare or display the stringified form see the text that was typed.
func NewAnswerValue(a survey.Answer) (AnswerValue, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(a); err != nil {
		return AnswerValue{}, err
	}
	return AnswerValue{Raw: a, Stringified: string(bytes.TrimSuffix(b.Bytes(), []byte("\n")))}, nil
}

// Survey is the survey a response answers, with its team.
type Survey struct {
	ID          string  `json:"id"`
	Title       string  `json:"title"`
	Description *string `json:"description"`
	Team        Team    `json:"team"`
}

// Team owns the survey.
type Team struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

// ErrUnknownEvent is returned by ParseEvent for an event type other than response.created.
var ErrUnknownEvent = errors.New("webhookverify: unknown event type")

// ParseEvent decodes a delivery's body. Verify it first.
func ParseEvent(body []byte) (*Event, error) {
	dec := json.NewDecoder(bytes.NewReader(body))
	var e Event
	if err := dec.Decode(&e); err != nil {
		return nil, fmt.Errorf("webhookverify: parse event: %w", err)
	}
	if e.Event != EventResponseCreated {
		return nil, fmt.Errorf("%w %q", ErrUnknownEvent, e.Event)
	}
	return &e, nil
}
