package api_test

import (
	"encoding/csv"
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// translatedSurvey is a survey in English with German and Arabic texts.
const translatedSurvey = `{"title":"Your opinion","status":"active","questions":[
	{"id":"feature","title":"Which feature do you use most?","properties":{"type":"single-select","options":[{"value":"Reports"},{"value":"Alerts"}]}},
	{"id":"nps","title":"Would you recommend us?","properties":{"type":"rating","scale":10,"display":"nps","labels":{"lower":"Not likely","upper":"Very likely"}}}],
	"languages":{"default":"en","translations":{
		"de":{"title":"Ihre Meinung","backButtonLabel":"Zurück","confirmation":{"title":"Danke!"},
			"questions":{"feature":{"title":"Welche Funktion nutzen Sie am meisten?","options":{"Reports":"Berichte"}},
				"nps":{"labels":{"lower":"Unwahrscheinlich"}}}},
		"ar":{"title":"رأيك","questions":{"feature":{"options":{"Reports":"التقارير","Alerts":"التنبيهات"}}}}}}}`

// createSurvey creates a survey of team A through the management API and returns its id.
func (e *env) createSurvey(body string) string {
	e.t.Helper()
	rec := e.manage("POST", "/v1/protected/surveys", body, e.skA)
	wantStatus(e.t, rec, http.StatusCreated, "")
	return decode[struct{ ID string }](e.t, rec).ID
}

type publicView struct {
	Title     string
	Language  *string
	Questions []struct {
		ID         string
		Title      string
		Properties struct {
			Options []struct{ Value, Label string }
			Labels  struct{ Lower, Upper string }
		}
	}
	Confirmation struct{ Title, ButtonText string }
}

func TestSurveyLanguageFallback(t *testing.T) {
	e := setup(t)
	id := e.createSurvey(translatedSurvey)
	get := func(query, acceptLanguage string) (*http.Response, publicView) {
		t.Helper()
		rec := e.do(req{method: "GET", path: "/v1/svc/" + id + query, headers: map[string]string{"x-svc-pk": e.pkA, "Accept-Language": acceptLanguage}})
		wantStatus(t, rec, http.StatusOK, "")
		return rec.Result(), decode[publicView](t, rec)
	}
	for _, c := range []struct{ query, accept, want string }{
		{"?lang=de", "", "de"},
		{"?lang=de-AT", "", "de"},    // a region falls back to its language
		{"?lang=fr", "", "en"},       // a language the survey lacks falls back to the default
		{"?lang=fr", "ar, de", "ar"}, // ... or to the browser's, when it has one of them
		{"", "fr-CH, de;q=0.8, ar;q=0.9", "ar"},
		{"", "fr, *;q=0.5", "en"},
		{"", "", "en"},
		{"?lang=EN", "de", "en"},
	} {
		res, v := get(c.query, c.accept)
		if v.Language == nil || *v.Language != c.want {
			t.Errorf("%s with Accept-Language %q: language %v, want %q", c.query, c.accept, v.Language, c.want)
		}
		if !strings.Contains(res.Header.Get("Vary"), "Accept-Language") {
			t.Errorf("Vary = %q: a translated survey's view depends on Accept-Language", res.Header.Get("Vary"))
		}
	}
	_, de := get("?lang=de-CH", "")
	if de.Title != "Ihre Meinung" || de.Questions[0].Title != "Welche Funktion nutzen Sie am meisten?" || de.Confirmation.Title != "Danke!" {
		t.Errorf("German texts: %+v", de)
	}
	// Texts the translation leaves out are the default's; option values never change.
	if de.Questions[1].Title != "Would you recommend us?" || de.Confirmation.ButtonText == "" || de.Questions[1].Properties.Labels.Upper != "Very likely" {
		t.Errorf("German fallbacks: %+v", de)
	}
	want := []struct{ Value, Label string }{{"Reports", "Berichte"}, {"Alerts", ""}}
	if diff := cmp.Diff(want, de.Questions[0].Properties.Options); diff != "" {
		t.Errorf("German options (-want +got):\n%s", diff)
	}
	resDe, _ := get("?lang=de", "")
	resAr, ar := get("?lang=ar", "")
	if ar.Title != "رأيك" || resDe.Header.Get("ETag") == resAr.Header.Get("ETag") {
		t.Errorf("Arabic title %q; ETags %s and %s must differ", ar.Title, resDe.Header.Get("ETag"), resAr.Header.Get("ETag"))
	}
	// The translations and the team's rules are not in the public view.
	rec := e.public("GET", "/v1/svc/"+id+"?lang=de", "")
	if body := rec.Body.String(); strings.Contains(body, "translations") || strings.Contains(body, "التقارير") {
		t.Errorf("the public view holds other languages: %s", body)
	}

	wantStatus(t, e.public("GET", "/v1/svc/"+id+"?lang=de_DE", ""), http.StatusBadRequest, "invalid_request")
	wantStatus(t, e.public("GET", "/v1/svc/"+id+"?lang=de&lang=fr", ""), http.StatusBadRequest, "invalid_request")
	// A survey without translations names no language.
	if v := decode[publicView](t, e.public("GET", "/v1/svc/"+e.survA.ID+"?lang=de", "")); v.Language != nil {
		t.Errorf("a survey without languages says language %q", *v.Language)
	}
}

func TestSurveyLanguagesRefused(t *testing.T) {
	e := setup(t)
	for _, c := range []struct{ languages, want string }{
		{`{"default":"en","translations":{"klingon":{}}}`, `"klingon" is not a language svc knows`},
		{`{"default":"en","translations":{"de":{"questions":{"q1":{"title":"Wie?"}}}}}`, ""},
		{`{"default":"en","translations":{"de":{"questions":{"nope":{"title":"Wie?"}}}}}`, `the survey has no question "nope"`},
		{`{"translations":{}}`, "languages.default is required"},
		{`{"default":"en","translations":{"de":{"Title":"x"}}}`, `"Title" should be "title"`},
	} {
		body := strings.Replace(newSurveyBody, `"title":"Onboarding",`, `"title":"Onboarding","languages":`+c.languages+`,`, 1)
		rec := e.manage("POST", "/v1/protected/surveys", body, e.skA)
		if c.want == "" {
			wantStatus(t, rec, http.StatusCreated, "")
			continue
		}
		wantStatus(t, rec, http.StatusBadRequest, "invalid_request")
		if msg := errorMessage(t, rec); !strings.Contains(msg, c.want) {
			t.Errorf("languages %s: message %q, want it to say %q", c.languages, msg, c.want)
		}
	}
	// An option translated by a value the question does not have is refused on a change too.
	id := e.createSurvey(translatedSurvey)
	rec := e.manage("PATCH", "/v1/protected/surveys/"+id, `{"languages":{"default":"en","translations":{"de":{"questions":{"feature":{"options":{"Berichte":"Berichte"}}}}}}}`, e.skA)
	wantStatus(t, rec, http.StatusBadRequest, "invalid_request")
	if msg := errorMessage(t, rec); !strings.Contains(msg, `has no option "Berichte"`) {
		t.Errorf("message %q", msg)
	}
}

// TestResponseLanguage: a PUT's language is kept and shown; counts by option value sum every
// language; lists, exports and summaries filter by language.
func TestResponseLanguage(t *testing.T) {
	e := setup(t)
	id := e.createSurvey(translatedSurvey)
	for i, lang := range []string{"de", "de-AT", "ar", "", "en"} {
		body := `{"respondent":"p` + string(rune('a'+i)) + `","data":{"feature":"Reports","nps":9},"metadata":{}`
		if lang != "" {
			body += `,"language":"` + lang + `"`
		}
		e.clock.Advance(1e9)
		wantStatus(t, e.public("PUT", "/v1/svc/"+id+"/response/r"+string(rune('a'+i))+"lang00000000001", body+"}"), http.StatusOK, "")
	}
	e.clock.Advance(1e9)
	rec := e.public("PUT", "/v1/svc/"+id+"/response/rzlang00000000001", `{"respondent":"pz","data":{},"metadata":{},"language":"xx-YY"}`)
	wantStatus(t, rec, http.StatusBadRequest, "invalid_request")

	list := func(query string) []string {
		t.Helper()
		rec := e.protected("/v1/protected/surveys/" + id + "/responses?limit=50" + query)
		wantStatus(t, rec, http.StatusOK, "")
		var langs []string
		for _, r := range decode[struct{ Data []struct{ Language *string } }](t, rec).Data {
			if r.Language == nil {
				langs = append(langs, "null")
			} else {
				langs = append(langs, *r.Language)
			}
		}
		return langs
	}
	if diff := cmp.Diff([]string{"en", "null", "ar", "de-AT", "de"}, list("")); diff != "" {
		t.Errorf("languages listed (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"de-AT", "de"}, list("&language=de")); diff != "" {
		t.Errorf("language=de (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"ar", "de-AT"}, list("&language=ar&language=de-AT")); diff != "" {
		t.Errorf("language=ar&language=de-AT (-want +got):\n%s", diff)
	}
	wantStatus(t, e.protected("/v1/protected/surveys/"+id+"/responses?language=nope"), http.StatusBadRequest, "invalid_request")

	// Every language's "Reports" is one option's count.
	rec = e.protected("/v1/protected/surveys/" + id + "/summary")
	wantStatus(t, rec, http.StatusOK, "")
	sum := decode[struct {
		Data struct {
			Current struct {
				Questions []struct {
					QuestionID string
					Options    []struct {
						Value string
						Count int
					}
				}
			}
		}
	}](t, rec)
	if opts := sum.Data.Current.Questions[0].Options; len(opts) != 2 || opts[0].Value != "Reports" || opts[0].Count != 5 {
		t.Errorf("summary options %+v: Reports counted once per response, whatever its language", opts)
	}
	rec = e.protected("/v1/protected/surveys/" + id + "/summary?language=de")
	if opts := decode[struct {
		Data struct {
			Current struct {
				Questions []struct{ Options []struct{ Count int } }
			}
		}
	}](t, rec).Data.Current.Questions[0].Options; len(opts) == 0 || opts[0].Count != 2 {
		t.Errorf("German summary options %+v, want Reports 2", opts)
	}

	// The CSV of a translated survey ends with the language.
	rec = e.protected("/v1/protected/surveys/" + id + "/responses/export?language=ar")
	rows, err := csv.NewReader(rec.Body).ReadAll()
	if err != nil || len(rows) != 2 {
		t.Fatalf("CSV rows %q, %v", rows, err)
	}
	head, row := rows[0], rows[1]
	if head[len(head)-1] != "language" || row[len(row)-1] != "ar" {
		t.Errorf("CSV header %q, row %q: language last", head, row)
	}
	rec = e.protected("/v1/protected/surveys/" + id + "/responses/export?format=csv&header=titles")
	if rows, _ := csv.NewReader(rec.Body).ReadAll(); len(rows) < 2 || !strings.Contains(strings.Join(rows[0], ","), "Language") {
		t.Errorf("CSV for people lacks a Language column: %q", rows)
	}
	// A survey without translations keeps the header it had before languages: no language column.
	rec = e.protected("/v1/protected/surveys/" + e.survA.ID + "/responses/export")
	if h, _ := csv.NewReader(rec.Body).Read(); len(h) == 0 || h[len(h)-1] != "metadata" {
		t.Errorf("untranslated CSV header %q", h)
	}
}
