package survey

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/mail"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/svc-feedback/svc/internal/jsonappend"
)

// Bool is a true-or-false answer: a consent question's, which is always true.
type Bool bool

// Fields is an answer of named texts: a matrix's column by row value, or a contact question's
// text by field id.
type Fields map[string]string

func (Bool) isAnswer()   {}
func (Fields) isAnswer() {}

// MarshalJSON writes the fields as an object with its names in order; nil is {}.
func (f Fields) MarshalJSON() ([]byte, error) { return f.appendJSON(nil), nil }

func (f Fields) appendJSON(b []byte) []byte {
	b = append(b, '{')
	for i, k := range jsonappend.SortedKeys(f) {
		if i > 0 {
			b = append(b, ',')
		}
		b = jsonappend.String(b, k)
		b = append(b, ':')
		b = jsonappend.String(b, f[k])
	}
	return append(b, '}')
}

// AsFields reads an answer as named texts: a Fields as it is, and a BugReportAnswer as the
// members it has, since an object answer whose names happen to be a bug report's ("title",
// "metadata") is read back from storage as one. ok is false for any other answer.
func AsFields(a Answer) (Fields, bool) {
	switch a := a.(type) {
	case Fields:
		return a, true
	case BugReportAnswer:
		f := Fields{"title": a.Title, "metadata": a.Metadata}
		for name, v := range map[string]*string{"description": a.Description, "screenshotDataUrl": a.ScreenshotDataURL, "recordingEventsJson": a.RecordingEventsJSON} {
			if v != nil {
				f[name] = *v
			}
		}
		return f, true
	}
	return nil, false
}

// objectAnswer types an object answer: a bug report when its members are a bug report's (title
// and metadata strings, and only its other members), else a Fields when every member is a
// string.
func objectAnswer(m map[string]any) (Answer, error) {
	if br, err := bugReportFromValue(m); err == nil {
		return br, nil
	}
	f := make(Fields, len(m))
	for k, v := range m {
		s, ok := v.(string)
		if !ok {
			return nil, fmt.Errorf("an object answer holds only strings (a matrix's or a contact question's) or is a bug report; %q is not a string", k)
		}
		f[k] = s
	}
	return f, nil
}

// DecodeFields reads an object of strings, as a matrix or contact answer is written.
func DecodeFields(raw json.RawMessage) (Fields, error) {
	if t := bytes.TrimSpace(raw); len(t) == 0 || t[0] != '{' {
		return nil, errors.New("the answer must be an object of strings")
	}
	var f Fields
	if err := json.Unmarshal(raw, &f); err != nil {
		return nil, errors.New("the answer must be an object of strings")
	}
	return f, nil
}

// Limits of the new types' answers.
const (
	// MaxContactText is the most characters a contact field holds (an e-mail address holds at
	// most 254).
	MaxContactText = 500
	maxEmail       = 254
)

// DateLayout is how a date question's bounds and answers are written.
const DateLayout = "2006-01-02"

// ParseDate reads a YYYY-MM-DD date, refusing one that is not a real day ("2026-02-30").
func ParseDate(s string) (time.Time, bool) {
	if len(s) != len(DateLayout) {
		return time.Time{}, false
	}
	t, err := time.Parse(DateLayout, s)
	return t, err == nil
}

// validateMoreAnswer checks an answer to a question of the types in moretypes.go; ok is false
// for another type.
func validateMoreAnswer(q *Question, a Answer) (ok bool, err error) {
	switch p := q.Properties.(type) {
	case MatrixProperties:
		return true, validateMatrixAnswer(q, p, a)
	case RankingProperties:
		return true, validateRankingAnswer(q.ID, p, a)
	case DateProperties:
		return true, validateDateAnswer(q.ID, p, a)
	case ConsentProperties:
		if b, isBool := a.(Bool); !isBool || !bool(b) {
			return true, badAnswer(q.ID, "a consent answer is true; a person who does not agree leaves the question unanswered")
		}
		return true, nil
	case CTAProperties:
		if s, isText := a.(Text); !isText || s != CTAClicked && s != CTADismissed {
			return true, badAnswer(q.ID, "a call-to-action answer is %q or %q", CTAClicked, CTADismissed)
		}
		return true, nil
	case ContactProperties:
		return true, validateContactAnswer(q.ID, p, a)
	}
	return false, nil
}

func validateMatrixAnswer(q *Question, p MatrixProperties, a Answer) error {
	f, ok := AsFields(a)
	if !ok {
		return badAnswer(q.ID, "a matrix answer must be an object from row value to column value")
	}
	if len(f) == 0 {
		return badAnswer(q.ID, "a matrix answer must answer at least one row; leave the answer out to skip the question")
	}
	for _, row := range sortedNames(f) {
		if !hasChoice(p.Rows, row) {
			return badAnswer(q.ID, "the matrix has no row %q", truncate(row))
		}
		if !hasChoice(p.Columns, f[row]) {
			return badAnswer(q.ID, "row %q: the matrix has no column %q", truncate(row), truncate(f[row]))
		}
	}
	if q.Required && len(f) < len(p.Rows) {
		for _, r := range p.Rows {
			if _, has := f[r.Value]; !has {
				return badAnswer(q.ID, "the question is required, so every row is answered; row %q is not", truncate(r.Value))
			}
		}
	}
	return nil
}

