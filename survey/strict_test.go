package survey_test

import (
	"encoding/json"
	"errors"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/svc-feedback/svc/survey"
)

// edit returns the sample definition's JSON with change applied to its decoded form.
func edit(t *testing.T, change func(m map[string]any)) []byte {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(survey.SampleJSON(), &m); err != nil {
		t.Fatal(err)
	}
	change(m)
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func question(m map[string]any, i int) map[string]any {
	return m["questions"].([]any)[i].(map[string]any)
}

// refusal is a change to the sample's JSON that ParseDefinition refuses, with the words its
// error must hold.
type refusal struct {
	name   string
	change func(m map[string]any)
	want   string
}

func wantRefused(t *testing.T, tests []refusal) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := survey.ParseDefinition(edit(t, tt.change))
			if !errors.Is(err, survey.ErrInvalidDefinition) || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("ParseDefinition() = %v, want an error with %q", err, tt.want)
			}
		})
	}
}

func TestParseDefinitionRefusesUnknownMembers(t *testing.T) {
	tests := []refusal{
		{"top level", func(m map[string]any) { m["titel"] = "x" },
			"titel: unknown member; a survey has title, description, questions, confirmation"},
		{"display", func(m map[string]any) {
			m["display"] = map[string]any{"url": []any{map[string]any{"match": "prefix", "value": "/docs"}}}
		},
			"display.url: unknown member; display has urls, excludeUrls, attributes, events"},
		{"display url rule", func(m map[string]any) {
			m["display"] = map[string]any{"urls": []any{map[string]any{"match": "prefix", "vaule": "/docs"}}}
		}, "display.urls[0].vaule: unknown member; display.urls[0] has match, value"},
		{"question", func(m map[string]any) { question(m, 0)["requird"] = true },
			"questions[0].requird: unknown member; questions[0] has id, title, description, position, required, properties, routingLogic"},
		{"properties of a type", func(m map[string]any) { question(m, 0)["properties"].(map[string]any)["scal"] = 5 },
			"questions[0].properties.scal: unknown member; questions[0].properties of type rating has type, buttonLabel, shouldAutoProgress, scale, labels, display"},
		{"a member of another type", func(m map[string]any) { question(m, 0)["properties"].(map[string]any)["options"] = []any{} },
			"questions[0].properties.options: unknown member"},
		{"option", func(m map[string]any) {
			question(m, 2)["properties"].(map[string]any)["options"].([]any)[0].(map[string]any)["lable"] = "x"
		}, "questions[2].properties.options[0].lable: unknown member; questions[2].properties.options[0] has value, label, description"},
		{"confirmation", func(m map[string]any) { m["confirmation"].(map[string]any)["buttonTxt"] = "x" },
			"confirmation.buttonTxt: unknown member; confirmation has title, description, buttonText"},
		{"routing", func(m map[string]any) { question(m, 1)["routingLogic"].(map[string]any)["cases"] = []any{} },
			"questions[1].routingLogic.cases: unknown member; questions[1].routingLogic of type always has type, target"},
		{"target", func(m map[string]any) {
			question(m, 1)["routingLogic"].(map[string]any)["target"] = map[string]any{"type": "next", "target": 3}
		}, "questions[1].routingLogic.target.target: unknown member; questions[1].routingLogic.target of type next has type"},
		{"case", func(m map[string]any) {
			question(m, 0)["routingLogic"].(map[string]any)["cases"].([]any)[0].(map[string]any)["op"] = "equal"
		}, "questions[0].routingLogic.cases[0].op: unknown member"},
		{"translation", func(m map[string]any) {
			m["languages"] = map[string]any{"default": "en", "translations": map[string]any{"de": map[string]any{"titel": "x"}}}
		}, "languages.translations.de.titel: unknown member; languages.translations.de has title, description, questions, confirmation, backButtonLabel"},
		{"question translation", func(m map[string]any) {
			m["languages"] = map[string]any{"default": "en", "translations": map[string]any{"de": map[string]any{
				"questions": map[string]any{"nps": map[string]any{"tilte": "x"}}}}}
		}, "languages.translations.de.questions.nps.tilte: unknown member"},
		{"link", func(m map[string]any) { m["link"] = map[string]any{"anon": true} },
			"link.anon: unknown member; link has anonymous"},
		{"case only", func(m map[string]any) { m["display"] = map[string]any{"URLs": []any{}} },
			`display.URLs: member names are case-sensitive: "URLs" should be "urls"`},
	}
	wantRefused(t, tests)
}

