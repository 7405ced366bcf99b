package survey_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/svc-feedback/svc/survey"
)

// withLanguages returns the sample survey carrying the languages given as JSON.
func withLanguages(t *testing.T, languages string) survey.Definition {
	t.Helper()
	d := survey.Sample()
	d.Languages = new(survey.Languages)
	if err := json.Unmarshal([]byte(languages), d.Languages); err != nil {
		t.Fatal(err)
	}
	return d
}

const german = `{"default":"en","translations":{"de":{
	"title":"Wie war es?","backButtonLabel":"Zurück",
	"confirmation":{"title":"Danke!"},
	"questions":{
		"nps":{"title":"Würden Sie uns empfehlen?","labels":{"lower":"Kaum"},"buttonLabel":"Weiter"},
		"favourite":{"options":{"Reports":"Berichte"},"editableLabel":"Etwas anderes"},
		"comments":{"placeholder":"Ihre Worte"},
		"bug":{"detailsLabel":"Was geschah?"}}}}}`

func TestLocalizeFallsBackTextByText(t *testing.T) {
	d := withLanguages(t, german)
	if err := d.Validate(); err != nil {
		t.Fatal(err)
	}
	de := d.Localize("de")
	if de.Title != "Wie war es?" || de.BackButtonLabel != "Zurück" || de.Languages != nil {
		t.Errorf("title %q, back %q, languages %v", de.Title, de.BackButtonLabel, de.Languages)
	}
	if de.Confirmation.Title != "Danke!" || de.Confirmation.ButtonText != d.Confirmation.ButtonText {
		t.Errorf("confirmation = %+v: the title translated, the button left as it was", de.Confirmation)
	}
	nps := mustQuestion(t, de, "nps").Properties.(survey.RatingProperties)
	orig := mustQuestion(t, d, "nps").Properties.(survey.RatingProperties)
	if *nps.Labels.Lower != "Kaum" || nps.Labels.Upper != orig.Labels.Upper || nps.ButtonLabel != "Weiter" {
		t.Errorf("nps = %+v", nps)
	}
	fav := mustQuestion(t, de, "favourite").Properties.(survey.SingleSelectProperties)
	if fav.Options[0].Value != "Reports" || *fav.Options[0].Label != "Berichte" || fav.Options[1].Label != nil {
		t.Errorf("options = %+v: the value kept, the label translated", fav.Options)
	}
	if fav.Editable.Label != "Etwas anderes" {
		t.Errorf("editable label %q", fav.Editable.Label)
	}
	// The original is untouched: it may be shared with a cache.
	if mustQuestion(t, d, "favourite").Properties.(survey.SingleSelectProperties).Options[0].Label != nil || d.Title == de.Title {
		t.Error("Localize changed the definition it was called on")
	}
	if diff := cmp.Diff(d.Localize("en").Questions, d.Questions); diff != "" {
		t.Errorf("the default language's view differs from the survey's own:\n%s", diff)
	}
}

func TestResolveLanguage(t *testing.T) {
	d := withLanguages(t, `{"default":"en","translations":{"de":{},"pt-BR":{},"zh-Hant":{}}}`)
	for _, c := range []struct {
		asked []string
		want  string
		ok    bool
	}{
		{[]string{"de-AT"}, "de", true},
		{[]string{"de"}, "de", true},
		{[]string{"pt"}, "en", false}, // pt-BR is not a fallback of pt
		{[]string{"pt-BR"}, "pt-BR", true},
		{[]string{"zh-Hant-TW"}, "zh-Hant", true},
		{[]string{"fr", "de-CH"}, "de", true},
		{[]string{"en-GB", "de"}, "en", true},
		{nil, "en", false},
	} {
		got, ok := d.Languages.Resolve(c.asked...)
		if got != c.want || ok != c.ok {
			t.Errorf("Resolve(%q) = %q, %v; want %q, %v", c.asked, got, ok, c.want, c.ok)
		}
	}
}

func TestCanonicalLanguage(t *testing.T) {
	for in, want := range map[string]string{"de": "de", "PT-br": "pt-BR", "zh-hant-tw": "zh-Hant-TW", "es-419": "es-419", "fil": "fil"} {
		if got, err := survey.CanonicalLanguage(in); got != want || err != nil {
			t.Errorf("CanonicalLanguage(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "xx", "english", "de-", "de-AT-x", "de-A1", "de_AT", "d\u00e9", "zh-Hant-TW-extra"} {
		if got, err := survey.CanonicalLanguage(bad); err == nil {
			t.Errorf("CanonicalLanguage(%q) = %q, want an error", bad, got)
		}
	}
	if !survey.RightToLeft("ar") || !survey.RightToLeft("he-IL") || survey.RightToLeft("de") {
		t.Error("RightToLeft: ar and he are right to left, de is not")
	}
}

func TestValidateLanguagesRefuses(t *testing.T) {
	for _, c := range []struct{ languages, want string }{
		{`{"translations":{}}`, "languages.default is required"},
		{`{"default":"english"}`, `"english" is not a language svc knows`},
		{`{"default":"en","translations":{"xx":{}}}`, `languages.translations.xx: "xx" is not a language svc knows`},
		{`{"default":"en","translations":{"pt-br":{}}}`, `write the language tag "pt-br" as "pt-BR"`},
		{`{"default":"en","translations":{"en":{}}}`, "en is the default language"},
		{`{"default":"en","translations":{"de":{"questions":{"nope":{}}}}}`, `the survey has no question "nope"`},
		{`{"default":"en","translations":{"de":{"questions":{"favourite":{"options":{"Berichte":"Berichte"}}}}}}`, `question "favourite" has no option "Berichte"`},
		{`{"default":"en","translations":{"de":{"questions":{"comments":{"options":{"a":"b"}}}}}}`, "only a select or ranking question has options"},
		{`{"default":"en","translations":{"de":{"questions":{"favourite":{"labels":{"lower":"x"}}}}}}`, "only a rating question has labels"},
		{`{"default":"en","translations":{"de":{"questions":{"nps":{"placeholder":"x"}}}}}`, "only an open-ended or bug-report question has a placeholder"},
		{`{"default":"en","translations":{"de":{"questions":{"missing":{"editableLabel":"x"}}}}}`, "takes no text of the person's own"},
		{`{"default":"en","translations":{"de":{"questions":{"comments":{"detailsLabel":"x"}}}}}`, "only a bug-report question has detailsLabel"},
	} {
		d := withLanguages(t, c.languages)
		err := d.Validate()
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("languages %s: error %v, want one saying %q", c.languages, err, c.want)
		}
	}
}

// TestCheckMembersTakesDataNames checks that option values and question ids used as a
// translation's keys are not mistaken for svc's member names in other letter case.
func TestCheckMembersTakesDataNames(t *testing.T) {
	ok := `{"title":"t","languages":{"default":"en","translations":{"de":{"questions":{"Title":{"options":{"Type":"Art","Value":"Wert"}}}}}}}`
	if err := survey.CheckMembers([]byte(ok)); err != nil {
		t.Errorf("data names refused: %v", err)
	}
	bad := `{"title":"t","languages":{"default":"en","translations":{"de":{"Title":"x"}}}}`
	if err := survey.CheckMembers([]byte(bad)); err == nil || !strings.Contains(err.Error(), `"Title" should be "title"`) {
		t.Errorf("a translation's own member in other case: %v", err)
	}
}
