package api

import (
	"errors"
	"fmt"
	"math"

	"github.com/svc-feedback/svc/internal/wire"

	"github.com/svc-feedback/svc/store"
	"github.com/svc-feedback/svc/survey"
)

// responseBody is the body of a response PUT (PUT /v1/svc/{surveyId}/response/{responseId}),
// as decodeResponseBody reads it.
type responseBody struct {
	Respondent *string
	Data       survey.Answers // nil when absent or null
	Metadata   map[string]string
	HasMeta    bool
	Telemetry  *string
	Language   *string
	Finished   bool
}

// decodeResponseBody reads a PUT body's tokens, refusing as it reads whatever the survey
// cannot accept: a member name that is not exact or comes twice, an answer to a question the
// survey does not have, a list longer than its question's choices, a value nested deeper than
// an answer can be, more metadata keys than allowed. What it returns is then validated whole.
func decodeResponseBody(jr *jsonReader, def *survey.Definition) (responseBody, error) {
	var b responseBody
	err := jr.body(maxBodyMembers, func(name string) error {
		var err error
		switch name {
		case "respondent":
			b.Respondent, err = jr.stringOrNull("respondent")
		case "telemetry":
			b.Telemetry, err = jr.stringOrNull("telemetry")
		case "data":
			b.Data, err = decodeAnswers(jr, def)
		case "metadata":
			b.Metadata, b.HasMeta, err = decodeMetadata(jr)
		case "finished":
			b.Finished, err = jr.boolOrNull("finished")
		case "language":
			b.Language, err = jr.stringOrNull("language")
		default:
			if err := exactName(name, "respondent", "telemetry", "data", "metadata", "finished", "language"); err != nil {
				return err
			}
			err = jr.skip() // the widget may send more than svc reads
		}
		return err
	})
	return b, err
}

// decodeAnswers reads the data object: answers by question id, each checked against its
// question as it is read. A null data is left nil.
func decodeAnswers(jr *jsonReader, def *survey.Definition) (survey.Answers, error) {
	answers := survey.Answers{}
	t, err := jr.object(0, func(id string) error {
		q, ok := def.Question(id)
		if !ok {
			// Refused at once, before the answer is read: ids are bounded by the survey.
			return badRequest(fmt.Sprintf("invalid answer: the survey has no question %q", wire.Truncate(id)))
		}
		a, err := decodeAnswer(jr, q)
		if err != nil {
			return err
		}
		answers[id] = a
		return nil
	})
	switch {
	case errors.Is(err, errNotObject) && t.Kind() == 'n':
		return nil, nil
	case errors.Is(err, errNotObject):
		return nil, badRequest(`field "data" must be an object of answers by question id, not ` + tokenKind(t))
	}
	return answers, err
}

// decodeAnswer reads one answer: a string is Text, a number Number, true or false Bool, an array
// of strings Choices (no longer than the question can take), and an object Fields for a matrix
// or contact question (no more members than it has rows or fields), else a bug report. Anything else, or a shape
// the question does not take, is refused with the question's own message.
func decodeAnswer(jr *jsonReader, q *survey.Question) (survey.Answer, error) {
	t, err := jr.token()
	if err != nil {
		return nil, err
	}
	switch t.Kind() {
	case '"':
		return survey.Text(t.String()), nil
	case '0':
		f, err := t.Float()
		if err != nil || math.IsInf(f, 0) {
			return nil, badRequest(fmt.Sprintf("answer to %q holds a number out of range: %s", wire.Truncate(q.ID), wire.Truncate(t.String())))
		}
		if f == 0 {
			f = 0 // -0 is valid JSON, but the answer is the score 0
		}
		return survey.Number(f), nil
	case 't', 'f':
		return survey.Bool(t.Bool()), nil
	case '[':
		return decodeChoices(jr, q)
	case '{':
		if q.Type() == survey.TypeMatrix || q.Type() == survey.TypeContact {
			return decodeFields(jr, q)
		}
		return decodeBugReport(jr, q)
	}
	return nil, badRequest(fmt.Sprintf("invalid answer to question %q: an answer must be a string, a number, true, a list of strings or an object", wire.Truncate(q.ID)))
}

