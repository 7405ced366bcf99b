package survey

import "slices"

// Languages are a survey's translations (docs/languages-and-links.md): the language its own texts
// are written in, and the same texts in other languages. Option values are never translated,
// since they are what a response stores: counts never split by language.
type Languages struct {
	// Default is the language of the survey's own texts, and of every text a translation leaves
	// out.
	Default string `json:"default"`
	// Translations holds each other language's texts by language tag.
	Translations map[string]Translation `json:"translations"`
}

// Translation is a survey's texts in one language. Every member is optional: what is left out is
// shown in the default language.
type Translation struct {
	Title           *string                        `json:"title,omitempty"`
	Description     *string                        `json:"description,omitempty"`
	Questions       map[string]QuestionTranslation `json:"questions,omitempty"`
	Confirmation    *ConfirmationTranslation       `json:"confirmation,omitempty"`
	BackButtonLabel *string                        `json:"backButtonLabel,omitempty"`
}

// QuestionTranslation is a question's texts in one language. Options maps an option's value (a
// select's or a ranking's) to the label shown for it.
type QuestionTranslation struct {
	Title              *string           `json:"title,omitempty"`
	Description        *string           `json:"description,omitempty"`
	ButtonLabel        *string           `json:"buttonLabel,omitempty"`
	Labels             *RatingLabels     `json:"labels,omitempty"`
	Options            map[string]string `json:"options,omitempty"`
	Placeholder        *string           `json:"placeholder,omitempty"`
	EditableLabel      *string           `json:"editableLabel,omitempty"`
	DetailsLabel       *string           `json:"detailsLabel,omitempty"`
	DetailsPlaceholder *string           `json:"detailsPlaceholder,omitempty"`
	// Rows and Columns map a matrix's row and column values to the labels shown for them.
	Rows    map[string]string `json:"rows,omitempty"`
	Columns map[string]string `json:"columns,omitempty"`
	// Label is a consent question's label: what the person agrees to.
	Label *string `json:"label,omitempty"`
	// DismissLabel is a call to action's dismiss button.
	DismissLabel *string `json:"dismissLabel,omitempty"`
}

// ConfirmationTranslation is the confirmation's texts in one language.
type ConfirmationTranslation struct {
	Title       *string `json:"title,omitempty"`
	Description *string `json:"description,omitempty"`
	ButtonText  *string `json:"buttonText,omitempty"`
}

// MaxLanguages is the most translations a survey holds.
const MaxLanguages = 50

// Tags returns the survey's languages, the default first, then the translations in tag order.
func (l *Languages) Tags() []string {
	tags := make([]string, 0, len(l.Translations)+1)
	for tag := range l.Translations {
		tags = append(tags, tag)
	}
	slices.Sort(tags)
	return append([]string{l.Default}, tags...)
}

// Resolve returns the survey's language for a person who asks for requested, in order of
// preference (canonical tags): the first that the survey has, through each one's fallback chain
// ("de-AT" → "de"), or the default. ok is false when the default was chosen because nothing
// requested matched.
func (l *Languages) Resolve(requested ...string) (tag string, ok bool) {
	for _, r := range requested {
		for _, t := range LanguageChain(r) {
			if t == l.Default {
				return t, true
			}
			if _, has := l.Translations[t]; has {
				return t, true
			}
		}
	}
	return l.Default, false
}

// validateLanguages checks the translations against the definition d: known, canonical language
// tags other than the default; texts only for questions the survey has, members their types
// have, and options by an existing value.
func validateLanguages(d *Definition) error {
	l := d.Languages
	if l.Default == "" {
		return invalid("languages.default is required: the language of the survey's own texts, such as %q", "en")
	}
	if err := canonicalTag("languages.default", l.Default); err != nil {
		return err
	}
	if len(l.Translations) > MaxLanguages {
		return invalid("languages.translations: a survey has at most %d translations", MaxLanguages)
	}
	for _, tag := range l.Tags()[1:] {
		at := "languages.translations." + tag
		if err := canonicalTag(at, tag); err != nil {
			return err
		}
		if tag == l.Default {
			return invalid("%s: %s is the default language, whose texts are the survey's own", at, tag)
		}
		tr := l.Translations[tag]
		for id, qt := range tr.Questions {
			q, ok := d.Question(id)
			if !ok {
				return invalid("%s.questions: the survey has no question %q", at, id)
			}
			if err := validateQuestionTranslation(at+".questions."+id, q, &qt); err != nil {
				return err
			}
		}
	}
	return nil
}

func canonicalTag(at, tag string) error {
	c, err := CanonicalLanguage(tag)
	if err != nil {
		return invalid("%s: %v", at, err)
	}
	if c != tag {
		return invalid("%s: write the language tag %q as %q", at, tag, c)
	}
	return nil
}

