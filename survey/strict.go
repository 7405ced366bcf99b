package survey

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
)

// A survey written by a person is read strictly: encoding/json drops a member it does not know
// and turns a null into a zero value, so a misspelt "requird" or "display.url" would be stored as
// nothing, and the survey would then do something its writer did not mean (shown on every page,
// say). CheckSurvey walks the survey's JSON against the shape below before it is decoded, and
// refuses, with the member's path, every member that the shape does not name and every value of
// another kind.

// kind is the JSON a member's value must be.
type kind uint8

const (
	kString   kind = iota // a string
	kBool                 // true or false
	kInt                  // a whole number, written without fraction or exponent
	kNumber               // any finite number
	kDate                 // a string holding an RFC 3339 date-time
	kStrOrNum             // a string or a number: a routing case's value
	kAttr                 // a string, number or boolean, or a list of them: an attribute rule's value
	kObject               // an object of the members named in fields
	kArray                // a list of elem
	kMap                  // an object whose names are data (language tags, question ids), values elem
	kUnion                // an object whose "type" member picks its shape among variants
	kOwn                  // a value its caller reads itself: a file's history
)

// shape is what a JSON value must be. A null is taken only where null is set: there it means the
// member is not set, as the Go field it decodes into (a pointer, a list) reads it.
type shape struct {
	kind     kind
	null     bool
	fields   []field           // kObject
	elem     *shape            // kArray, kMap
	variants map[string]*shape // kUnion: by the value of "type", each a kObject with "type" among its fields
	order    []string          // kUnion: the variants' names, for messages
}

// field is one member an object may hold.
type field struct {
	name     string
	shape    *shape
	required bool // its absence is refused here, where decoding would otherwise say less
}

func obj(fields ...field) *shape { return &shape{kind: kObject, fields: fields} }
func list(elem *shape) *shape    { return &shape{kind: kArray, elem: elem, null: true} }
func dict(elem *shape) *shape    { return &shape{kind: kMap, elem: elem, null: true} }
func orNull(s *shape) *shape     { c := *s; c.null = true; return &c }
func f(name string, s *shape) field {
	return field{name: name, shape: s}
}
func must(name string, s *shape) field { return field{name: name, shape: s, required: true} }

var (
	str     = &shape{kind: kString}
	boolean = &shape{kind: kBool}
	integer = &shape{kind: kInt}
	number  = &shape{kind: kNumber}
	date    = &shape{kind: kDate, null: true}
)

// union is a shape picked by a "type" member: each variant's fields, "type" added first.
func union(variants map[string][]field) *shape {
	s := &shape{kind: kUnion, variants: make(map[string]*shape, len(variants))}
	for name, fields := range variants {
		s.variants[name] = obj(append([]field{must("type", str)}, fields...)...)
		s.order = append(s.order, name)
	}
	slices.Sort(s.order)
	return s
}

