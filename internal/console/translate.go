package console

import (
	"errors"
	"fmt"
	"maps"
	"net/http"
	"strings"

	"github.com/svc-feedback/svc/internal/problem"
	"github.com/svc-feedback/svc/store"
	"github.com/svc-feedback/svc/survey"
)

// Translations in the console (docs/languages-and-links.md): the survey's languages, one added by its
// tag, and each one's texts in a form beside the survey's own, one field per text; a field
// left empty shows the survey's own text. Option values are never translated, only shown.

// textSlot is one translatable text: its form field, its label, the survey's own text, and
// where it lives in a translation.
type textSlot struct {
	Name, Label, Original, Value string
	Long                         bool
	get                          func(*survey.Translation) *string
	set                          func(*survey.Translation, *string)
}

// textGroup is the texts of one part of the survey: itself, a question, the end.
type textGroup struct {
	Legend string
	Slots  []textSlot
}

type translationsView struct {
	Survey    store.Survey
	Default   string
	Languages []string
	Token     string
	Error     string
}

type translateView struct {
	Survey         store.Survey
	Lang, Default  string
	Groups         []textGroup
	Version, Token string
	Notice, Error  string
	RightToLeft    bool
}

func (rs *Results) translationsPage(w http.ResponseWriter, r *http.Request) {
	sv, err := rs.surveyOf(r)
	if err != nil {
		rs.fail(w, r, err)
		return
	}
	v := translationsView{Survey: sv, Default: "en", Token: rs.token}
	if l := sv.Languages; l != nil {
		v.Default, v.Languages = l.Default, l.Tags()[1:]
	}
	rs.renderStatus(w, r, http.StatusOK, "translations.html", v)
}

// addLanguage adds an empty translation (and the survey's own language, the first time), and
// goes to its form.
func (rs *Results) addLanguage(r *http.Request) (string, error) {
	f := r.PostForm
	tag, err := survey.CanonicalLanguage(strings.TrimSpace(f.Get("lang")))
	if err != nil {
		return "", problem.BadRequest(err.Error())
	}
	err = rs.modify(r, func(sv *store.Survey) error {
		l := &survey.Languages{Translations: map[string]survey.Translation{}}
		if sv.Languages != nil {
			c := *sv.Languages
			if c.Translations = maps.Clone(c.Translations); c.Translations == nil {
				c.Translations = map[string]survey.Translation{}
			}
			l = &c
		} else if l.Default, err = survey.CanonicalLanguage(strings.TrimSpace(f.Get("default"))); err != nil {
			return problem.BadRequest("the survey's own language: " + err.Error())
		}
		if _, ok := l.Translations[tag]; !ok && tag != l.Default {
			l.Translations[tag] = survey.Translation{}
		}
		sv.Languages = l
		return nil
	})
	return "translations/" + tag, err // from …/surveys/{id}/translations, the language's form
}

func (rs *Results) translatePage(w http.ResponseWriter, r *http.Request) {
	sv, err := rs.surveyOf(r)
	if err != nil {
		rs.fail(w, r, err)
		return
	}
	lang := r.PathValue("lang")
	tr, ok := translationOf(sv, lang)
	if !ok {
		rs.fail(w, r, problem.NotFound("the survey has no translation into "+lang))
		return
	}
	v := rs.newTranslateView(sv, lang, &tr)
	if r.URL.Query().Get("saved") == "1" {
		v.Notice = "Saved."
	}
	rs.renderStatus(w, r, http.StatusOK, "translate.html", v)
}

func translationOf(sv store.Survey, lang string) (survey.Translation, bool) {
	if sv.Languages == nil {
		return survey.Translation{}, false
	}
	tr, ok := sv.Languages.Translations[lang]
	return tr, ok
}

func (rs *Results) newTranslateView(sv store.Survey, lang string, tr *survey.Translation) translateView {
	groups := textGroups(&sv.Definition)
	for _, g := range groups {
		for i := range g.Slots {
			if p := g.Slots[i].get(tr); p != nil {
				g.Slots[i].Value = *p
			}
		}
	}
	return translateView{Survey: sv, Lang: lang, Default: sv.Languages.Default, Groups: groups, Token: rs.token,
		Version: versionOf(sv), RightToLeft: survey.RightToLeft(lang)}
}

