package console_test

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	gocmp "github.com/google/go-cmp/cmp"
	"github.com/svc-feedback/svc/internal/console"
	"github.com/svc-feedback/svc/store"
	"github.com/svc-feedback/svc/survey"
)

// TestResultsOfMoreTypes: the results page shows a matrix's counts per row and column, a
// ranking's average ranks, a date's months and a call to action's rate; a response's page reads
// a matrix's and a contact's answers as pairs and a consent as Yes.
func TestResultsOfMoreTypes(t *testing.T) {
	e := setup(t)
	def, err := survey.ParseDefinition([]byte(`{"title":"More","confirmation":{"title":"T","description":"","buttonText":"OK"},"questions":[
	 {"id":"grid","title":"Rate each","description":null,"position":0,"required":false,"routingLogic":{"type":"always","target":{"type":"next"}},
	  "properties":{"type":"matrix","buttonLabel":"Next","rows":[{"value":"speed"},{"value":"price"}],"columns":[{"value":"bad"},{"value":"good"}]}},
	 {"id":"order","title":"Rank","description":null,"position":1,"required":false,"routingLogic":{"type":"always","target":{"type":"next"}},
	  "properties":{"type":"ranking","buttonLabel":"Next","options":[{"value":"a"},{"value":"b"}]}},
	 {"id":"when","title":"When","description":null,"position":2,"required":false,"routingLogic":{"type":"always","target":{"type":"next"}},
	  "properties":{"type":"date","buttonLabel":"Next"}},
	 {"id":"agree","title":"Terms","description":null,"position":3,"required":false,"routingLogic":{"type":"always","target":{"type":"next"}},
	  "properties":{"type":"consent","buttonLabel":"Next","label":"I agree"}},
	 {"id":"act","title":"Book","description":null,"position":4,"required":false,"routingLogic":{"type":"always","target":{"type":"next"}},
	  "properties":{"type":"cta","buttonLabel":"Book"}},
	 {"id":"reach","title":"Reach","description":null,"position":5,"required":false,"routingLogic":{"type":"always","target":{"type":"next"}},
	  "properties":{"type":"contact","buttonLabel":"Send","fields":[{"id":"email"}]}}]}`))
	if err != nil {
		t.Fatal(err)
	}
	def.Normalize()
	if err := def.Validate(); err != nil {
		t.Fatal(err)
	}
	sv := store.Survey{ID: e.ids.New(), TeamID: "a", Status: store.StatusActive, Definition: def, CreatedAt: t0, UpdatedAt: t0}
	if err := e.store.CreateSurvey(t.Context(), sv); err != nil {
		t.Fatal(err)
	}
	e.putResponse(sv.ID, "rmore000000000000000001", "ann", `{"grid":{"speed":"good","price":"bad"},"order":["b","a"],"when":"2026-03-14","agree":true,"act":"clicked","reach":{"email":"ann@example.com"}}`)
	e.putResponse(sv.ID, "rmore000000000000000002", "bob", `{"grid":{"speed":"good"},"order":["a","b"],"when":"2026-04-01","act":"dismissed"}`)
	e.clock.Advance(time.Minute)
	get := e.resultsGetter()
	body := get("/surveys/" + sv.ID).Body.String()
	for _, want := range []string{
		`<caption>Answers per row and column</caption>`, `<th scope="col">bad</th><th scope="col">good</th>`,
		`<tr><th scope="row">speed</th><td>0</td><td>2</td></tr>`, `<tr><th scope="row">price</th><td>1</td><td>0</td></tr>`,
		`<li>a: average rank <strong>1.5</strong> (2 ranked it)</li>`,
		`<span class="label">2026-03</span> <span class="count">1</span>`, `<span class="label">2026-04</span> <span class="count">1</span>`,
		`Agreed by <strong>50.0%</strong> of those who reached it`,
		`Clicked by <strong>50.0%</strong> of those who reached it (1 clicked, 1 dismissed)`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("results page lacks %s", want)
		}
	}
	var answers json.RawMessage
	list, _, err := e.store.Responses(t.Context(), store.ResponseQuery{SurveyID: sv.ID, Limit: 10, Oldest: true})
	if err != nil || len(list) != 2 {
		t.Fatalf("%v, %d responses", err, len(list))
	}
	answers = list[0].Data
	page := get("/surveys/" + sv.ID + "/responses/" + list[0].ID).Body.String()
	for _, want := range []string{"price: bad; speed: good", "b, a", "Yes", "email: ann@example.com"} {
		if !strings.Contains(page, want) {
			t.Errorf("response page (answers %s) lacks %q", answers, want)
		}
	}
}

