package survey

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"
	"unicode"
	"unicode/utf8"
)

// ErrInvalidDefinition is wrapped by every error of Definition.Validate.
var ErrInvalidDefinition = errors.New("invalid survey definition")

// ErrInvalidAnswer is wrapped by every error of Definition.ValidateAnswers.
var ErrInvalidAnswer = errors.New("invalid answer")

// Rating scale bounds.
const (
	MinScale = 2
	MaxScale = 10
)

// DisplayNPS is the rating display whose scale starts at 0.
const DisplayNPS = "nps"

// Size limits of a definition. A response's write counts every question on its route, and a
// browser shows every option: a survey past them is not a survey a person answers, and would
// make every write to it (and, with one writer, everyone else's) slow.
const (
	MaxQuestions = 100
	MaxOptions   = 100
	// MaxPosition bounds positions and jump targets to the integers a browser's JavaScript
	// holds exactly (2^53 - 1): two positions the server tells apart and the widget does not
	// would route differently.
	MaxPosition = 1<<53 - 1
)

func invalid(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrInvalidDefinition, fmt.Sprintf(format, args...))
}

// Validate checks a definition as it is saved: a title; question ids unique and non-empty;
// positions unique and not negative; properties present; options non-empty with unique values;
// a rating scale an integer from 2 to 10; max values positive; routing targets that exist and
// jump only forward. Errors wrap ErrInvalidDefinition and name the offending field.
func (d *Definition) Validate() error {
	if strings.TrimSpace(d.Title) == "" {
		return invalid("title is required")
	}
	if len(d.Questions) > MaxQuestions {
		return invalid("a survey has at most %d questions; this one has %d", MaxQuestions, len(d.Questions))
	}
	ids := make(map[string]bool, len(d.Questions))
	positions := make(map[int]bool, len(d.Questions))
	for i, q := range d.Questions {
		at := fmt.Sprintf("questions[%d]", i)
		if q.ID == "" {
			return invalid("%s.id is required", at)
		}
		if strings.IndexFunc(q.ID, unicode.IsControl) >= 0 {
			// Keys beginning with a control character name the stores' own counts.
			return invalid("%s.id must not hold control characters", at)
		}
		if ids[q.ID] {
			return invalid("%s.id %q is used twice", at, q.ID)
		}
		ids[q.ID] = true
		if q.Position < 0 || q.Position > MaxPosition {
			return invalid("%s.position must be an integer from 0 to %d", at, MaxPosition)
		}
		if positions[q.Position] {
			return invalid("%s.position %d is used twice", at, q.Position)
		}
		positions[q.Position] = true
		if err := validateProperties(at+".properties", q.Properties); err != nil {
			return err
		}
	}
	for i, q := range d.Questions {
		if err := validateRouting(fmt.Sprintf("questions[%d].routingLogic", i), q, positions); err != nil {
			return err
		}
	}
	if d.Languages != nil {
		if err := validateLanguages(d); err != nil {
			return err
		}
	}
	if d.Display != nil {
		return validateDisplay(d.Display)
	}
	return nil
}

func validateProperties(at string, p Properties) error {
	switch p := p.(type) {
	case UnknownProperties:
		return invalid("%s.type: unknown question type %q", at, p.TypeName)
	case nil:
		return invalid("%s are required", at)
	case RatingProperties:
		if p.Scale < MinScale || p.Scale > MaxScale {
			return invalid("%s.scale must be an integer from %d to %d", at, MinScale, MaxScale)
		}
		return validateRatingDisplay(at, p)
	case SingleSelectProperties:
		return validateOptions(at, p.Options, p.Editable)
	case MultiSelectProperties:
		if p.Max != nil && *p.Max <= 0 {
			return invalid("%s.max must be positive", at)
		}
		return validateOptions(at, p.Options, p.Editable)
	case OpenEndedProperties:
		if p.Max <= 0 {
			return invalid("%s.max must be positive", at)
		}
	default:
		_, err := validateMoreProperties(at, p)
		return err
	}
	return nil
}