// translate saves a language's form, or removes the language.
func (rs *Results) translate(w http.ResponseWriter, r *http.Request) {
	lang, f := r.PathValue("lang"), r.PostForm
	remove := f.Get("action") == "remove"
	id, err := surveyIDOf(r)
	if err != nil {
		rs.fail(w, r, err)
		return
	}
	_, err = store.ModifySurvey(r.Context(), rs.store, rs.teamID, id, func(sv *store.Survey) error {
		if _, ok := translationOf(*sv, lang); !ok || sv.Status == store.StatusDeleted {
			return problem.NotFound("the survey has no translation into " + lang)
		}
		if !remove && versionOf(*sv) != f.Get("version") {
			return errStale
		}
		l := *sv.Languages
		l.Translations = maps.Clone(l.Translations)
		if remove {
			delete(l.Translations, lang)
		} else {
			l.Translations[lang] = formTranslation(&sv.Definition, f.Get)
		}
		sv.Languages, sv.UpdatedAt = &l, rs.now().UTC()
		return nil
	})
	switch {
	case errors.Is(err, errStale):
		rs.staleTranslation(w, r, lang)
		return
	case errors.Is(err, store.ErrNotFound):
		err = problem.NotFound("survey not found")
	}
	if err != nil {
		rs.fail(w, r, err)
		return
	}
	next := lang + "?saved=1"
	if remove {
		next = "../translations"
	}
	w.Header().Set("Location", next)
	w.WriteHeader(http.StatusSeeOther)
}

// formTranslation is the translation a language's form gives: its fields not left empty.
func formTranslation(d *survey.Definition, field func(string) string) survey.Translation {
	var tr survey.Translation
	for _, g := range textGroups(d) {
		for _, s := range g.Slots {
			if v := strings.TrimSpace(field(s.Name)); v != "" {
				s.set(&tr, &v)
			}
		}
	}
	return tr
}

// staleTranslation shows the form again, with what the person wrote, over a survey someone
// changed since the form was opened.
func (rs *Results) staleTranslation(w http.ResponseWriter, r *http.Request, lang string) {
	sv, err := rs.surveyOf(r)
	if err != nil {
		rs.fail(w, r, err)
		return
	}
	tr := formTranslation(&sv.Definition, r.PostForm.Get)
	v := rs.newTranslateView(sv, lang, &tr)
	v.Error = "Someone changed this survey since you opened this page: check the texts below against it, and save again."
	rs.renderStatus(w, r, http.StatusConflict, "translate.html", v)
}

// textGroups lists the survey's translatable texts, in the order a person meets them.
func textGroups(d *survey.Definition) []textGroup {
	top := textGroup{Legend: "The survey", Slots: []textSlot{
		slot("title", "Survey title", d.Title, false, func(t *survey.Translation) **string { return &t.Title }),
		slot("description", "Description", deref(d.Description), true, func(t *survey.Translation) **string { return &t.Description }),
	}}
	groups := []textGroup{top}
	for n, q := range d.Questions {
		groups = append(groups, questionTexts(n+1, &q))
	}
	end := textGroup{Legend: "After the last question", Slots: []textSlot{
		slot("confirm.title", "Confirmation title", d.Confirmation.Title, false, confirmation(func(c *survey.ConfirmationTranslation) **string { return &c.Title })),
		slot("confirm.text", "Confirmation text", d.Confirmation.Description, true, confirmation(func(c *survey.ConfirmationTranslation) **string { return &c.Description })),
		slot("confirm.button", "Confirmation button", d.Confirmation.ButtonText, false, confirmation(func(c *survey.ConfirmationTranslation) **string { return &c.ButtonText })),
		slot("back", "Back button label", d.BackButtonLabel, false, func(t *survey.Translation) **string { return &t.BackButtonLabel }),
	}}
	return append(groups, end)
}

