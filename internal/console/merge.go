package console

import (
	"bytes"
	"compress/flate"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/svc-feedback/svc/internal/jsonmerge"
	"github.com/svc-feedback/svc/store"
	"github.com/svc-feedback/svc/survey"
)

// Concurrent edits in the editor. The form carries its base: what the editor edits of the survey
// (its definition and webhook) as it was when the form was first shown, compressed. A save made
// on a version since changed (by another tab, another person, the management API, or a Pause in
// the list) merges, by JSON path (package jsonmerge), what the form changed since its base with
// what changed meanwhile: questions matched by id, options by value. Only a field changed on both
// sides, each its own way, is refused; the form then keeps the person's value and shows the
// other one beside it, and its base becomes the survey as stored now, so that saving again keeps
// the person's values. The status is not the form's: a Pause meanwhile merges with anything.

// maxBase bounds the base a form carries, encoded; a survey larger than that is not merged, and a
// stale save of it is refused, as it was before merging.
const maxBase = 256 << 10

// surveyDoc is what the editor edits of a survey.
type surveyDoc struct {
	Definition  survey.Definition `json:"definition"`
	WebhookURL  string            `json:"webhookUrl"`
	WebhookWait int               `json:"webhookWaitSeconds"`
}

func docOfSurvey(sv store.Survey) surveyDoc {
	return surveyDoc{sv.Definition, sv.WebhookURL, sv.WebhookWaitSeconds}
}

// encodeBase is a survey's base as the form carries it: "" when too large.
func encodeBase(sv store.Survey) string {
	b, err := json.Marshal(docOfSurvey(sv))
	if err != nil {
		return ""
	}
	var z bytes.Buffer
	fw, _ := flate.NewWriter(&z, flate.BestCompression)
	fw.Write(b)
	fw.Close()
	if base64.RawURLEncoding.EncodedLen(z.Len()) > maxBase {
		return ""
	}
	return base64.RawURLEncoding.EncodeToString(z.Bytes())
}

var errBadBase = errors.New("console: the form's base cannot be read")

// decodeBase reads a form's base.
func decodeBase(s string) (surveyDoc, error) {
	if s == "" || len(s) > maxBase {
		return surveyDoc{}, errBadBase
	}
	z, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil {
		return surveyDoc{}, errBadBase
	}
	b, err := io.ReadAll(io.LimitReader(flate.NewReader(bytes.NewReader(z)), maxForm+1))
	if err != nil || len(b) > maxForm {
		return surveyDoc{}, errBadBase
	}
	var d surveyDoc
	if err := json.Unmarshal(b, &d); err != nil {
		return surveyDoc{}, errBadBase
	}
	d.Definition.Normalize()
	return d, nil
}

// mergeable is a survey's doc as the merge takes it: a JSON value in which a question has no
// position (its place in the list is its position) and a jump names the question it goes to by
// id ("q:" and the id), so that questions added, removed or moved on one side leave the other
// side's routing as it was meant.
func mergeable(d surveyDoc) (any, error) {
	b, err := json.Marshal(d)
	if err != nil {
		return nil, err
	}
	var v any
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	qs := questionsOf(v)
	idAt := make(map[string]string, len(qs))
	for i, q := range qs {
		id, _ := q["id"].(string)
		idAt[fmt.Sprint(q["position"])] = id
		idAt["#"+strconv.Itoa(i)] = id
	}
	for _, q := range qs {
		delete(q, "position")
		eachTarget(q, func(t map[string]any) {
			if t["type"] != survey.TargetJump {
				return
			}
			id, ok := idAt[fmt.Sprint(t["target"])]
			if !ok {
				return // left as it is: the validation says where it goes wrong
			}
			t["target"] = "q:" + id
		})
	}
	return v, nil
}

// unmergeable is the survey doc a merged value stands for: positions as the questions come,
// jumps to them by position. A jump to a question gone, or now before its own, goes to the next
// question instead, and a notice says so.
func unmergeable(v any) (surveyDoc, []string, error) {
	b, err := json.Marshal(v) // a copy: the merged value shares its parts with the sides'
	if err != nil {
		return surveyDoc{}, nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		return surveyDoc{}, nil, err
	}
	qs := questionsOf(v)
	pos := make(map[string]int, len(qs))
	for i, q := range qs {
		id, _ := q["id"].(string)
		pos[id] = i
	}
	var notices []string
	for i, q := range qs {
		q["position"] = i
		eachTarget(q, func(t map[string]any) {
			s, ok := t["target"].(string)
			if t["type"] != survey.TargetJump || !ok {
				return
			}
			if p, ok := pos[strings.TrimPrefix(s, "q:")]; ok && p > i {
				t["target"] = p
				return
			}
			delete(t, "target")
			t["type"] = survey.TargetNext
			notices = append(notices, fmt.Sprintf("“%v” went on to a question removed or moved before it meanwhile: it goes to the next question now.", q["title"]))
		})
	}
	if b, err = json.Marshal(v); err != nil {
		return surveyDoc{}, nil, err
	}
	var d surveyDoc
	if err := json.Unmarshal(b, &d); err != nil {
		return surveyDoc{}, nil, fmt.Errorf("%w: %w", survey.ErrInvalidDefinition, err)
	}
	d.Definition.Normalize()
	return d, notices, nil
}