// definitionShape is a survey definition's JSON: every member a Definition reads, at every
// depth. A member added to the Go types is added here too; TestShapeMatchesTypes holds the two
// together.
var definitionShape = func() *shape {
	option := obj(f("value", str), f("label", orNull(str)), f("description", orNull(str)))
	editable := orNull(obj(f("label", str), f("max", integer), f("description", orNull(str))))
	options := list(option)
	button := f("buttonLabel", str)
	choices := list(obj(f("value", str), f("label", orNull(str))))
	properties := union(map[string][]field{
		TypeRating: {button, f("shouldAutoProgress", boolean), f("scale", integer),
			f("labels", orNull(obj(f("lower", orNull(str)), f("upper", orNull(str))))), f("display", orNull(str))},
		TypeSingleSelect: {f("shouldAutoProgress", boolean), f("options", options), button, f("editable", editable)},
		TypeMultiSelect: {button, f("options", options), f("editable", editable), f("max", orNull(integer)),
			f("display", orNull(str))},
		TypeOpenEnded: {f("placeholder", orNull(str)), button, f("max", integer)},
		TypeStatement: {button, f("buttonUrl", orNull(str))},
		TypeBugReport: {f("placeholder", orNull(str)), button, f("enableScreenshot", boolean),
			f("enableRecording", boolean), f("detailsLabel", str), f("detailsPlaceholder", orNull(str)),
			f("redactClasses", list(str))},
		TypeMatrix:  {button, f("rows", choices), f("columns", choices)},
		TypeRanking: {button, f("options", choices), f("min", orNull(integer))},
		TypeDate:    {button, f("min", orNull(str)), f("max", orNull(str))},
		TypeConsent: {f("label", str), button},
		TypeCTA:     {button, f("url", orNull(str)), f("dismissLabel", orNull(str))},
		TypeContact: {button, f("fields", list(obj(f("id", str), f("required", boolean))))},
	})
	target := union(map[string][]field{TargetNext: nil, TargetEnd: nil, TargetJump: {must("target", integer)}})
	operand := union(map[string][]field{"value": {must("value", &shape{kind: kStrOrNum})}})
	condition := union(map[string][]field{"binary-operator": {must("operator", str), must("value", operand), must("target", target)}})
	routing := union(map[string][]field{
		RoutingAlways: {must("target", target)},
		RoutingSwitch: {f("cases", list(condition)), must("default", target)},
	})
	question := obj(f("id", str), f("title", str), f("description", orNull(str)), f("position", integer),
		f("required", boolean), must("properties", properties), f("routingLogic", routing))
	urlRule := obj(f("match", str), f("value", str))
	display := orNull(obj(f("urls", list(urlRule)), f("excludeUrls", list(urlRule)),
		f("attributes", list(obj(f("key", str), f("operator", str), f("value", &shape{kind: kAttr, null: true})))),
		f("events", list(str)), f("delaySeconds", integer), f("percentage", orNull(number)), f("recontact", str),
		f("recontactDays", integer), f("maxDisplays", integer), f("startsAt", date), f("endsAt", date),
		f("responseLimit", integer), f("ignoreCooldown", boolean), f("priority", number)))
	text := orNull(str)
	questionText := obj(f("title", text), f("description", text), f("buttonLabel", text),
		f("labels", orNull(obj(f("lower", orNull(str)), f("upper", orNull(str))))), f("options", dict(str)),
		f("placeholder", text), f("editableLabel", text), f("detailsLabel", text), f("detailsPlaceholder", text),
		f("rows", dict(str)), f("columns", dict(str)), f("label", text), f("dismissLabel", text))
	translation := obj(f("title", text), f("description", text), f("questions", dict(questionText)),
		f("confirmation", orNull(obj(f("title", text), f("description", text), f("buttonText", text)))),
		f("backButtonLabel", text))
	languages := orNull(obj(f("default", str), f("translations", dict(translation))))
	return obj(f("title", str), f("description", orNull(str)), f("questions", list(question)),
		f("confirmation", obj(f("title", str), f("description", str), f("buttonText", str))),
		f("isBackNavigationAllowed", boolean), f("backButtonLabel", str), f("display", display),
		f("languages", languages), f("link", orNull(obj(f("anonymous", boolean)))))
}()

// Settings are the members a survey object may hold beside its definition, with the shapes of
// their values: what a store keeps with the survey, and when it was made (a file's). A caller
// of CheckSurvey names those its object may hold.
var settingShapes = map[string]*shape{
	"id": str, "status": str, "webhookUrl": str, "webhookSecret": str, "webhookWaitSeconds": integer,
	"createdAt": date, "responses": history, "events": history,
}

// history is a file's responses or events, which its reader checks as it reads them.
var history = &shape{kind: kOwn, null: true}

