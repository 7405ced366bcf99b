package api_test

import (
	"encoding/csv"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/svc-feedback/svc/client"
)

// moreTypesSurvey is a survey of the question types beyond the first six, one of each, and the
// two fixed-scale rating displays, written as a person writes one (defaults left out).
const moreTypesSurvey = `{"title":"More to ask","status":"active","questions":[
 {"id":"grid","title":"Rate each","required":true,"properties":{"type":"matrix",
  "rows":[{"value":"speed","label":"Speed"},{"value":"price","label":"Price"}],"columns":[{"value":"bad"},{"value":"ok"},{"value":"good"}]}},
 {"id":"order","title":"Rank them","properties":{"type":"ranking","options":[{"value":"a"},{"value":"b"},{"value":"c"}],"min":2}},
 {"id":"when","title":"When did you start?","properties":{"type":"date","min":"2026-01-01","max":"2026-12-31"}},
 {"id":"agree","title":"Terms","properties":{"type":"consent","label":"I agree to the terms"}},
 {"id":"act","title":"Book a call","properties":{"type":"cta","buttonLabel":"Book","url":"https://example.com/book","dismissLabel":"Not now"}},
 {"id":"reach","title":"How do we reach you?","properties":{"type":"contact","fields":[{"id":"name"},{"id":"email","required":true},{"id":"phone"}]}},
 {"id":"effort","title":"How easy was it?","properties":{"type":"rating","scale":7,"display":"ces"}},
 {"id":"thumb","title":"Useful?","properties":{"type":"rating","scale":2,"display":"thumbs"}}]}`

func TestMoreTypesDefinitions(t *testing.T) {
	e := setup(t)
	id := e.createSurvey(moreTypesSurvey)
	rec := e.public("GET", "/v1/svc/"+id, "")
	wantStatus(t, rec, http.StatusOK, "")
	view := decode[struct {
		Questions []struct {
			ID         string
			Properties map[string]any
		}
	}](t, rec)
	if len(view.Questions) != 8 || view.Questions[0].Properties["type"] != "matrix" || view.Questions[5].Properties["buttonLabel"] != "Next" {
		t.Fatalf("public view: %s", rec.Body)
	}
	for _, tt := range []struct{ from, to, want string }{
		{`"rows":[{"value":"speed","label":"Speed"},{"value":"price","label":"Price"}]`, `"rows":[{"value":"speed"}]`,
			"questions[0].properties.rows: a matrix needs 2 to 20 rows; this one has 1"},
		{`{"value":"speed","label":"Speed"}`, `{"value":"speed","text":"Speed"}`,
			"questions[0].properties.rows[0].text: unknown member; questions[0].properties.rows[0] has value, label"},
		{`"min":2}`, `"min":5}`, "questions[1].properties.min: a ranking ranks at least 1 and at most all 3 options"},
		{`"max":"2026-12-31"`, `"max":"31/12/2026"`, `questions[2].properties.max must be a date written YYYY-MM-DD, not "31/12/2026"`},
		{`"label":"I agree to the terms"`, `"label":""`, "questions[3].properties.label is required"},
		{`"url":"https://example.com/book"`, `"url":"ftp://example.com"`, "questions[4].properties.url must be an http or https address"},
		{`{"id":"phone"}`, `{"id":"fax"}`, "questions[5].properties.fields[2].id must be one of name, email, phone, company, address"},
		{`"scale":2,"display":"thumbs"`, `"scale":5,"display":"thumbs"`, `questions[7].properties.scale must be 2 for the display "thumbs", not 5`},
	} {
		body := strings.Replace(moreTypesSurvey, tt.from, tt.to, 1)
		rec := e.manage("POST", "/v1/protected/surveys", body, e.skA)
		wantStatus(t, rec, http.StatusBadRequest, "invalid_request")
		if msg := errorMessage(t, rec); !strings.Contains(msg, tt.want) {
			t.Errorf("%s: refused with %q, want %q", tt.to, msg, tt.want)
		}
	}
}