// decodeChoices reads the rest of a list answer, stopping past the most the question takes.
func decodeChoices(jr *jsonReader, q *survey.Question) (survey.Answer, error) {
	limit := q.MaxChoices()
	if q.Type() != survey.TypeMultiSelect && q.Type() != survey.TypeRanking {
		return nil, asBadRequest(q.ValidateAnswer(survey.Choices{}))
	}
	list := survey.Choices{}
	for jr.more() {
		if len(list) == limit {
			return nil, badRequest(fmt.Sprintf("invalid answer to question %q: at most %d choices are allowed", wire.Truncate(q.ID), limit))
		}
		t, err := jr.token()
		if err != nil {
			return nil, err
		}
		if t.Kind() != '"' {
			return nil, badRequest(fmt.Sprintf("invalid answer to question %q: a list answer must hold only strings", wire.Truncate(q.ID)))
		}
		list = append(list, t.String())
	}
	_, err := jr.token() // the closing bracket
	return list, err
}

// decodeFields reads the rest of an object answer of strings, a matrix's or a contact
// question's, stopping past the most members the question takes.
func decodeFields(jr *jsonReader, q *survey.Question) (survey.Answer, error) {
	limit := q.MaxChoices()
	f := survey.Fields{}
	err := jr.members(0, func(name string) error {
		if len(f) == limit {
			return badRequest(fmt.Sprintf("invalid answer to question %q: the answer holds at most %d members", wire.Truncate(q.ID), limit))
		}
		t, err := jr.token()
		if err != nil {
			return err
		}
		if t.Kind() != '"' {
			return badRequest(fmt.Sprintf("invalid answer to question %q: %q must be a string, not %s", wire.Truncate(q.ID), wire.Truncate(name), tokenKind(t)))
		}
		f[name] = t.String()
		return nil
	})
	if err != nil {
		return nil, err
	}
	return f, nil
}

// decodeBugReport reads the rest of an object answer: a bug report's members, each a string or
// null, each once, no other.
func decodeBugReport(jr *jsonReader, q *survey.Question) (survey.Answer, error) {
	if q.Type() != survey.TypeBugReport {
		return nil, asBadRequest(q.ValidateAnswer(survey.BugReportAnswer{}))
	}
	var br survey.BugReportAnswer
	var title, meta *string
	err := jr.members(0, func(name string) error {
		var dst **string
		switch name {
		case "title":
			dst = &title
		case "metadata":
			dst = &meta
		case "description":
			dst = &br.Description
		case "screenshotDataUrl":
			dst = &br.ScreenshotDataURL
		case "recordingEventsJson":
			dst = &br.RecordingEventsJSON
		default:
			return badRequest(fmt.Sprintf("a bug report answer: unknown member %q", wire.Truncate(name)))
		}
		var err error
		*dst, err = jr.stringOrNull("a bug report's " + name)
		return err
	})
	if err != nil {
		return nil, err
	}
	if title == nil || meta == nil {
		return nil, badRequest("a bug report answer needs a title and metadata strings")
	}
	br.Title, br.Metadata = *title, *meta
	return br, nil
}

// decodeMetadata reads the metadata object of strings, at most store.MaxMetadataKeys of them.
// It reports whether metadata was given (null is not).
func decodeMetadata(jr *jsonReader) (map[string]string, bool, error) {
	meta := map[string]string{}
	t, err := jr.object(0, func(k string) error {
		if len(meta) == store.MaxMetadataKeys {
			return badRequest(fmt.Sprintf("metadata may hold at most %d keys", store.MaxMetadataKeys))
		}
		t, err := jr.token()
		if err != nil {
			return err
		}
		switch t.Kind() {
		case '"':
			meta[k] = t.String()
			return nil
		case 'n':
			return badRequest(fmt.Sprintf("metadata value of %q must be a string, not null", wire.Truncate(k)))
		}
		return badRequest(fmt.Sprintf(`field "metadata" must be an object of strings, not holding %s`, tokenKind(t)))
	})
	switch {
	case errors.Is(err, errNotObject) && t.Kind() == 'n':
		return nil, false, nil
	case errors.Is(err, errNotObject):
		return nil, false, badRequest(`field "metadata" must be an object of strings, not ` + tokenKind(t))
	}
	return meta, err == nil, err
}

// asBadRequest turns an answer's validation error into a 400 with its message.
func asBadRequest(err error) error {
	if err == nil {
		return nil
	}
	return badRequest(err.Error())
}

// eventBody is the body of an event POST (POST /v1/svc/{surveyId}/respondent/{respondent}/event).
type eventBody struct {
	Type *string
}

// decodeEventBody reads an event POST's body: {"type": ...}, its name exact and given once.
func decodeEventBody(jr *jsonReader) (eventBody, error) {
	var b eventBody
	err := jr.body(maxBodyMembers, func(name string) error {
		if name == "type" {
			var err error
			b.Type, err = jr.stringOrNull("type")
			return err
		}
		if err := exactName(name, "type"); err != nil {
			return err
		}
		return jr.skip()
	})
	return b, err
}