// CheckSurvey checks the members of a survey object, as a body or a file gives them, against
// what a survey holds, at every depth: a member it does not know is an error naming its path and
// the members allowed there ("display.url: unknown member; display has urls, excludeUrls, …"),
// and so is a value of the wrong kind ("questions[0].required must be true or false, not a JSON
// string"), or a null where a value is needed. settings names the members the object may hold
// beside its definition: "id", "status", "webhookUrl", "webhookSecret", "webhookWaitSeconds",
// "createdAt", and a file's history, "responses" and "events", which its reader checks. What each value means (a scale from 2 to 10, routing that can hold) is
// Validate's to check; CheckSurvey makes sure the decoding that follows drops nothing. Errors
// wrap ErrInvalidDefinition.
func CheckSurvey(members map[string]json.RawMessage, settings ...string) error {
	top := &shape{kind: kObject, fields: slices.Clone(definitionShape.fields)}
	for _, name := range settings {
		s, ok := settingShapes[name]
		if !ok {
			panic("survey.CheckSurvey: no setting " + strconv.Quote(name))
		}
		top.fields = append(top.fields, f(name, s))
	}
	// Members in the order the shape names them, then the unknown ones by name, so that the
	// error for a body with several faults is the same every time.
	names := make([]string, 0, len(members))
	for name := range members {
		if top.field(name) == nil {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	if len(names) > 0 {
		return unknownMember(names[0], "", top, "a survey")
	}
	for _, fd := range top.fields {
		if raw, ok := members[fd.name]; ok {
			if err := checkShape(raw, fd.name, fd.shape); err != nil {
				return err
			}
		}
	}
	return nil
}

func (s *shape) field(name string) *shape {
	for _, fd := range s.fields {
		if fd.name == name {
			return fd.shape
		}
	}
	return nil
}

// checkShape checks one value, raw, at path against s.
func checkShape(raw json.RawMessage, path string, s *shape) error {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return invalid("%s: a value is missing", path)
	}
	if raw[0] == 'n' {
		if s.null {
			return nil
		}
		return wrongKind(path, s, raw)
	}
	switch s.kind {
	case kString:
		if raw[0] != '"' {
			return wrongKind(path, s, raw)
		}
	case kBool:
		if raw[0] != 't' && raw[0] != 'f' {
			return wrongKind(path, s, raw)
		}
	case kInt:
		if _, err := strconv.ParseInt(string(raw), 10, 64); err != nil {
			return wrongKind(path, s, raw)
		}
	case kNumber:
		if !isNumber(raw) {
			return wrongKind(path, s, raw)
		}
	case kDate:
		var v string
		if raw[0] != '"' || json.Unmarshal(raw, &v) != nil {
			return wrongKind(path, s, raw)
		}
		if _, err := time.Parse(time.RFC3339, v); err != nil {
			return invalid("%s must be a date and time such as \"2026-01-02T15:04:05Z\" (RFC 3339), not %s", path, truncate(v))
		}
	case kStrOrNum:
		if raw[0] != '"' && !isNumber(raw) {
			return wrongKind(path, s, raw)
		}
	case kAttr:
		return checkAttr(raw, path, s)
	case kArray:
		return checkArray(raw, path, s)
	case kMap, kObject, kUnion:
		return checkObject(raw, path, s)
	}
	return nil
}

func isNumber(raw []byte) bool {
	if raw[0] != '-' && (raw[0] < '0' || raw[0] > '9') {
		return false
	}
	_, err := strconv.ParseFloat(string(raw), 64)
	return err == nil // ParseFloat refuses what overflows a float64, as decoding would
}

func checkAttr(raw json.RawMessage, path string, s *shape) error {
	scalar := func(b []byte) bool { return b[0] == '"' || b[0] == 't' || b[0] == 'f' || isNumber(b) }
	if scalar(raw) {
		return nil
	}
	if raw[0] == '[' {
		var items []json.RawMessage
		if json.Unmarshal(raw, &items) == nil {
			for i, it := range items {
				if it = bytes.TrimSpace(it); !scalar(it) {
					return wrongKind(fmt.Sprintf("%s[%d]", path, i), &shape{kind: kAttr}, it)
				}
			}
			return nil
		}
	}
	return wrongKind(path, s, raw)
}

func checkArray(raw json.RawMessage, path string, s *shape) error {
	if raw[0] != '[' {
		return wrongKind(path, s, raw)
	}
	var items []json.RawMessage
	if err := json.Unmarshal(raw, &items); err != nil {
		return invalid("%s: malformed JSON: %v", path, err)
	}
	for i, it := range items {
		if err := checkShape(it, fmt.Sprintf("%s[%d]", path, i), s.elem); err != nil {
			return err
		}
	}
	return nil
}

// checkObject checks an object, a map or a union, its members in the order they are written.
func checkObject(raw json.RawMessage, path string, s *shape) error {
	if raw[0] != '{' {
		return wrongKind(path, s, raw)
	}
	members, err := objectMembers(raw)
	if err != nil {
		return invalid("%s: malformed JSON: %v", path, err)
	}
	if s.kind == kMap {
		for _, m := range members {
			if err := checkShape(m.raw, path+"."+m.name, s.elem); err != nil {
				return err
			}
		}
		return nil
	}
	what := path
	if s.kind == kUnion {
		var name string
		if s, name, err = variant(members, path, s); err != nil {
			return err
		}
		what = fmt.Sprintf("%s of type %s", path, name)
	}
	for _, m := range members {
		fs := s.field(m.name)
		if fs == nil {
			return unknownMember(m.name, path, s, what)
		}
		if err := checkShape(m.raw, path+"."+m.name, fs); err != nil {
			return err
		}
	}
	for _, fd := range s.fields {
		if fd.required && !slices.ContainsFunc(members, func(m member) bool { return m.name == fd.name }) {
			return invalid("%s.%s is required", path, fd.name)
		}
	}
	return nil
}

// variant is the shape a union's "type" member picks.
func variant(members []member, path string, s *shape) (*shape, string, error) {
	i := slices.IndexFunc(members, func(m member) bool { return m.name == "type" })
	if i < 0 {
		return nil, "", invalid("%s.type is required: one of %s", path, strings.Join(s.order, ", "))
	}
	var name string
	if json.Unmarshal(members[i].raw, &name) != nil {
		return nil, "", wrongKind(path+".type", str, bytes.TrimSpace(members[i].raw))
	}
	v, ok := s.variants[name]
	if !ok {
		return nil, "", invalid("%s.type must be one of %s, not %q", path, strings.Join(s.order, ", "), truncate(name))
	}
	return v, name, nil
}

// member is one member of an object as written.
type member struct {
	name string
	raw  json.RawMessage
}

// objectMembers lists an object's members in order.
func objectMembers(raw json.RawMessage) ([]member, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if _, err := dec.Token(); err != nil { // the opening brace
		return nil, err
	}
	var out []member
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, err
		}
		out = append(out, member{tok.(string), v})
	}
	return out, nil
}

