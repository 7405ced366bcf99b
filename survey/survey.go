package survey

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
)

// Question types, the values of a question's properties.type.
const (
	TypeRating       = "rating"
	TypeSingleSelect = "single-select"
	TypeMultiSelect  = "multi-select"
	TypeOpenEnded    = "open-ended"
	TypeStatement    = "statement"
	TypeBugReport    = "bug-report"
)

// DefaultBackButtonLabel is the back button label of a survey that does not set one.
const DefaultBackButtonLabel = "Back"

// Definition is what a respondent sees of a survey: its public view, as GET /v1/svc/{surveyId}
// serves it.
// Questions are kept in position order by Normalize.
type Definition struct {
	Title                   string       `json:"title"`
	Description             *string      `json:"description"`
	Questions               []Question   `json:"questions"`
	Confirmation            Confirmation `json:"confirmation"`
	IsBackNavigationAllowed bool         `json:"isBackNavigationAllowed"`
	BackButtonLabel         string       `json:"backButtonLabel"`
	// Display holds the targeting rules, if any: the team's, left out of the public view.
	Display *Display `json:"display,omitempty"`
	// Languages holds the survey's translations, if any; the public view is one language's.
	Languages *Languages `json:"languages,omitempty"`
	// Link holds how the survey's link page may be answered, if it has one of its own.
	Link *Link `json:"link,omitempty"`
}

// Link is how a survey is answered on its link page, /s/{surveyId}.
type Link struct {
	// Anonymous lets the page be answered without a signed link: each browser is then one
	// respondent.
	Anonymous bool `json:"anonymous"`
}

// Confirmation is the screen shown after the last question.
type Confirmation struct {
	Title       string `json:"title"`
	Description string `json:"description"`
	ButtonText  string `json:"buttonText"`
}

// Question is one step of a survey. Properties holds one of the *Properties variants.
type Question struct {
	ID           string     `json:"id"`
	Title        string     `json:"title"`
	Description  *string    `json:"description"`
	Position     int        `json:"position"`
	Required     bool       `json:"required"`
	Properties   Properties `json:"properties"`
	RoutingLogic Routing    `json:"routingLogic"`
}

// Type returns the question's type, or "" when it has no properties.
func (q *Question) Type() string {
	if q.Properties == nil {
		return ""
	}
	return q.Properties.Type()
}

// UnmarshalJSON decodes a question, choosing the Properties variant by properties.type.
func (q *Question) UnmarshalJSON(b []byte) error {
	type plain Question
	var raw struct {
		plain
		Properties json.RawMessage `json:"properties"`
	}
	if err := json.Unmarshal(b, &raw); err != nil {
		return err
	}
	*q = Question(raw.plain)
	if len(raw.Properties) == 0 || string(raw.Properties) == "null" {
		return errors.New("question properties are required")
	}
	p, err := decodeProperties(raw.Properties)
	if err != nil {
		return err
	}
	q.Properties = p
	return nil
}

// Properties is a question's type-specific settings: one of RatingProperties,
// SingleSelectProperties, MultiSelectProperties, OpenEndedProperties, StatementProperties,
// BugReportProperties, MatrixProperties, RankingProperties, DateProperties, ConsentProperties,
// CTAProperties or ContactProperties, or UnknownProperties for a type this version does not know.
type Properties interface {
	// Type returns the variant's discriminator, one of the Type* constants.
	Type() string
	isProperties()
}

// RatingLabels are the captions at both ends of a rating scale.
type RatingLabels struct {
	Lower *string `json:"lower,omitempty"`
	Upper *string `json:"upper,omitempty"`
}

// RatingProperties asks for a score from 1 to Scale (0 to Scale when Display is "nps").
type RatingProperties struct {
	ButtonLabel        string        `json:"buttonLabel"`
	ShouldAutoProgress bool          `json:"shouldAutoProgress"`
	Scale              int           `json:"scale"`
	Labels             *RatingLabels `json:"labels,omitempty"`
	// Display is free text; the known values are "star", "number", "emoji", "nps", "ces" (a
	// scale of 7) and "thumbs" (a scale of 2: 1 is thumbs down, 2 thumbs up).
	Display *string `json:"display,omitempty"`
}