func validateOptions(at string, options []Option, editable *Editable) error {
	if len(options) == 0 {
		return invalid("%s.options must not be empty", at)
	}
	if len(options) > MaxOptions {
		return invalid("%s.options: a question has at most %d options", at, MaxOptions)
	}
	seen := make(map[string]bool, len(options))
	for i, o := range options {
		if o.Value == "" {
			return invalid("%s.options[%d].value must not be empty", at, i)
		}
		if seen[o.Value] {
			return invalid("%s.options[%d].value %q is used twice", at, i, o.Value)
		}
		seen[o.Value] = true
	}
	if editable != nil && editable.Max <= 0 {
		return invalid("%s.editable.max must be positive", at)
	}
	return nil
}

func validateRouting(at string, q Question, positions map[int]bool) error {
	r := q.RoutingLogic
	switch r.Type {
	case RoutingAlways:
		return validateTarget(at+".target", r.Target, q.Position, positions)
	case RoutingSwitch:
		for i, c := range r.Cases {
			cat := fmt.Sprintf("%s.cases[%d]", at, i)
			if err := validateCase(cat, &q, c); err != nil {
				return err
			}
			if err := validateTarget(cat+".target", c.Target, q.Position, positions); err != nil {
				return err
			}
		}
		return validateTarget(at+".default", r.Default, q.Position, positions)
	}
	return invalid("%s.type must be %q or %q", at, RoutingAlways, RoutingSwitch)
}

func validateTarget(at string, t Target, from int, positions map[int]bool) error {
	switch t.Type {
	case TargetNext, TargetEnd:
		return nil
	case TargetJump:
		if !positions[t.Position] {
			return invalid("%s jumps to position %d, which no question has", at, t.Position)
		}
		if t.Position <= from {
			return invalid("%s jumps to position %d, which is not after %d: routing only moves forward", at, t.Position, from)
		}
		return nil
	}
	return invalid("%s.type must be %q, %q or %q", at, TargetNext, TargetJump, TargetEnd)
}

func badAnswer(id string, format string, args ...any) error {
	return fmt.Errorf("%w to question %q: %s", ErrInvalidAnswer, id, fmt.Sprintf(format, args...))
}

// ValidateAnswers checks every answer against its question: the question must exist, and the
// answer must fit its type (rating: an integer from 1 to scale, or 0 to scale for nps;
// single-select: an option value, or free text of at most editable.max characters when editable;
// multi-select: distinct option values plus at most one free text when editable, at most max
// of them; open-ended: text of at most max characters; statement: no answer; bug-report: a
// BugReportAnswer whose screenshot is an image data URL and whose recording is a JSON array;
// matrix: Fields from row value to column value, every row when required; ranking: Choices of
// option values without repeats, at least min of them; date: a real YYYY-MM-DD date within
// min and max; consent: Bool true; cta: "clicked" or "dismissed"; contact: Fields of the
// declared field ids only, required ones not blank, e-mail and phone checked as such).
// Required questions are not enforced, since answers arrive one at a time.
func (d *Definition) ValidateAnswers(answers Answers) error {
	for id, a := range answers {
		q, ok := d.Question(id)
		if !ok {
			return fmt.Errorf("%w: the survey has no question %q", ErrInvalidAnswer, id)
		}
		if err := validateAnswer(q, a); err != nil {
			return err
		}
	}
	return nil
}

// ValidateAnswer checks one answer against the question, as ValidateAnswers does.
func (q *Question) ValidateAnswer(a Answer) error { return validateAnswer(q, a) }

// MaxChoices returns the most items a valid list or object answer to q can hold: for a
// multi-select question, each option once and one text of the respondent's own when it is
// editable, and no more than its max; for a ranking, each option once; for a matrix, one
// member per row, and for a contact question one per field; 0 for a question that takes
// neither. A decoder can stop reading a list past it, whatever the list's length.
func (q *Question) MaxChoices() int {
	switch p := q.Properties.(type) {
	case RankingProperties:
		return len(p.Options)
	case MatrixProperties:
		return len(p.Rows)
	case ContactProperties:
		return len(p.Fields)
	}
	p, ok := q.Properties.(MultiSelectProperties)
	if !ok {
		return 0
	}
	n := len(p.Options)
	if p.Editable != nil {
		n++
	}
	if p.Max != nil && *p.Max < n {
		n = max(*p.Max, 0)
	}
	return n
}