// questionTexts are question n's texts: those its type has.
func questionTexts(n int, q *survey.Question) textGroup {
	g := textGroup{Legend: fmt.Sprintf("Question %d: %s", n, q.Title)}
	add := func(name, label, original string, long bool, field func(*survey.QuestionTranslation) **string) {
		g.Slots = append(g.Slots, questionSlot(q.ID, name, label, original, long, field))
	}
	add("title", "Question title", q.Title, false, func(t *survey.QuestionTranslation) **string { return &t.Title })
	add("description", "Question description", deref(q.Description), true, func(t *survey.QuestionTranslation) **string { return &t.Description })
	editable := func(t *survey.QuestionTranslation) **string { return &t.EditableLabel }
	placeholder := func(t *survey.QuestionTranslation) **string { return &t.Placeholder }
	var options []survey.Option
	switch p := q.Properties.(type) {
	case survey.RatingProperties:
		l := survey.RatingLabels{}
		if p.Labels != nil {
			l = *p.Labels
		}
		add("lower", "Label of the lowest score", deref(l.Lower), false, func(t *survey.QuestionTranslation) **string { return &labels(t).Lower })
		add("upper", "Label of the highest score", deref(l.Upper), false, func(t *survey.QuestionTranslation) **string { return &labels(t).Upper })
	case survey.SingleSelectProperties:
		options = p.Options
		if p.Editable != nil {
			add("editable", "Label of the person's own answer", p.Editable.Label, false, editable)
		}
	case survey.MultiSelectProperties:
		options = p.Options
		if p.Editable != nil {
			add("editable", "Label of the person's own answer", p.Editable.Label, false, editable)
		}
	case survey.OpenEndedProperties:
		add("placeholder", "Placeholder", deref(p.Placeholder), false, placeholder)
	case survey.BugReportProperties:
		add("placeholder", "Placeholder", deref(p.Placeholder), false, placeholder)
		add("details", "Details label", p.DetailsLabel, false, func(t *survey.QuestionTranslation) **string { return &t.DetailsLabel })
	}
	for i, o := range options {
		g.Slots = append(g.Slots, optionSlot(q.ID, i, o.Value))
	}
	add("button", "Button label", buttonOf(q), false, func(t *survey.QuestionTranslation) **string { return &t.ButtonLabel })
	return g
}

// slot is a text kept at the *string field gives in a translation.
func slot(name, label, original string, long bool, field func(*survey.Translation) **string) textSlot {
	return textSlot{Name: name, Label: label, Original: original, Long: long,
		get: func(t *survey.Translation) *string { c := *t; return *field(&c) },
		set: func(t *survey.Translation, v *string) { *field(t) = v }}
}

func confirmation(field func(*survey.ConfirmationTranslation) **string) func(*survey.Translation) **string {
	return func(t *survey.Translation) **string {
		c := survey.ConfirmationTranslation{}
		if t.Confirmation != nil {
			c = *t.Confirmation
		}
		t.Confirmation = &c
		return field(t.Confirmation)
	}
}

// questionSlot is a question's text, kept at the *string field gives in its translation: a
// map's value, so read from a copy and put back.
func questionSlot(id, name, label, original string, long bool, field func(*survey.QuestionTranslation) **string) textSlot {
	return textSlot{Name: "q." + id + "." + name, Label: label, Original: original, Long: long,
		get: func(t *survey.Translation) *string {
			qt := t.Questions[id]
			return *field(&qt)
		},
		set: func(t *survey.Translation, v *string) {
			inTranslation(t, id, func(qt *survey.QuestionTranslation) { *field(qt) = v })
		}}
}

// inTranslation changes question id's texts in t with fn: a map's value, so changed on a copy
// and put back.
func inTranslation(t *survey.Translation, id string, fn func(*survey.QuestionTranslation)) {
	if t.Questions == nil {
		t.Questions = map[string]survey.QuestionTranslation{}
	}
	qt := t.Questions[id]
	fn(&qt)
	t.Questions[id] = qt
}

// optionSlot is the label of a question's option, by its value.
func optionSlot(id string, i int, value string) textSlot {
	return textSlot{Name: fmt.Sprintf("q.%s.option.%d", id, i), Label: "Option “" + value + "”", Original: value,
		get: func(t *survey.Translation) *string {
			if l, ok := t.Questions[id].Options[value]; ok {
				return &l
			}
			return nil
		},
		set: func(t *survey.Translation, v *string) {
			inTranslation(t, id, func(qt *survey.QuestionTranslation) {
				if qt.Options == nil {
					qt.Options = map[string]string{}
				}
				qt.Options[value] = *v
			})
		}}
}

// labels is a rating's labels in a question's translation, made when it has none.
func labels(t *survey.QuestionTranslation) *survey.RatingLabels {
	l := survey.RatingLabels{}
	if t.Labels != nil {
		l = *t.Labels
	}
	t.Labels = &l
	return t.Labels
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// buttonOf is a question's button label.
func buttonOf(q *survey.Question) string {
	switch p := q.Properties.(type) {
	case survey.RatingProperties:
		return p.ButtonLabel
	case survey.SingleSelectProperties:
		return p.ButtonLabel
	case survey.MultiSelectProperties:
		return p.ButtonLabel
	case survey.OpenEndedProperties:
		return p.ButtonLabel
	case survey.StatementProperties:
		return p.ButtonLabel
	case survey.BugReportProperties:
		return p.ButtonLabel
	}
	return ""
}