// Option is one choice of a select question.
type Option struct {
	Value string `json:"value"`
	// Label is what a person is shown for the option, when it is not its value: set in a
	// translated view from the translation's text for the value.
	Label       *string `json:"label,omitempty"`
	Description *string `json:"description,omitempty"`
}

// Editable lets a respondent type a choice of their own, up to Max characters.
type Editable struct {
	Label       string  `json:"label"`
	Max         int     `json:"max"`
	Description *string `json:"description,omitempty"`
}

// SingleSelectProperties asks for one option, or free text when Editable is set.
type SingleSelectProperties struct {
	ShouldAutoProgress bool      `json:"shouldAutoProgress"`
	Options            []Option  `json:"options"`
	ButtonLabel        string    `json:"buttonLabel"`
	Editable           *Editable `json:"editable"`
}

// MultiSelectProperties asks for several options (at most Max when set), plus one free text when
// Editable is set.
type MultiSelectProperties struct {
	ButtonLabel string    `json:"buttonLabel"`
	Options     []Option  `json:"options"`
	Editable    *Editable `json:"editable"`
	Max         *int      `json:"max,omitempty"`
	Display     *string   `json:"display,omitempty"`
}

// OpenEndedProperties asks for free text of at most Max characters.
type OpenEndedProperties struct {
	Placeholder *string `json:"placeholder,omitempty"`
	ButtonLabel string  `json:"buttonLabel"`
	Max         int     `json:"max"`
}

// StatementProperties shows text and takes no answer.
type StatementProperties struct {
	ButtonLabel string  `json:"buttonLabel"`
	ButtonURL   *string `json:"buttonUrl,omitempty"`
}

// BugReportProperties asks for a bug report (BugReportAnswer).
type BugReportProperties struct {
	Placeholder        *string  `json:"placeholder,omitempty"`
	ButtonLabel        string   `json:"buttonLabel"`
	EnableScreenshot   bool     `json:"enableScreenshot"`
	EnableRecording    bool     `json:"enableRecording"`
	DetailsLabel       string   `json:"detailsLabel"`
	DetailsPlaceholder *string  `json:"detailsPlaceholder,omitempty"`
	RedactClasses      []string `json:"redactClasses,omitempty"`
}

// Type returns the variant's discriminator.
func (RatingProperties) Type() string { return TypeRating }

// Type returns the variant's discriminator.
func (SingleSelectProperties) Type() string { return TypeSingleSelect }

// Type returns the variant's discriminator.
func (MultiSelectProperties) Type() string { return TypeMultiSelect }

// Type returns the variant's discriminator.
func (OpenEndedProperties) Type() string { return TypeOpenEnded }

// Type returns the variant's discriminator.
func (StatementProperties) Type() string { return TypeStatement }

// Type returns the variant's discriminator.
func (BugReportProperties) Type() string { return TypeBugReport }

// UnknownProperties are the properties of a question type this version of svc does not know,
// such as a type added by a newer server. They keep the JSON as it came, so a client reading
// surveys from a newer server keeps working and writes the question back unchanged. Validate
// refuses them: a server saves only the types it knows.
type UnknownProperties struct {
	// TypeName is the properties' type member.
	TypeName string
	// Raw is the whole properties object, type included.
	Raw json.RawMessage
}

// Type returns the unknown type's name.
func (p UnknownProperties) Type() string { return p.TypeName }

// MarshalJSON writes the properties as they were read.
func (p UnknownProperties) MarshalJSON() ([]byte, error) {
	if len(p.Raw) == 0 {
		return withType(p.TypeName, struct{}{})
	}
	return p.Raw, nil
}

func (UnknownProperties) isProperties()      {}
func (RatingProperties) isProperties()       {}
func (SingleSelectProperties) isProperties() {}
func (MultiSelectProperties) isProperties()  {}
func (OpenEndedProperties) isProperties()    {}
func (StatementProperties) isProperties()    {}
func (BugReportProperties) isProperties()    {}