func validateRankingAnswer(id string, p RankingProperties, a Answer) error {
	list, ok := a.(Choices)
	if !ok {
		return badAnswer(id, "a ranking answer must be a list of option values in rank order")
	}
	least := rankingMin(p)
	if len(list) < least {
		return badAnswer(id, "a ranking answer ranks at least %d options; this one ranks %d", least, len(list))
	}
	seen := make(map[string]bool, len(list))
	for _, v := range list {
		if !hasChoice(p.Options, v) {
			return badAnswer(id, "%q is not one of the options", truncate(v))
		}
		if seen[v] {
			return badAnswer(id, "%q is ranked twice", truncate(v))
		}
		seen[v] = true
	}
	return nil
}

// rankingMin is the fewest options a ranking's answer ranks: Min, or all of them.
func rankingMin(p RankingProperties) int {
	if p.Min != nil {
		return *p.Min
	}
	return len(p.Options)
}

func validateDateAnswer(id string, p DateProperties, a Answer) error {
	s, ok := a.(Text)
	if !ok {
		return badAnswer(id, "a date answer must be a string YYYY-MM-DD")
	}
	if _, ok := ParseDate(string(s)); !ok {
		return badAnswer(id, "%q is not a date written YYYY-MM-DD", truncate(string(s)))
	}
	// Dates written YYYY-MM-DD order as strings do.
	if p.Min != nil && string(s) < *p.Min {
		return badAnswer(id, "%s is before the earliest date allowed, %s", s, *p.Min)
	}
	if p.Max != nil && string(s) > *p.Max {
		return badAnswer(id, "%s is after the latest date allowed, %s", s, *p.Max)
	}
	return nil
}

func validateContactAnswer(id string, p ContactProperties, a Answer) error {
	f, ok := AsFields(a)
	if !ok {
		return badAnswer(id, "a contact answer must be an object of strings by field id")
	}
	if len(f) == 0 {
		return badAnswer(id, "a contact answer must give at least one field; leave the answer out to skip the question")
	}
	for _, k := range sortedNames(f) {
		i := contactField(p, k)
		if i < 0 {
			return badAnswer(id, "the question asks for no field %q; it asks for %s", truncate(k), fieldList(p))
		}
		if err := checkContactText(k, f[k]); err != nil {
			return badAnswer(id, "%s", err)
		}
	}
	for _, fd := range p.Fields {
		if fd.Required && strings.TrimSpace(f[fd.ID]) == "" {
			return badAnswer(id, "field %q is required", fd.ID)
		}
	}
	return nil
}

// checkContactText checks one contact field's text: an e-mail address as one, a phone number as
// one, each no longer than a field holds. An empty text is a field left blank.
func checkContactText(field, s string) error {
	if utf8.RuneCountInString(s) > MaxContactText {
		return fmt.Errorf("%s is longer than %d characters", field, MaxContactText)
	}
	if s == "" {
		return nil
	}
	switch field {
	case ContactEmail:
		if !ValidEmail(s) {
			return fmt.Errorf("email %q is not an e-mail address such as name@example.com", truncate(s))
		}
	case ContactPhone:
		if !ValidPhone(s) {
			return fmt.Errorf("phone %q is not a phone number: 5 to 20 digits, with spaces, dots, dashes, brackets and a leading +", truncate(s))
		}
	}
	return nil
}

// ValidEmail reports whether s is a bare e-mail address, local@domain, as a person types one:
// no display name or angle brackets, a domain with a dot, at most 254 characters.
func ValidEmail(s string) bool {
	if len(s) > maxEmail || strings.TrimSpace(s) != s {
		return false
	}
	addr, err := mail.ParseAddress(s)
	if err != nil || addr.Address != s || addr.Name != "" {
		return false
	}
	at := strings.LastIndexByte(s, '@')
	domain := s[at+1:]
	return at > 0 && strings.Contains(domain, ".") && !strings.HasPrefix(domain, ".") && !strings.HasSuffix(domain, ".")
}

// ValidPhone reports whether s is a phone number as a person types one: 5 to 20 digits, with
// spaces, dots, dashes and brackets between them and an optional leading +.
func ValidPhone(s string) bool {
	digits := 0
	for i, r := range s {
		switch {
		case r >= '0' && r <= '9':
			digits++
		case r == '+' && i == 0:
		case strings.ContainsRune(" .-()", r):
		default:
			return false
		}
	}
	return digits >= 5 && digits <= 20
}

func contactField(p ContactProperties, id string) int {
	for i, fd := range p.Fields {
		if fd.ID == id {
			return i
		}
	}
	return -1
}

func fieldList(p ContactProperties) string {
	ids := make([]string, len(p.Fields))
	for i, fd := range p.Fields {
		ids[i] = fd.ID
	}
	return strings.Join(ids, ", ")
}

func hasChoice(choices []Choice, v string) bool {
	for _, c := range choices {
		if c.Value == v {
			return true
		}
	}
	return false
}

// sortedNames are f's names in order, so that the error for an answer with several faults is
// the same every time.
func sortedNames(f Fields) []string { return jsonappend.SortedKeys(f) }
