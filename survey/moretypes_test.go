package survey_test

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/svc-feedback/svc/survey"
)

// moreJSON is a survey of the new question types, one of each, and the two fixed-scale rating
// displays.
const moreJSON = `{"title":"More","description":null,"confirmation":{"title":"Thanks","description":"","buttonText":"Close"},
"questions":[
 {"id":"grid","title":"Rate each","description":null,"position":0,"required":true,
  "properties":{"type":"matrix","buttonLabel":"Next","rows":[{"value":"speed","label":"Speed"},{"value":"price"}],"columns":[{"value":"bad"},{"value":"ok"},{"value":"good"}]},
  "routingLogic":{"type":"always","target":{"type":"next"}}},
 {"id":"order","title":"Rank","description":null,"position":1,"required":false,
  "properties":{"type":"ranking","buttonLabel":"Next","options":[{"value":"a"},{"value":"b"},{"value":"c"}],"min":2},
  "routingLogic":{"type":"switch","cases":[{"type":"binary-operator","operator":"contains","value":{"type":"value","value":"c"},"target":{"type":"jump","target":3}}],"default":{"type":"next"}}},
 {"id":"when","title":"When","description":null,"position":2,"required":false,
  "properties":{"type":"date","buttonLabel":"Next","min":"2026-01-01","max":"2026-12-31"},
  "routingLogic":{"type":"switch","cases":[{"type":"binary-operator","operator":"less","value":{"type":"value","value":"2026-06-01"},"target":{"type":"end"}}],"default":{"type":"next"}}},
 {"id":"agree","title":"Agree","description":null,"position":3,"required":true,
  "properties":{"type":"consent","label":"I agree","buttonLabel":"Next"},"routingLogic":{"type":"always","target":{"type":"next"}}},
 {"id":"act","title":"Book","description":null,"position":4,"required":false,
  "properties":{"type":"cta","buttonLabel":"Book","url":"https://example.com/book"},
  "routingLogic":{"type":"switch","cases":[{"type":"binary-operator","operator":"equal","value":{"type":"value","value":"dismissed"},"target":{"type":"end"}}],"default":{"type":"next"}}},
 {"id":"reach","title":"Reach","description":null,"position":5,"required":false,
  "properties":{"type":"contact","buttonLabel":"Send","fields":[{"id":"name"},{"id":"email","required":true},{"id":"phone"}]},
  "routingLogic":{"type":"always","target":{"type":"next"}}},
 {"id":"effort","title":"Effort","description":null,"position":6,"required":false,
  "properties":{"type":"rating","buttonLabel":"Next","shouldAutoProgress":false,"scale":7,"display":"ces"},"routingLogic":{"type":"always","target":{"type":"next"}}},
 {"id":"thumb","title":"Thumb","description":null,"position":7,"required":false,
  "properties":{"type":"rating","buttonLabel":"Next","shouldAutoProgress":true,"scale":2,"display":"thumbs"},"routingLogic":{"type":"always","target":{"type":"next"}}}
]}`

func moreDefinition(t *testing.T, change func(m map[string]any)) (survey.Definition, error) {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(moreJSON), &m); err != nil {
		t.Fatal(err)
	}
	if change != nil {
		change(m)
	}
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	d, err := survey.ParseDefinition(b)
	if err != nil {
		return d, err
	}
	d.Normalize()
	return d, d.Validate()
}

func props(m map[string]any, i int) map[string]any {
	return question(m, i)["properties"].(map[string]any)
}

func TestMoreTypesAccepted(t *testing.T) {
	d, err := moreDefinition(t, nil)
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	back, err := survey.ParseDefinition(b)
	if err != nil {
		t.Fatalf("the encoded definition does not parse again: %v\n%s", err, b)
	}
	again, _ := json.Marshal(back)
	if string(again) != string(b) {
		t.Fatalf("encoding is not stable:\n%s\n%s", b, again)
	}
	if p, ok := back.Questions[0].Properties.(survey.MatrixProperties); !ok || len(p.Rows) != 2 || p.Rows[0].Text() != "Speed" || p.Rows[1].Text() != "price" {
		t.Fatalf("matrix properties = %#v", back.Questions[0].Properties)
	}
}