func validateAnswer(q *Question, a Answer) error {
	switch p := q.Properties.(type) {
	case RatingProperties:
		n, ok := a.(Number)
		low := 1
		if p.Display != nil && *p.Display == DisplayNPS {
			low = 0
		}
		if !ok || float64(n) != math.Trunc(float64(n)) || int(n) < low || int(n) > p.Scale {
			return badAnswer(q.ID, "a rating answer must be an integer from %d to %d", low, p.Scale)
		}
	case SingleSelectProperties:
		s, ok := a.(Text)
		if !ok {
			return badAnswer(q.ID, "a single-select answer must be a string")
		}
		if !hasOption(p.Options, string(s)) && !fitsEditable(p.Editable, string(s)) {
			return badAnswer(q.ID, "%q is not one of the options", string(s))
		}
	case MultiSelectProperties:
		return validateChoices(q.ID, p, a)
	case OpenEndedProperties:
		s, ok := a.(Text)
		if !ok {
			return badAnswer(q.ID, "an open-ended answer must be a string")
		}
		if utf8.RuneCountInString(string(s)) > p.Max {
			return badAnswer(q.ID, "the answer is longer than %d characters", p.Max)
		}
	case StatementProperties:
		return badAnswer(q.ID, "a statement takes no answer")
	case BugReportProperties:
		return validateBugReport(q.ID, a)
	default:
		if ok, err := validateMoreAnswer(q, a); ok {
			return err
		}
		return badAnswer(q.ID, "the question has no known type")
	}
	return nil
}

// validateChoices checks a multi-select answer: option values, plus one free text when the
// question is editable, at most Max of them, none twice.
func validateChoices(id string, p MultiSelectProperties, a Answer) error {
	list, ok := a.(Choices)
	if !ok {
		return badAnswer(id, "a multi-select answer must be a list of strings")
	}
	if p.Max != nil && len(list) > *p.Max {
		return badAnswer(id, "at most %d choices are allowed", *p.Max)
	}
	seen := make(map[string]bool, len(list))
	freeText := 0
	for _, s := range list {
		if seen[s] {
			return badAnswer(id, "%q is chosen twice", s)
		}
		seen[s] = true
		if hasOption(p.Options, s) {
			continue
		}
		freeText++
		if freeText > 1 || !fitsEditable(p.Editable, s) {
			return badAnswer(id, "%q is not one of the options", s)
		}
	}
	return nil
}

// validateBugReport checks a bug report answer's screenshot and recording.
func validateBugReport(id string, a Answer) error {
	br, ok := a.(BugReportAnswer)
	if !ok {
		return badAnswer(id, "a bug report answer must be an object with title and metadata")
	}
	if br.ScreenshotDataURL != nil && !isImageDataURL(*br.ScreenshotDataURL) {
		return badAnswer(id, "screenshotDataUrl must be a base64 image data URL")
	}
	if br.RecordingEventsJSON != nil && !isJSONArray(*br.RecordingEventsJSON) {
		return badAnswer(id, "recordingEventsJson must be a JSON-encoded array")
	}
	return nil
}

func hasOption(options []Option, v string) bool {
	for _, o := range options {
		if o.Value == v {
			return true
		}
	}
	return false
}

func fitsEditable(e *Editable, s string) bool {
	return e != nil && s != "" && utf8.RuneCountInString(s) <= e.Max
}

// isImageDataURL reports whether s is "data:image/<subtype>[;params];base64,<data>" with data
// that decodes as standard base64. It streams the decoding to keep memory flat for large
// screenshots.
func isImageDataURL(s string) bool {
	rest, ok := strings.CutPrefix(s, "data:image/")
	if !ok {
		return false
	}
	head, data, ok := strings.Cut(rest, ",")
	if !ok || !strings.HasSuffix(head, ";base64") || len(head) == len(";base64") || data == "" {
		return false
	}
	_, err := io.Copy(io.Discard, base64.NewDecoder(base64.StdEncoding, strings.NewReader(data)))
	return err == nil
}

func isJSONArray(s string) bool {
	t := strings.TrimSpace(s)
	return strings.HasPrefix(t, "[") && json.Valid([]byte(t))
}