// unknownMember is the error of a member name s does not hold, at path: it lists the members
// s does ("display.url: unknown member; display has urls, excludeUrls, …").
func unknownMember(name, path string, s *shape, what string) error {
	at := name
	if path != "" {
		at = path + "." + name
	}
	names := make([]string, len(s.fields))
	for i, fd := range s.fields {
		names[i] = fd.name
	}
	if i := slices.IndexFunc(names, func(n string) bool { return strings.EqualFold(n, name) }); i >= 0 {
		return invalid("%s: member names are case-sensitive: %q should be %q", truncate(at), truncate(name), names[i])
	}
	return invalid("%s: unknown member; %s has %s", truncate(at), what, strings.Join(names, ", "))
}

// wrongKind is the error of a value of another kind than s.
func wrongKind(path string, s *shape, raw []byte) error {
	want := map[kind]string{
		kString: "a string", kBool: "true or false", kInt: "a whole number", kNumber: "a number",
		kDate: "a date and time as a string", kStrOrNum: "a string or a number",
		kAttr: "a string, a number, true or false, or a list of them", kObject: "an object",
		kArray: "a list", kMap: "an object", kUnion: "an object",
	}[s.kind]
	if s.null && s.kind != kAttr {
		want += " or null"
	}
	return invalid("%s must be %s, not %s", path, want, describeJSON(raw))
}

// describeJSON names a JSON value for a message: its kind, and a number as written.
func describeJSON(raw []byte) string {
	switch raw[0] {
	case '"':
		return "a JSON string"
	case '{':
		return "an object"
	case '[':
		return "a list"
	case 't', 'f':
		return "a JSON boolean"
	case 'n':
		return "null"
	}
	return truncate(string(raw))
}

func truncate(s string) string {
	if len(s) > 64 {
		return s[:64] + "..."
	}
	return s
}

// ParseDefinition reads a survey definition written by hand or by a program as CheckMembers
// and CheckSurvey read it, strictly, and decodes it: nothing it holds is dropped or read as
// something else. It does not validate or normalize the definition.
func ParseDefinition(b []byte) (Definition, error) {
	if err := CheckMembers(b); err != nil {
		return Definition{}, err
	}
	if bytes.TrimSpace(b)[0] != '{' {
		return Definition{}, invalid("a survey definition must be a JSON object, not %s", describeJSON(bytes.TrimSpace(b)))
	}
	var members map[string]json.RawMessage
	if err := json.Unmarshal(b, &members); err != nil {
		return Definition{}, fmt.Errorf("%w: %v", ErrInvalidDefinition, err)
	}
	if err := CheckSurvey(members); err != nil {
		return Definition{}, err
	}
	var d Definition
	if err := json.Unmarshal(b, &d); err != nil {
		return Definition{}, fmt.Errorf("%w: %v", ErrInvalidDefinition, err)
	}
	return d, nil
}