// questionsOf are the questions of a mergeable doc.
func questionsOf(v any) []map[string]any {
	doc, _ := v.(map[string]any)
	def, _ := doc["definition"].(map[string]any)
	list, _ := def["questions"].([]any)
	out := make([]map[string]any, 0, len(list))
	for _, q := range list {
		if m, ok := q.(map[string]any); ok {
			out = append(out, m)
		}
	}
	return out
}

// eachTarget calls fn with each target of a question's routing.
func eachTarget(q map[string]any, fn func(map[string]any)) {
	r, _ := q["routingLogic"].(map[string]any)
	for _, name := range []string{"target", "default"} {
		if t, ok := r[name].(map[string]any); ok {
			fn(t)
		}
	}
	cases, _ := r["cases"].([]any)
	for _, c := range cases {
		if c, ok := c.(map[string]any); ok {
			if t, ok := c["target"].(map[string]any); ok {
				fn(t)
			}
		}
	}
}

// identity identifies the items of a survey's lists: questions by id, options by value, URL
// rules by their address, attribute rules by their attribute, and texts (events, classes) by
// themselves. A routing's cases have none: their order decides, so they are one value.
func identity(p jsonmerge.Path, item any) (string, bool) {
	if len(p) > 0 && !p[len(p)-1].Item {
		if o, ok := item.(map[string]any); ok {
			member := map[string]string{"options": "value", "urls": "value", "excludeUrls": "value", "attributes": "key"}[p[len(p)-1].Key]
			if s, ok := o[member].(string); ok && member != "" {
				return s, true
			}
		}
	}
	return jsonmerge.DefaultIdentity(p, item)
}

// mergeSurveys merges mine and theirs, both made from base.
func mergeSurveys(base, theirs, mine surveyDoc) (surveyDoc, []jsonmerge.Conflict, []string, error) {
	var docs [3]any
	for i, d := range []surveyDoc{base, theirs, mine} {
		var err error
		if docs[i], err = mergeable(d); err != nil {
			return surveyDoc{}, nil, nil, err
		}
	}
	merged, conflicts := jsonmerge.Merge(docs[0], docs[1], docs[2], jsonmerge.Options{Identity: identity})
	d, notices, err := unmergeable(merged)
	return d, conflicts, notices, err
}

// meanwhileNote is the other value of a field both the form and someone else changed, and where
// the form shows it: "title", "description", "q:" and a question's id (with ":title" for its
// title), "display", "confirmation", "webhook", or "head" for the form's head.
type meanwhileNote struct {
	Area, Field, Value string
}

// meanwhileNotes are the conflicts of a merge as the form shows them, with theirs' values.
func meanwhileNotes(conflicts []jsonmerge.Conflict, theirs surveyDoc) []meanwhileNote {
	var out []meanwhileNote
	for _, c := range conflicts {
		n := meanwhileNote{Area: "head", Value: valueText(c.Theirs)}
		p := c.Path
		switch {
		case len(p) >= 1 && p[0].Key == "webhookUrl":
			n.Area, n.Field = "webhook", "Webhook URL"
		case len(p) >= 1 && p[0].Key == "webhookWaitSeconds":
			n.Area, n.Field = "webhook", "Wait before sending"
		case len(p) < 2:
			n.Field = "The survey"
		default:
			n.Area, n.Field = areaOf(p[1:], theirs)
			switch {
			case c.Order || p[len(p)-1].Key == "questions":
				n.Value = questionOrder(theirs)
			case p[len(p)-1].Key == "routingLogic":
				n.Value = routingText(c.Theirs, theirs)
			}
		}
		out = append(out, n)
	}
	return out
}

// areaOf is where the form shows a conflict at p (a path in the definition), and its field's name.
func areaOf(p jsonmerge.Path, theirs surveyDoc) (string, string) {
	rest := p[1:]
	switch p[0].Key {
	case "title":
		return "title", "Survey title"
	case "description":
		return "description", "Description"
	case "questions":
		if len(rest) == 0 {
			return "head", "The questions and their order"
		}
		area := "q:" + rest[0].Key
		if len(rest) == 1 {
			return area, "This question"
		}
		if rest[1].Key == "title" {
			return area + ":title", "Question title"
		}
		return area, fieldName(rest[1:])
	case "display":
		if len(rest) == 0 {
			return "display", "Who sees it, and when"
		}
		return "display", fieldName(rest)
	case "confirmation", "isBackNavigationAllowed", "backButtonLabel":
		return "confirmation", fieldName(p)
	}
	return "head", fieldName(p)
}