func TestMoreTypesAnswersOverHTTP(t *testing.T) {
	e := setup(t)
	id := e.createSurvey(moreTypesSurvey)
	put := func(rid, data string) *testing.T {
		t.Helper()
		wantStatus(t, e.public("PUT", "/v1/svc/"+id+"/response/"+rid, `{"respondent":"ann","data":`+data+`,"metadata":{}}`), http.StatusOK, "")
		return t
	}
	for _, tt := range []struct{ data, want string }{
		{`{"grid":{"speed":"good"}}`, `invalid answer to question "grid": the question is required, so every row is answered; row "price" is not`},
		{`{"grid":{"speed":"good","price":"great"}}`, `row "price": the matrix has no column "great"`},
		{`{"grid":{"speed":"good","price":"ok","x":"ok"}}`, `invalid answer to question "grid": the answer holds at most 2 members`},
		{`{"grid":{"speed":1}}`, `invalid answer to question "grid": "speed" must be a string`},
		{`{"grid":"good"}`, `a matrix answer must be an object from row value to column value`},
		{`{"order":["a"]}`, `invalid answer to question "order": a ranking answer ranks at least 2 options; this one ranks 1`},
		{`{"order":["a","a"]}`, `"a" is ranked twice`},
		{`{"order":["a","b","c","d"]}`, `at most 3 choices are allowed`},
		{`{"when":"2026-02-29"}`, `invalid answer to question "when": "2026-02-29" is not a date written YYYY-MM-DD`},
		{`{"when":"2025-12-31"}`, `before the earliest date allowed, 2026-01-01`},
		{`{"agree":false}`, `invalid answer to question "agree": a consent answer is true`},
		{`{"act":"maybe"}`, `invalid answer to question "act": a call-to-action answer is "clicked" or "dismissed"`},
		{`{"reach":{"name":"Ann"}}`, `invalid answer to question "reach": field "email" is required`},
		{`{"reach":{"email":"ann"}}`, `email "ann" is not an e-mail address`},
		{`{"reach":{"email":"ann@example.com","company":"Acme"}}`, `the question asks for no field "company"`},
		{`{"reach":{"email":"ann@example.com","phone":"12"}}`, `is not a phone number`},
		{`{"effort":8}`, `a rating answer must be an integer from 1 to 7`},
		{`{"thumb":0}`, `a rating answer must be an integer from 1 to 2`},
		{`{"thumb":true}`, `a rating answer must be an integer from 1 to 2`},
	} {
		rec := e.public("PUT", "/v1/svc/"+id+"/response/rbad0000000000000000001", `{"respondent":"ann","data":`+tt.data+`,"metadata":{}}`)
		wantStatus(t, rec, http.StatusBadRequest, "invalid_request")
		if msg := errorMessage(t, rec); !strings.Contains(msg, tt.want) {
			t.Errorf("%s: refused with %q, want %q", tt.data, msg, tt.want)
		}
	}
	first := `{"grid":{"speed":"good","price":"ok"},"order":["c","a"],"when":"2026-03-14","agree":true,"act":"clicked",` +
		`"reach":{"name":"Ann","email":"ann@example.com","phone":"+44 20 7946 0958"},"effort":6,"thumb":2}`
	put("rmore000000000000000001", first)
	e.clock.Advance(time.Minute)
	put("rmore000000000000000002", `{"grid":{"speed":"bad","price":"ok"},"order":["a","b","c"],"when":"2026-03-01","act":"dismissed","thumb":1}`)
	e.clock.Advance(time.Minute)

	rec := e.protected("/v1/protected/surveys/" + id + "/responses")
	wantStatus(t, rec, http.StatusOK, "")
	page := decode[struct {
		Data []struct{ Data json.RawMessage }
	}](t, rec)
	if len(page.Data) != 2 || cmp.Diff(asAny(t, []byte(first)), asAny(t, page.Data[1].Data)) != "" {
		t.Fatalf("listed answers: %s", rec.Body)
	}

	// A filter on a matrix or contact question is refused, not matched against nothing.
	rec = e.protected("/v1/protected/surveys/" + id + "/responses?answer.grid=good")
	wantStatus(t, rec, http.StatusBadRequest, "invalid_request")
	if msg := errorMessage(t, rec); !strings.Contains(msg, "a matrix question's answers are not filtered") {
		t.Errorf("filter on a matrix: %q", msg)
	}

	checkMoreExports(t, e, id)
	checkMoreSummary(t, e, id)
}