// MarshalJSON writes the properties with their "type" discriminator.
func (p RatingProperties) MarshalJSON() ([]byte, error) {
	type plain RatingProperties
	return withType(p.Type(), plain(p))
}

// MarshalJSON writes the properties with their "type" discriminator.
func (p SingleSelectProperties) MarshalJSON() ([]byte, error) {
	type plain SingleSelectProperties
	return withType(p.Type(), plain(p))
}

// MarshalJSON writes the properties with their "type" discriminator.
func (p MultiSelectProperties) MarshalJSON() ([]byte, error) {
	type plain MultiSelectProperties
	return withType(p.Type(), plain(p))
}

// MarshalJSON writes the properties with their "type" discriminator.
func (p OpenEndedProperties) MarshalJSON() ([]byte, error) {
	type plain OpenEndedProperties
	return withType(p.Type(), plain(p))
}

// MarshalJSON writes the properties with their "type" discriminator.
func (p StatementProperties) MarshalJSON() ([]byte, error) {
	type plain StatementProperties
	return withType(p.Type(), plain(p))
}

// MarshalJSON writes the properties with their "type" discriminator.
func (p BugReportProperties) MarshalJSON() ([]byte, error) {
	type plain BugReportProperties
	return withType(p.Type(), plain(p))
}

// withType encodes v, a struct, with a leading "type" member. v must not be a type whose own
// MarshalJSON calls withType, or the encoding would recurse.
func withType(typ string, v any) ([]byte, error) {
	body, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	head, err := json.Marshal(typ)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	buf.Grow(len(body) + len(head) + 10)
	buf.WriteString(`{"type":`)
	buf.Write(head)
	if len(body) > 2 { // body is "{...}"; "{}" adds nothing
		buf.WriteByte(',')
		buf.Write(body[1:])
	} else {
		buf.WriteByte('}')
	}
	return buf.Bytes(), nil
}

func decodeProperties(raw json.RawMessage) (Properties, error) {
	var probe struct {
		Type string `json:"type"`
	}
	if err := json.Unmarshal(raw, &probe); err != nil {
		return nil, fmt.Errorf("question properties: %w", err)
	}
	var (
		p   Properties
		err error
	)
	switch probe.Type {
	case TypeRating:
		p, err = decodeAs[RatingProperties](raw)
	case TypeSingleSelect:
		p, err = decodeAs[SingleSelectProperties](raw)
	case TypeMultiSelect:
		p, err = decodeAs[MultiSelectProperties](raw)
	case TypeOpenEnded:
		p, err = decodeAs[OpenEndedProperties](raw)
	case TypeStatement:
		p, err = decodeAs[StatementProperties](raw)
	case TypeBugReport:
		p, err = decodeAs[BugReportProperties](raw)
	case "":
		return nil, errors.New("question properties.type is required")
	default:
		var ok bool
		if p, ok, err = decodeMoreProperties(probe.Type, raw); ok {
			break
		}
		// A type of a newer version: kept as it is, so that a reader (the client, a webhook
		// receiver) still reads the survey. Validate refuses it, so no server saves one.
		return UnknownProperties{TypeName: probe.Type, Raw: append(json.RawMessage(nil), raw...)}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("%s question properties: %w", probe.Type, err)
	}
	return p, nil
}

// decodeAs decodes raw into a T. The variant's own MarshalJSON does not matter here, and
// unknown members such as "type" are ignored.
func decodeAs[T Properties](raw json.RawMessage) (T, error) {
	var v T
	err := json.Unmarshal(raw, &v)
	return v, err
}

// Normalize sorts the questions by position and fills the defaults the public view always
// shows (a back button label).
func (d *Definition) Normalize() {
	slices.SortStableFunc(d.Questions, func(a, b Question) int { return a.Position - b.Position })
	if d.BackButtonLabel == "" {
		d.BackButtonLabel = DefaultBackButtonLabel
	}
	if d.Questions == nil {
		d.Questions = []Question{}
	}
}

// Question returns the question with the given id.
func (d *Definition) Question(id string) (*Question, bool) {
	for i := range d.Questions {
		if d.Questions[i].ID == id {
			return &d.Questions[i], true
		}
	}
	return nil, false
}