func TestParseDefinitionRefusesWrongTypes(t *testing.T) {
	tests := []refusal{
		{"title", func(m map[string]any) { m["title"] = 7 }, "title must be a string, not 7"},
		{"required as a string", func(m map[string]any) { question(m, 0)["required"] = "true" },
			"questions[0].required must be true or false, not a JSON string"},
		{"required null", func(m map[string]any) { question(m, 0)["required"] = nil },
			"questions[0].required must be true or false, not null"},
		{"position fraction", func(m map[string]any) { question(m, 0)["position"] = 1.5 },
			"questions[0].position must be a whole number, not 1.5"},
		{"scale as a string", func(m map[string]any) { question(m, 0)["properties"].(map[string]any)["scale"] = "10" },
			"questions[0].properties.scale must be a whole number, not a JSON string"},
		{"unknown question type", func(m map[string]any) { question(m, 0)["properties"].(map[string]any)["type"] = "heatmap" },
			`questions[0].properties.type must be one of bug-report, consent, contact, cta, date, matrix, multi-select, open-ended, ranking, rating, single-select, statement, not "heatmap"`},
		{"properties without a type", func(m map[string]any) { delete(question(m, 0)["properties"].(map[string]any), "type") },
			"questions[0].properties.type is required"},
		{"options as an object", func(m map[string]any) { question(m, 2)["properties"].(map[string]any)["options"] = map[string]any{} },
			"questions[2].properties.options must be a list or null, not an object"},
		{"display as a list", func(m map[string]any) { m["display"] = []any{} },
			"display must be an object or null, not a list"},
		{"delay as a string", func(m map[string]any) { m["display"] = map[string]any{"delaySeconds": "5"} },
			"display.delaySeconds must be a whole number, not a JSON string"},
		{"start not a date", func(m map[string]any) { m["display"] = map[string]any{"startsAt": "tomorrow"} },
			`display.startsAt must be a date and time such as "2026-01-02T15:04:05Z" (RFC 3339), not tomorrow`},
		{"attribute value an object", func(m map[string]any) {
			m["display"] = map[string]any{"attributes": []any{map[string]any{"key": "plan", "operator": "equal", "value": map[string]any{}}}}
		}, "display.attributes[0].value must be a string, a number, true or false, or a list of them, not an object"},
		{"case value an object", func(m map[string]any) {
			question(m, 0)["routingLogic"].(map[string]any)["cases"].([]any)[0].(map[string]any)["value"] = map[string]any{"type": "value", "value": []any{}}
		}, "questions[0].routingLogic.cases[0].value.value must be a string or a number, not a list"},
		{"jump without a target", func(m map[string]any) {
			question(m, 1)["routingLogic"].(map[string]any)["target"] = map[string]any{"type": "jump"}
		}, "questions[1].routingLogic.target.target is required"},
		{"translations as a list", func(m map[string]any) { m["languages"] = map[string]any{"default": "en", "translations": []any{}} },
			"languages.translations must be an object or null, not a list"},
		{"option translation a number", func(m map[string]any) {
			m["languages"] = map[string]any{"default": "en", "translations": map[string]any{"de": map[string]any{
				"questions": map[string]any{"missing": map[string]any{"options": map[string]any{"Speed": 1}}}}}}
		}, "languages.translations.de.questions.missing.options.Speed must be a string, not 1"},
		{"huge number", func(m map[string]any) { m["display"] = map[string]any{"priority": json.Number("1e400")} },
			"display.priority must be a number, not 1e400"},
	}
	wantRefused(t, tests)
}