func checkMoreExports(t *testing.T, e *env, id string) {
	t.Helper()
	rows := func(query string) [][]string {
		t.Helper()
		rec := e.protected("/v1/protected/surveys/" + id + "/responses/export" + query)
		wantStatus(t, rec, http.StatusOK, "")
		out, err := csv.NewReader(strings.NewReader(strings.TrimPrefix(rec.Body.String(), "\uFEFF"))).ReadAll()
		if err != nil {
			t.Fatalf("%v\n%s", err, rec.Body)
		}
		return out
	}
	ids := rows("")
	if got := strings.Join(ids[0][5:13], ","); got != "grid,order,when,agree,act,reach,effort,thumb" {
		t.Errorf("CSV header %q", got)
	}
	if got := ids[1][5:13]; cmp.Diff([]string{`{"price":"ok","speed":"good"}`, `["c","a"]`, "2026-03-14", "true", "clicked",
		`{"email":"ann@example.com","name":"Ann","phone":"+44 20 7946 0958"}`, "6", "2"}, got) != "" {
		t.Errorf("CSV row %q", got)
	}
	people := rows("?header=titles")
	head := strings.Join(people[0], "|")
	for _, col := range []string{"Rate each: Speed|Rate each: Price|Rank them|When did you start?|Terms|Book a call|How do we reach you?: name|How do we reach you?: email|How do we reach you?: phone|How easy was it?|Useful?"} {
		if !strings.Contains(head, col) {
			t.Fatalf("CSV for people header %q, want %q", head, col)
		}
	}
	at := strings.Index(head, "Rate each: Speed")
	cells := strings.Join(people[1], "|")
	// A phone number's leading + is a formula's start to a spreadsheet: it is written as text.
	if !strings.Contains(cells, "good|ok|c; a|2026-03-14|yes|clicked|Ann|ann@example.com|'+44 20 7946 0958|6|2") || at < 0 {
		t.Errorf("CSV for people row %q", cells)
	}
}

func checkMoreSummary(t *testing.T, e *env, id string) {
	t.Helper()
	rec := e.protected("/v1/protected/surveys/" + id + "/summary")
	wantStatus(t, rec, http.StatusOK, "")
	got := decode[struct {
		Data struct {
			Current struct{ Questions []map[string]any }
		}
	}](t, rec).Data.Current.Questions
	col := func(v string, n float64) map[string]any { return map[string]any{"value": v, "count": n} }
	want := map[string]map[string]any{
		"grid": {"matrix": []any{
			map[string]any{"value": "speed", "columns": []any{col("bad", 1), col("ok", 0), col("good", 1)}},
			map[string]any{"value": "price", "columns": []any{col("bad", 0), col("ok", 2), col("good", 0)}}}},
		"order": {"ranking": []any{
			map[string]any{"value": "a", "count": 2.0, "averageRank": 1.5},
			map[string]any{"value": "b", "count": 1.0, "averageRank": 2.0},
			map[string]any{"value": "c", "count": 2.0, "averageRank": 2.0}}},
		"when":  {"months": []any{map[string]any{"month": "2026-03", "count": 2.0}}},
		"agree": {"rate": 50.0},
		"act":   {"rate": 50.0, "clicked": 1.0, "dismissed": 1.0},
	}
	for _, q := range got {
		w, ok := want[q["questionId"].(string)]
		for k, v := range w {
			if diff := cmp.Diff(v, q[k]); diff != "" {
				t.Errorf("%s.%s (-want +got):\n%s", q["questionId"], k, diff)
			}
		}
		if ok {
			delete(want, q["questionId"].(string))
		}
	}
	if len(want) > 0 {
		t.Errorf("no summary of %v: %s", want, rec.Body)
	}
}

// TestMoreTypesLinkPage: a survey of the new types has its link page, which the widget renders;
// a link may answer a date, a ranking or a call to action, and names the types it cannot answer.
func TestMoreTypesLinkPage(t *testing.T) {
	e := setup(t)
	id := e.createSurvey(moreTypesSurvey)
	secret := e.linkSecret()
	link := pathOf(t, client.SignLink(secret, "https://app.example.com", id, "ann@example.com", t0.Add(time.Hour)))
	res := e.page(link)
	if html := body(t, res); res.StatusCode != http.StatusOK || !strings.Contains(html, `data-survey="`+id+`"`) {
		t.Fatalf("link page: %d\n%s", res.StatusCode, html)
	}
	res = e.page(link + "&a.when=2026-05-01&a.order=c&a.order=b")
	if res.StatusCode != http.StatusOK {
		t.Fatalf("a link answering a date and a ranking: %d\n%s", res.StatusCode, body(t, res))
	}
	rec := e.protected("/v1/protected/surveys/" + id + "/responses")
	page := decode[struct {
		Data []struct{ Data map[string]any }
	}](t, rec)
	if len(page.Data) != 1 || cmp.Diff(map[string]any{"when": "2026-05-01", "order": []any{"c", "b"}}, page.Data[0].Data) != "" {
		t.Errorf("answers from the link: %s", rec.Body)
	}
	for q, want := range map[string]string{"a.when=2026-13-01": "not a date", "a.grid=x": "A matrix question is not answered from a link", "a.act=maybe": `&#34;clicked&#34; or &#34;dismissed&#34;`} {
		res := e.page(link + "&" + q)
		if html := body(t, res); res.StatusCode != http.StatusBadRequest || !strings.Contains(html, want) {
			t.Errorf("%s: %d, want 400 saying %q\n%.2000s", q, res.StatusCode, want, html)
		}
	}
}