// validateQuestionTranslation refuses the texts a question of q's type does not have.
func validateQuestionTranslation(at string, q *Question, qt *QuestionTranslation) error {
	var options []Option
	var editable *Editable
	placeholder, details := false, false
	switch p := q.Properties.(type) {
	case SingleSelectProperties:
		options, editable = p.Options, p.Editable
	case MultiSelectProperties:
		options, editable = p.Options, p.Editable
	case OpenEndedProperties:
		placeholder = true
	case BugReportProperties:
		placeholder, details = true, true
	case RankingProperties:
		for _, c := range p.Options {
			options = append(options, Option{Value: c.Value})
		}
	}
	switch {
	case qt.Labels != nil && q.Type() != TypeRating:
		return invalid("%s.labels: only a rating question has labels; %q is a %s question", at, q.ID, q.Type())
	case qt.Options != nil && options == nil:
		return invalid("%s.options: only a select or ranking question has options; %q is a %s question", at, q.ID, q.Type())
	case qt.Placeholder != nil && !placeholder:
		return invalid("%s.placeholder: only an open-ended or bug-report question has a placeholder", at)
	case qt.EditableLabel != nil && editable == nil:
		return invalid("%s.editableLabel: question %q takes no text of the person's own (editable)", at, q.ID)
	case (qt.DetailsLabel != nil || qt.DetailsPlaceholder != nil) && !details:
		return invalid("%s: only a bug-report question has detailsLabel and detailsPlaceholder", at)
	}
	for value := range qt.Options {
		if !slices.ContainsFunc(options, func(o Option) bool { return o.Value == value }) {
			return invalid("%s.options: question %q has no option %q (translations are keyed by the option's value)", at, q.ID, value)
		}
	}
	return validateMoreTranslation(at, q, qt)
}

// Localize returns the definition's texts in lang, falling back to the default language's for
// each text the translation leaves out, with Languages and Display left out: the view a person
// answers. A lang the survey has no translation for gives its own texts. The definition itself
// is not changed, so it may be shared with a cache.
func (d *Definition) Localize(lang string) Definition {
	out := *d
	out.Languages, out.Display = nil, nil
	if d.Languages == nil {
		return out
	}
	tr, ok := d.Languages.Translations[lang]
	if !ok {
		return out
	}
	set(&out.Title, tr.Title)
	if tr.Description != nil {
		out.Description = tr.Description
	}
	set(&out.BackButtonLabel, tr.BackButtonLabel)
	if c := tr.Confirmation; c != nil {
		set(&out.Confirmation.Title, c.Title)
		set(&out.Confirmation.Description, c.Description)
		set(&out.Confirmation.ButtonText, c.ButtonText)
	}
	if len(tr.Questions) > 0 {
		out.Questions = slices.Clone(d.Questions)
		for i := range out.Questions {
			if qt, ok := tr.Questions[out.Questions[i].ID]; ok {
				localizeQuestion(&out.Questions[i], &qt)
			}
		}
	}
	return out
}

func localizeQuestion(q *Question, qt *QuestionTranslation) {
	set(&q.Title, qt.Title)
	if qt.Description != nil {
		q.Description = qt.Description
	}
	if localizeMore(q, qt) {
		return
	}
	switch p := q.Properties.(type) {
	case RatingProperties:
		set(&p.ButtonLabel, qt.ButtonLabel)
		if qt.Labels != nil {
			l := RatingLabels{}
			if p.Labels != nil {
				l = *p.Labels
			}
			l.Lower, l.Upper = or(qt.Labels.Lower, l.Lower), or(qt.Labels.Upper, l.Upper)
			p.Labels = &l
		}
		q.Properties = p
	case SingleSelectProperties:
		set(&p.ButtonLabel, qt.ButtonLabel)
		p.Options, p.Editable = labelOptions(p.Options, qt.Options), labelEditable(p.Editable, qt.EditableLabel)
		q.Properties = p
	case MultiSelectProperties:
		set(&p.ButtonLabel, qt.ButtonLabel)
		p.Options, p.Editable = labelOptions(p.Options, qt.Options), labelEditable(p.Editable, qt.EditableLabel)
		q.Properties = p
	case OpenEndedProperties:
		set(&p.ButtonLabel, qt.ButtonLabel)
		p.Placeholder = or(qt.Placeholder, p.Placeholder)
		q.Properties = p
	case StatementProperties:
		set(&p.ButtonLabel, qt.ButtonLabel)
		q.Properties = p
	case BugReportProperties:
		set(&p.ButtonLabel, qt.ButtonLabel)
		p.Placeholder = or(qt.Placeholder, p.Placeholder)
		set(&p.DetailsLabel, qt.DetailsLabel)
		p.DetailsPlaceholder = or(qt.DetailsPlaceholder, p.DetailsPlaceholder)
		q.Properties = p
	}
}

// labelOptions returns options with the translated labels, a copy when any changes.
func labelOptions(options []Option, labels map[string]string) []Option {
	if len(labels) == 0 {
		return options
	}
	out := slices.Clone(options)
	for i := range out {
		if l, ok := labels[out[i].Value]; ok {
			out[i].Label = &l
		}
	}
	return out
}

func labelEditable(e *Editable, label *string) *Editable {
	if e == nil || label == nil {
		return e
	}
	c := *e
	c.Label = *label
	return &c
}

func set(dst *string, v *string) {
	if v != nil {
		*dst = *v
	}
}

func or(a, b *string) *string {
	if a != nil {
		return a
	}
	return b
}