func TestMoreTypesRefused(t *testing.T) {
	tests := []struct {
		name   string
		change func(m map[string]any)
		want   string
	}{
		{"matrix with one row", func(m map[string]any) { props(m, 0)["rows"] = []any{map[string]any{"value": "x"}} },
			"questions[0].properties.rows: a matrix needs 2 to 20 rows; this one has 1"},
		{"matrix with 11 columns", func(m map[string]any) {
			var cols []any
			for _, c := range "abcdefghijk" {
				cols = append(cols, map[string]any{"value": string(c)})
			}
			props(m, 0)["columns"] = cols
		}, "questions[0].properties.columns: a matrix needs 2 to 10 columns; this one has 11"},
		{"matrix row twice", func(m map[string]any) {
			props(m, 0)["rows"] = []any{map[string]any{"value": "x"}, map[string]any{"value": "x"}}
		}, `questions[0].properties.rows[1].value "x" is used twice`},
		{"matrix row with a description", func(m map[string]any) {
			props(m, 0)["rows"].([]any)[0].(map[string]any)["description"] = "d"
		}, "questions[0].properties.rows[0].description: unknown member; questions[0].properties.rows[0] has value, label"},
		{"ranking min too high", func(m map[string]any) { props(m, 1)["min"] = 4 },
			"questions[1].properties.min: a ranking ranks at least 1 and at most all 3 options"},
		{"ranking one option", func(m map[string]any) { props(m, 1)["options"] = []any{map[string]any{"value": "a"}} },
			"questions[1].properties.options: a ranking needs 2 to 20 options"},
		{"date not a day", func(m map[string]any) { props(m, 2)["max"] = "2026-02-30" },
			`questions[2].properties.max must be a date written YYYY-MM-DD, not "2026-02-30"`},
		{"date min after max", func(m map[string]any) { props(m, 2)["min"] = "2027-01-01" },
			"questions[2].properties: min 2027-01-01 is after max 2026-12-31"},
		{"consent without label", func(m map[string]any) { props(m, 3)["label"] = " " },
			"questions[3].properties.label is required"},
		{"cta javascript url", func(m map[string]any) { props(m, 4)["url"] = "javascript:alert(1)" },
			"questions[4].properties.url must be an http or https address"},
		{"cta unknown member", func(m map[string]any) { props(m, 4)["link"] = "https://example.com" },
			"questions[4].properties.link: unknown member; questions[4].properties of type cta has type, buttonLabel, url, dismissLabel"},
		{"contact unknown field", func(m map[string]any) { props(m, 5)["fields"] = []any{map[string]any{"id": "fax"}} },
			"questions[5].properties.fields[0].id must be one of name, email, phone, company, address"},
		{"contact field twice", func(m map[string]any) {
			props(m, 5)["fields"] = []any{map[string]any{"id": "name"}, map[string]any{"id": "name"}}
		}, `questions[5].properties.fields[1].id "name" is used twice`},
		{"contact no fields", func(m map[string]any) { props(m, 5)["fields"] = []any{} }, "questions[5].properties.fields must not be empty"},
		{"contact field label", func(m map[string]any) { props(m, 5)["fields"] = []any{map[string]any{"id": "name", "label": "N"}} },
			"questions[5].properties.fields[0].label: unknown member; questions[5].properties.fields[0] has id, required"},
		{"ces scale", func(m map[string]any) { props(m, 6)["scale"] = 5 }, `questions[6].properties.scale must be 7 for the display "ces", not 5`},
		{"thumbs scale", func(m map[string]any) { props(m, 7)["scale"] = 3 }, `questions[7].properties.scale must be 2 for the display "thumbs", not 3`},
		{"matrix routing", func(m map[string]any) {
			question(m, 0)["routingLogic"] = map[string]any{"type": "switch", "default": map[string]any{"type": "next"},
				"cases": []any{map[string]any{"type": "binary-operator", "operator": "equal", "value": map[string]any{"type": "value", "value": "x"}, "target": map[string]any{"type": "end"}}}}
		}, "questions[0].routingLogic.cases[0]: the answer to a matrix question is not compared by routing"},
		{"ranking routing unknown option", func(m map[string]any) {
			question(m, 1)["routingLogic"].(map[string]any)["cases"].([]any)[0].(map[string]any)["value"] = map[string]any{"type": "value", "value": "z"}
		}, `questions[1].routingLogic.cases[0].value "z" is not one of the question's options`},
		{"ranking routing operator", func(m map[string]any) {
			question(m, 1)["routingLogic"].(map[string]any)["cases"].([]any)[0].(map[string]any)["operator"] = "equal"
		}, `questions[1].routingLogic.cases[0].operator "equal" cannot hold for a ranking question: use contains or not-contains`},
		{"date routing value", func(m map[string]any) {
			question(m, 2)["routingLogic"].(map[string]any)["cases"].([]any)[0].(map[string]any)["value"] = map[string]any{"type": "value", "value": "June"}
		}, `questions[2].routingLogic.cases[0].value "June" can never match: a date question's answer is a date written YYYY-MM-DD`},
		{"cta routing value", func(m map[string]any) {
			question(m, 4)["routingLogic"].(map[string]any)["cases"].([]any)[0].(map[string]any)["value"] = map[string]any{"type": "value", "value": "closed"}
		}, `questions[4].routingLogic.cases[0].value "closed" can never match: a call to action's answer is "clicked" or "dismissed"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := moreDefinition(t, tt.change)
			if !errors.Is(err, survey.ErrInvalidDefinition) || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("got %v, want an error with %q", err, tt.want)
			}
		})
	}
}

func TestMoreTypesOperators(t *testing.T) {
	for typ, want := range map[string][]string{
		survey.TypeMatrix: nil, survey.TypeContact: nil, survey.TypeConsent: nil,
		survey.TypeRanking: {survey.OpContains, survey.OpNotContains},
		survey.TypeCTA:     {survey.OpEqual, survey.OpNotEqual},
		survey.TypeDate:    {survey.OpEqual, survey.OpNotEqual, survey.OpGreater, survey.OpGreaterOrEqual, survey.OpLess, survey.OpLessOrEqual},
	} {
		if got := survey.Operators(typ); !slices.Equal(got, want) {
			t.Errorf("Operators(%s) = %v, want %v", typ, got, want)
		}
	}
}

func TestMoreTypesAnswers(t *testing.T) {
	d, err := moreDefinition(t, nil)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		answers string
		wantErr string // "" for valid answers
	}{
		{"matrix every row", `{"grid":{"speed":"good","price":"bad"}}`, ""},
		{"matrix required misses a row", `{"grid":{"speed":"good"}}`, `every row is answered; row "price" is not`},
		{"matrix unknown row", `{"grid":{"speed":"good","price":"bad","colour":"ok"}}`, `the matrix has no row "colour"`},
		{"matrix unknown column", `{"grid":{"speed":"great","price":"bad"}}`, `row "speed": the matrix has no column "great"`},
		{"matrix empty", `{"grid":{}}`, "at least one row"},
		{"matrix as a list", `{"grid":["good","bad"]}`, "object from row value to column value"},
		{"ranking", `{"order":["c","a"]}`, ""},
		{"ranking all", `{"order":["c","a","b"]}`, ""},
		{"ranking below min", `{"order":["c"]}`, "ranks at least 2 options; this one ranks 1"},
		{"ranking repeat", `{"order":["c","c"]}`, `"c" is ranked twice`},
		{"ranking unknown", `{"order":["c","z"]}`, `"z" is not one of the options`},
		{"date", `{"when":"2026-02-28"}`, ""},
		{"date not real", `{"when":"2026-02-30"}`, `"2026-02-30" is not a date written YYYY-MM-DD`},
		{"date other form", `{"when":"28/02/2026"}`, "is not a date written YYYY-MM-DD"},
		{"date before min", `{"when":"2025-12-31"}`, "before the earliest date allowed, 2026-01-01"},
		{"date after max", `{"when":"2027-01-01"}`, "after the latest date allowed, 2026-12-31"},
		{"consent", `{"agree":true}`, ""},
		{"consent false", `{"agree":false}`, "a consent answer is true"},
		{"consent text", `{"agree":"yes"}`, "a consent answer is true"},
		{"cta clicked", `{"act":"clicked"}`, ""},
		{"cta dismissed", `{"act":"dismissed"}`, ""},
		{"cta other", `{"act":"closed"}`, `a call-to-action answer is "clicked" or "dismissed"`},
		{"contact", `{"reach":{"name":"Ann","email":"ann@example.com","phone":"+44 (0)20 7946-0958"}}`, ""},
		{"contact missing required", `{"reach":{"name":"Ann"}}`, `field "email" is required`},
		{"contact blank required", `{"reach":{"email":""}}`, `field "email" is required`},
		{"contact undeclared field", `{"reach":{"email":"ann@example.com","company":"Acme"}}`, `asks for no field "company"; it asks for name, email, phone`},
		{"contact bad email", `{"reach":{"email":"Ann <ann@example.com>"}}`, "is not an e-mail address"},
		{"contact email without domain dot", `{"reach":{"email":"ann@localhost"}}`, "is not an e-mail address"},
		{"contact bad phone", `{"reach":{"email":"ann@example.com","phone":"call me"}}`, "is not a phone number"},
		{"contact long name", `{"reach":{"email":"ann@example.com","name":"` + strings.Repeat("n", 501) + `"}}`, "name is longer than 500 characters"},
		{"contact empty", `{"reach":{}}`, "at least one field"},
		{"contact named like a bug report", `{"reach":{"title":"t","metadata":"m"}}`, `asks for no field "metadata"`},
		{"thumbs up", `{"thumb":2}`, ""},
		{"thumbs three", `{"thumb":3}`, "integer from 1 to 2"},
		{"ces seven", `{"effort":7}`, ""},
		{"ces zero", `{"effort":0}`, "integer from 1 to 7"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var a survey.Answers
			if err := json.Unmarshal([]byte(tt.answers), &a); err != nil {
				t.Fatal(err)
			}
			err := d.ValidateAnswers(a)
			switch {
			case tt.wantErr == "" && err != nil:
				t.Fatalf("ValidateAnswers: %v", err)
			case tt.wantErr != "" && (!errors.Is(err, survey.ErrInvalidAnswer) || !strings.Contains(err.Error(), tt.wantErr)):
				t.Fatalf("ValidateAnswers = %v, want an error with %q", err, tt.wantErr)
			}
			if tt.wantErr != "" {
				return
			}
			got, err := a.AppendJSON(nil)
			want, _ := json.Marshal(map[string]survey.Answer(a))
			if err != nil || string(got) != string(want) {
				t.Fatalf("AppendJSON = %s, %v; encoding/json writes %s", got, err, want)
			}
		})
	}
}

func TestAnswerObjectsAndBooleans(t *testing.T) {
	var a survey.Answers
	if err := json.Unmarshal([]byte(`{"m":{"row":"col"},"b":{"title":"t","metadata":"m"},"c":true}`), &a); err != nil {
		t.Fatal(err)
	}
	if f, ok := a["m"].(survey.Fields); !ok || f["row"] != "col" {
		t.Errorf("an object of strings = %#v, want Fields", a["m"])
	}
	if _, ok := a["b"].(survey.BugReportAnswer); !ok {
		t.Errorf("a bug report's object = %#v, want BugReportAnswer", a["b"])
	}
	if f, ok := survey.AsFields(a["b"]); !ok || len(f) != 2 || f["title"] != "t" || f["metadata"] != "m" {
		t.Errorf("AsFields(bug report) = %v, %v", f, ok)
	}
	if b, ok := a["c"].(survey.Bool); !ok || !bool(b) {
		t.Errorf("true = %#v, want Bool(true)", a["c"])
	}
	out, err := a.AppendJSON(nil)
	if err != nil || string(out) != `{"b":{"title":"t","metadata":"m"},"c":true,"m":{"row":"col"}}` {
		t.Errorf("AppendJSON = %s, %v", out, err)
	}
}

func TestMoreTypesTranslations(t *testing.T) {
	lang := func(qs map[string]any) func(m map[string]any) {
		return func(m map[string]any) {
			m["languages"] = map[string]any{"default": "en", "translations": map[string]any{"de": map[string]any{"questions": qs}}}
		}
	}
	d, err := moreDefinition(t, lang(map[string]any{
		"grid":  map[string]any{"rows": map[string]any{"speed": "Tempo"}, "columns": map[string]any{"good": "Gut"}, "buttonLabel": "Weiter"},
		"order": map[string]any{"options": map[string]any{"a": "Eins"}},
		"agree": map[string]any{"label": "Ich stimme zu"},
		"act":   map[string]any{"dismissLabel": "Nicht jetzt"},
	}))
	if err != nil {
		t.Fatal(err)
	}
	de := d.Localize("de")
	grid := de.Questions[0].Properties.(survey.MatrixProperties)
	if grid.Rows[0].Text() != "Tempo" || grid.Columns[2].Text() != "Gut" || grid.ButtonLabel != "Weiter" || grid.Rows[0].Value != "speed" {
		t.Errorf("localized matrix = %+v", grid)
	}
	if o := de.Questions[1].Properties.(survey.RankingProperties).Options[0]; o.Text() != "Eins" || o.Value != "a" {
		t.Errorf("localized ranking option = %+v", o)
	}
	if c := de.Questions[3].Properties.(survey.ConsentProperties); c.Label != "Ich stimme zu" {
		t.Errorf("localized consent = %+v", c)
	}
	if c := de.Questions[4].Properties.(survey.CTAProperties); c.DismissLabel == nil || *c.DismissLabel != "Nicht jetzt" {
		t.Errorf("localized cta = %+v", c)
	}
	if d.Questions[0].Properties.(survey.MatrixProperties).Rows[0].Text() != "Speed" {
		t.Error("Localize changed the definition itself")
	}
	for _, tt := range []struct {
		qs   map[string]any
		want string
	}{
		{map[string]any{"grid": map[string]any{"rows": map[string]any{"colour": "Farbe"}}}, `languages.translations.de.questions.grid.rows: question "grid" has no row "colour"`},
		{map[string]any{"order": map[string]any{"rows": map[string]any{"a": "b"}}}, "only a matrix question has rows and columns"},
		{map[string]any{"act": map[string]any{"label": "x"}}, "only a consent question has a label"},
		{map[string]any{"agree": map[string]any{"dismissLabel": "x"}}, "only a call-to-action (cta) question has a dismissLabel"},
		{map[string]any{"order": map[string]any{"options": map[string]any{"z": "x"}}}, `question "order" has no option "z"`},
	} {
		if _, err := moreDefinition(t, lang(tt.qs)); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("translation %v: %v, want an error with %q", tt.qs, err, tt.want)
		}
	}
}