// TestEditorKeepsMoreTypes: a survey with the newer question types and rating displays, saved
// unchanged from the editor, is stored as it was (the form does not show those types' own
// settings, and must not replace them); a question added and given each newer type saves
// with that type's defaults.
func TestEditorKeepsMoreTypes(t *testing.T) {
	e := setup(t)
	def, err := survey.ParseDefinition([]byte(`{"title":"More","confirmation":{"title":"T","description":"","buttonText":"OK"},"questions":[
	 {"id":"grid","title":"Rate each","description":null,"position":0,"required":true,"routingLogic":{"type":"always","target":{"type":"next"}},
	  "properties":{"type":"matrix","buttonLabel":"Next","rows":[{"value":"speed"},{"value":"price","label":"Price"}],"columns":[{"value":"bad"},{"value":"good"}]}},
	 {"id":"effort","title":"Effort","description":null,"position":1,"required":false,"routingLogic":{"type":"always","target":{"type":"next"}},
	  "properties":{"type":"rating","buttonLabel":"Next","shouldAutoProgress":false,"scale":7,"display":"ces"}},
	 {"id":"thumb","title":"Helpful?","description":null,"position":2,"required":false,"routingLogic":{"type":"always","target":{"type":"next"}},
	  "properties":{"type":"rating","buttonLabel":"Next","shouldAutoProgress":true,"scale":2,"display":"thumbs"}},
	 {"id":"reach","title":"Reach","description":null,"position":3,"required":false,"routingLogic":{"type":"always","target":{"type":"next"}},
	  "properties":{"type":"contact","buttonLabel":"Send","fields":[{"id":"email","required":true},{"id":"phone"}]}}]}`))
	if err != nil {
		t.Fatal(err)
	}
	def.Normalize()
	sv := store.Survey{ID: e.ids.New(), TeamID: "a", Status: store.StatusInactive, Definition: def, CreatedAt: t0, UpdatedAt: t0}
	if err := e.store.CreateSurvey(t.Context(), sv); err != nil {
		t.Fatal(err)
	}
	c := console.NewConsole(e.store, "a", console.Config{Now: e.clock.Now}, []byte("a more types test's key"))
	ed := &editor{t: t, c: c, path: "/surveys/" + sv.ID + "/edit"}
	ed.load()
	if !strings.Contains(ed.last.Body.String(), "This type’s own settings are kept as they are") {
		t.Error("the editor does not say a matrix's own settings are kept")
	}
	e.clock.Advance(time.Second)
	if rec := ed.press("save"); rec.Code != http.StatusSeeOther {
		t.Fatalf("save: %d\n%s", rec.Code, ed.last.Body)
	}
	got, _ := e.store.Survey(t.Context(), "a", sv.ID)
	if diff := gocmp.Diff(sv.Definition, got.Definition); diff != "" {
		t.Fatalf("saved unchanged, the survey changed (-was +now):\n%s", diff)
	}
	for _, typ := range []string{survey.TypeMatrix, survey.TypeRanking, survey.TypeDate, survey.TypeConsent, survey.TypeCTA, survey.TypeContact} {
		ed.press("add")
		n := ed.form.Get("n")
		i, _ := strconv.Atoi(n)
		p := "q" + strconv.Itoa(i-1) + "."
		ed.form.Set(p+"title", "A new "+typ)
		ed.form.Set(p+"type", typ)
		e.clock.Advance(time.Second)
		if rec := ed.press("save"); rec.Code != http.StatusSeeOther {
			t.Fatalf("save a new %s: %d\n%s", typ, rec.Code, ed.last.Body)
		}
		got, _ := e.store.Survey(t.Context(), "a", sv.ID)
		if last := got.Questions[len(got.Questions)-1]; last.Type() != typ || last.Title != "A new "+typ {
			t.Errorf("a new %s question saved as %s %q", typ, last.Type(), last.Title)
		}
	}
}