// fieldNames name the form's fields by the last member of their path.
var fieldNames = map[string]string{
	"description": "Description", "required": "Required", "type": "Question type", "options": "Options",
	"routingLogic": "Where people go next", "buttonLabel": "Button label", "placeholder": "Placeholder", "scale": "Scale",
	"display": "Shown as", "lower": "Label of the lowest score", "upper": "Label of the highest score", "editable": "Their own answer",
	"max": "Longest answer, or most choices", "shouldAutoProgress": "Move on as soon as one is chosen", "buttonUrl": "Button link",
	"enableScreenshot": "Offer a screenshot", "enableRecording": "Offer a recording", "detailsLabel": "Details label",
	"detailsPlaceholder": "Details placeholder", "redactClasses": "Classes of elements to mask",
	"urls": "Pages where it shows", "excludeUrls": "Pages where it never shows", "attributes": "People it shows to",
	"events": "Events that show it", "delaySeconds": "Delay before it shows", "percentage": "Share of people who may see it",
	"recontact": "Ask the same person", "recontactDays": "Days before asking again", "maxDisplays": "Most times one person sees it",
	"startsAt": "From", "endsAt": "Until", "responseLimit": "Stop after this many responses", "priority": "Priority",
	"ignoreCooldown": "Show it within the team's cooldown", "title": "Title", "buttonText": "Confirmation button",
	"isBackNavigationAllowed": "People may go back", "backButtonLabel": "Back button label", "confirmation": "After the last question",
	"languages": "Translations", "link": "Its link page",
}

// fieldName names the field at p: an option by its value, else by its last member.
func fieldName(p jsonmerge.Path) string {
	for i := len(p) - 1; i >= 0; i-- {
		if p[i].Item && i > 0 && p[i-1].Key == "options" {
			return "Option “" + p[i].Key + "”"
		}
	}
	for i := len(p) - 1; i >= 0; i-- {
		if p[i].Item {
			continue
		}
		if p[i].Key == "description" && i > 0 && p[i-1].Key == "confirmation" {
			return "Confirmation text"
		}
		if p[i].Key == "title" && i > 0 && p[i-1].Key == "confirmation" {
			return "Confirmation title"
		}
		if name, ok := fieldNames[p[i].Key]; ok {
			return name
		}
		return p.String()
	}
	return p.String()
}

// questionOrder is theirs' questions, in their order.
func questionOrder(theirs surveyDoc) string {
	titles := make([]string, len(theirs.Definition.Questions))
	for i, q := range theirs.Definition.Questions {
		titles[i] = fmt.Sprintf("%d. %s", i+1, q.Title)
	}
	return strings.Join(titles, "; ")
}

// routingText is a mergeable routing as people read it: where everyone goes, or how many
// rules it has and where the rest go.
func routingText(v any, theirs surveyDoc) string {
	r, ok := v.(map[string]any)
	if !ok {
		return valueText(v)
	}
	to := func(t any) string {
		m, _ := t.(map[string]any)
		switch m["type"] {
		case survey.TargetEnd:
			return "the end of the survey"
		case survey.TargetJump:
			id, _ := m["target"].(string)
			if q, ok := theirs.Definition.Question(strings.TrimPrefix(id, "q:")); ok {
				return "“" + q.Title + "”"
			}
		}
		return "the next question"
	}
	if cases, ok := r["cases"].([]any); ok {
		return fmt.Sprintf("%d rules, otherwise go to %s", len(cases), to(r["default"]))
	}
	return "go to " + to(r["target"])
}

// maxValueText bounds the other value shown beside a field.
const maxValueText = 300

// valueText is a merged value as people read it: a text as it is, lists of options or rules by
// their values, anything else as compact JSON.
func valueText(v any) string {
	var s string
	switch x := v.(type) {
	case jsonmerge.Absent:
		s = "(removed)"
	case nil:
		s = "(empty)"
	case string:
		s = "“" + x + "”"
		if x == "" {
			s = "(empty)"
		}
	case bool:
		s = map[bool]string{true: "yes", false: "no"}[x]
	case []any:
		parts := make([]string, 0, len(x))
		for _, item := range x {
			if o, ok := item.(map[string]any); ok {
				if s, ok := o["value"].(string); ok {
					parts = append(parts, s)
					continue
				}
			}
			parts = append(parts, strings.Trim(valueText(item), "“”"))
		}
		s = strings.Join(parts, ", ")
		if len(x) == 0 {
			s = "(none)"
		}
	default:
		b, _ := json.Marshal(x)
		s = string(b)
	}
	if r := []rune(s); len(r) > maxValueText {
		s = string(r[:maxValueText]) + "…"
	}
	return s
}

// MeanwhileOf are the notes the form shows in an area (see meanwhileNote).
func (v editView) MeanwhileOf(area string) []meanwhileNote {
	var out []meanwhileNote
	for _, n := range v.Meanwhile {
		if n.Area == area {
			out = append(out, n)
		}
	}
	return out
}
