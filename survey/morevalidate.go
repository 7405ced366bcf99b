package survey

import (
	"net/url"
	"slices"
	"strings"
)

// Bounds of the new types' lists.
const (
	MinMatrixRows    = 2
	MaxMatrixRows    = 20
	MinMatrixColumns = 2
	MaxMatrixColumns = 10
	MinRankOptions   = 2
	MaxRankOptions   = 20
)

// validateMoreProperties checks the properties of the types in moretypes.go, at; ok is false for
// another type.
func validateMoreProperties(at string, p Properties) (ok bool, err error) {
	switch p := p.(type) {
	case MatrixProperties:
		if err := validateChoiceList(at+".rows", "a matrix", "rows", p.Rows, MinMatrixRows, MaxMatrixRows); err != nil {
			return true, err
		}
		return true, validateChoiceList(at+".columns", "a matrix", "columns", p.Columns, MinMatrixColumns, MaxMatrixColumns)
	case RankingProperties:
		if err := validateChoiceList(at+".options", "a ranking", "options", p.Options, MinRankOptions, MaxRankOptions); err != nil {
			return true, err
		}
		if p.Min != nil && (*p.Min < 1 || *p.Min > len(p.Options)) {
			return true, invalid("%s.min: a ranking ranks at least 1 and at most all %d options; leave min out to have all ranked", at, len(p.Options))
		}
	case DateProperties:
		return true, validateDateBounds(at, p)
	case ConsentProperties:
		if strings.TrimSpace(p.Label) == "" {
			return true, invalid("%s.label is required: what the person agrees to", at)
		}
	case CTAProperties:
		if p.URL != nil && !httpURL(*p.URL) {
			return true, invalid("%s.url must be an http or https address, not %q", at, truncate(*p.URL))
		}
	case ContactProperties:
		return true, validateContactFields(at, p.Fields)
	default:
		return false, nil
	}
	return true, nil
}

// validateChoiceList checks a list of choices: from least to most of them, each value non-empty
// and used once.
func validateChoiceList(at, what, name string, list []Choice, least, most int) error {
	if len(list) < least || len(list) > most {
		return invalid("%s: %s needs %d to %d %s; this one has %d", at, what, least, most, name, len(list))
	}
	seen := make(map[string]bool, len(list))
	for i, c := range list {
		if c.Value == "" {
			return invalid("%s[%d].value must not be empty", at, i)
		}
		if seen[c.Value] {
			return invalid("%s[%d].value %q is used twice", at, i, truncate(c.Value))
		}
		seen[c.Value] = true
	}
	return nil
}

func validateDateBounds(at string, p DateProperties) error {
	for _, b := range []struct {
		name string
		v    *string
	}{{"min", p.Min}, {"max", p.Max}} {
		if b.v != nil {
			if _, ok := ParseDate(*b.v); !ok {
				return invalid("%s.%s must be a date written YYYY-MM-DD, not %q", at, b.name, truncate(*b.v))
			}
		}
	}
	if p.Min != nil && p.Max != nil && *p.Min > *p.Max {
		return invalid("%s: min %s is after max %s, so no date could be given", at, *p.Min, *p.Max)
	}
	return nil
}

func validateContactFields(at string, fields []ContactField) error {
	if len(fields) == 0 {
		return invalid("%s.fields must not be empty: ask for one or more of %s", at, strings.Join(contactFieldIDs, ", "))
	}
	seen := make(map[string]bool, len(fields))
	for i, fd := range fields {
		if !slices.Contains(contactFieldIDs, fd.ID) {
			return invalid("%s.fields[%d].id must be one of %s, not %q", at, i, strings.Join(contactFieldIDs, ", "), truncate(fd.ID))
		}
		if seen[fd.ID] {
			return invalid("%s.fields[%d].id %q is used twice", at, i, fd.ID)
		}
		seen[fd.ID] = true
	}
	return nil
}

// validateRatingDisplay checks that a display with a fixed scale has it.
func validateRatingDisplay(at string, p RatingProperties) error {
	if p.Display == nil {
		return nil
	}
	want := map[string]int{DisplayCES: 7, DisplayThumbs: 2}[*p.Display]
	if want != 0 && p.Scale != want {
		return invalid("%s.scale must be %d for the display %q, not %d", at, want, *p.Display, p.Scale)
	}
	return nil
}

func httpURL(s string) bool {
	u, err := url.Parse(s)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != ""
}

// moreTranslationTexts says which of a question translation's texts of the new types q has:
// rows and columns (a matrix), a label (consent), a dismiss label (a call to action), and the
// option values a ranking has.
func validateMoreTranslation(at string, q *Question, qt *QuestionTranslation) error {
	var rows, columns []Choice
	switch p := q.Properties.(type) {
	case MatrixProperties:
		rows, columns = p.Rows, p.Columns
	}
	switch {
	case qt.Rows != nil && rows == nil, qt.Columns != nil && columns == nil:
		return invalid("%s: only a matrix question has rows and columns; %q is a %s question", at, q.ID, q.Type())
	case qt.Label != nil && q.Type() != TypeConsent:
		return invalid("%s.label: only a consent question has a label; %q is a %s question", at, q.ID, q.Type())
	case qt.DismissLabel != nil && q.Type() != TypeCTA:
		return invalid("%s.dismissLabel: only a call-to-action (cta) question has a dismissLabel; %q is a %s question", at, q.ID, q.Type())
	}
	for _, m := range []struct {
		name    string
		labels  map[string]string
		choices []Choice
	}{{"rows", qt.Rows, rows}, {"columns", qt.Columns, columns}} {
		for value := range m.labels {
			if !hasChoice(m.choices, value) {
				return invalid("%s.%s: question %q has no %s %q (translations are keyed by the value)", at, m.name, q.ID, strings.TrimSuffix(m.name, "s"), truncate(value))
			}
		}
	}
	return nil
}

// localizeMore sets a question of the new types' translated texts; ok is false for another type.
func localizeMore(q *Question, qt *QuestionTranslation) bool {
	switch p := q.Properties.(type) {
	case MatrixProperties:
		set(&p.ButtonLabel, qt.ButtonLabel)
		p.Rows, p.Columns = labelChoices(p.Rows, qt.Rows), labelChoices(p.Columns, qt.Columns)
		q.Properties = p
	case RankingProperties:
		set(&p.ButtonLabel, qt.ButtonLabel)
		p.Options = labelChoices(p.Options, qt.Options)
		q.Properties = p
	case DateProperties:
		set(&p.ButtonLabel, qt.ButtonLabel)
		q.Properties = p
	case ConsentProperties:
		set(&p.ButtonLabel, qt.ButtonLabel)
		set(&p.Label, qt.Label)
		q.Properties = p
	case CTAProperties:
		set(&p.ButtonLabel, qt.ButtonLabel)
		p.DismissLabel = or(qt.DismissLabel, p.DismissLabel)
		q.Properties = p
	case ContactProperties:
		set(&p.ButtonLabel, qt.ButtonLabel)
		q.Properties = p
	default:
		return false
	}
	return true
}

// labelChoices returns choices with the translated labels, a copy when any changes.
func labelChoices(choices []Choice, labels map[string]string) []Choice {
	if len(labels) == 0 {
		return choices
	}
	out := slices.Clone(choices)
	for i := range out {
		if l, ok := labels[out[i].Value]; ok {
			out[i].Label = &l
		}
	}
	return out
}