// TestParseDefinitionReadsWhatItWrites: every definition svc writes, with every member set,
// reads back strictly as it was.
func TestParseDefinitionReadsWhatItWrites(t *testing.T) {
	for name, b := range map[string][]byte{"sample": survey.SampleJSON(), "every member": everyMember(t)} {
		t.Run(name, func(t *testing.T) {
			d, err := survey.ParseDefinition(b)
			if err != nil {
				t.Fatalf("ParseDefinition(its own JSON) = %v", err)
			}
			out, err := json.Marshal(d)
			if err != nil {
				t.Fatal(err)
			}
			again, err := survey.ParseDefinition(out)
			if err != nil {
				t.Fatalf("ParseDefinition(%s) = %v", out, err)
			}
			if b2, _ := json.Marshal(again); string(b2) != string(out) {
				t.Errorf("read back differently:\n%s\n%s", out, b2)
			}
		})
	}
}

func TestParseDefinitionRefusesWhatIsNotAnObject(t *testing.T) {
	for _, b := range []string{`[]`, `"survey"`, `null`, `{"title":"x"} {}`, `{"title":"x","title":"y"}`, ``} {
		if _, err := survey.ParseDefinition([]byte(b)); !errors.Is(err, survey.ErrInvalidDefinition) {
			t.Errorf("ParseDefinition(%q) = %v, want ErrInvalidDefinition", b, err)
		}
	}
}

func everyMember(t *testing.T) []byte {
	t.Helper()
	b, err := os.ReadFile("testdata/every-member.json")
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestShapeMatchesTypes: every member name the definition's Go types read stands in
// testdata/every-member.json, which ParseDefinition accepts, so a member added to the types
// without its place in the strict reading fails here rather than being refused in use.
func TestShapeMatchesTypes(t *testing.T) {
	var file any
	if err := json.Unmarshal(everyMember(t), &file); err != nil {
		t.Fatal(err)
	}
	written := make(map[string]bool)
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			for k, x := range v {
				written[k] = true
				walk(x)
			}
		case []any:
			for _, x := range v {
				walk(x)
			}
		}
	}
	walk(file)
	types := []reflect.Type{reflect.TypeFor[survey.Definition]()}
	for _, p := range []survey.Properties{survey.RatingProperties{}, survey.SingleSelectProperties{}, survey.MultiSelectProperties{},
		survey.OpenEndedProperties{}, survey.StatementProperties{}, survey.BugReportProperties{}} {
		types = append(types, reflect.TypeOf(p))
	}
	seen := make(map[reflect.Type]bool)
	for len(types) > 0 {
		typ := types[0]
		types = types[1:]
		for typ.Kind() == reflect.Pointer || typ.Kind() == reflect.Slice || typ.Kind() == reflect.Map {
			typ = typ.Elem()
		}
		// Routing reads itself, as the variants written out in the file; a question reads its own
		// members and then its properties, listed above.
		custom := reflect.PointerTo(typ).Implements(reflect.TypeFor[json.Unmarshaler]()) && typ != reflect.TypeFor[survey.Question]()
		if typ.Kind() != reflect.Struct || seen[typ] || custom || typ.PkgPath() != reflect.TypeFor[survey.Definition]().PkgPath() {
			continue
		}
		seen[typ] = true
		for i := range typ.NumField() {
			fd := typ.Field(i)
			name, _, _ := strings.Cut(fd.Tag.Get("json"), ",")
			if name == "-" || !fd.IsExported() {
				continue
			}
			if name == "" {
				name = fd.Name
			}
			if !written[name] {
				t.Errorf("%s.%s (%q) is not in testdata/every-member.json: add it there and to the strict reading", typ.Name(), fd.Name, name)
			}
			types = append(types, fd.Type)
		}
	}
}
