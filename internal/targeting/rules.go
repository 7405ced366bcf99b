package targeting

import (
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/svc-feedback/svc/survey"
)

// Rules are a survey's display rules made ready to evaluate: its regular expressions compiled.
// Compile them once per version of the survey.
type Rules struct {
	SurveyID  string
	CreatedAt time.Time
	display   *survey.Display // nil: picked only when prompted
	urls      []matcher
	exclude   []matcher
}

// Compile makes a survey's rules ready; d may be nil (a survey without rules).
func Compile(surveyID string, createdAt time.Time, d *survey.Display) (*Rules, error) {
	r := &Rules{SurveyID: surveyID, CreatedAt: createdAt, display: d}
	if d == nil {
		return r, nil
	}
	var err error
	if r.urls, err = compileURLs(d.URLs); err != nil {
		return nil, fmt.Errorf("survey %s: display.urls: %w", surveyID, err)
	}
	if r.exclude, err = compileURLs(d.ExcludeURLs); err != nil {
		return nil, fmt.Errorf("survey %s: display.excludeUrls: %w", surveyID, err)
	}
	return r, nil
}

// matcher is one URL rule.
type matcher struct {
	match, value string
	whole        bool // value has a scheme: it is matched against the whole URL
	re           *regexp.Regexp
}

func compileURLs(rules []survey.URLRule) ([]matcher, error) {
	out := make([]matcher, 0, len(rules))
	for _, r := range rules {
		// A value from the path on ("/login?next=https://...") is one, whatever follows.
		whole := !strings.HasPrefix(r.Value, "/") && strings.Contains(r.Value, "://")
		m := matcher{match: r.Match, value: r.Value, whole: whole}
		if r.Match == survey.MatchRegex {
			re, err := regexp.Compile(r.Value)
			if err != nil {
				return nil, err
			}
			m.re = re
		}
		out = append(out, m)
	}
	return out, nil
}

// matches reports whether the rule matches a page, given as its whole URL and as its path,
// query and fragment.
func (m matcher) matches(whole, path string) bool {
	s := path
	if m.whole {
		s = whole
	}
	switch m.match {
	case survey.MatchExact:
		return s == m.value
	case survey.MatchPrefix:
		return strings.HasPrefix(s, m.value)
	case survey.MatchContains:
		return strings.Contains(s, m.value)
	case survey.MatchRegex:
		return m.re.MatchString(s)
	}
	return false
}

// matchesURL reports whether the page passes the survey's URL rules: one of urls matches (or
// there are none), and none of excludeUrls does.
func (r *Rules) matchesURL(page pageURL) bool {
	if len(r.urls) > 0 && !slices.ContainsFunc(r.urls, func(m matcher) bool { return m.matches(page.whole, page.path) }) {
		return false
	}
	return !slices.ContainsFunc(r.exclude, func(m matcher) bool { return m.matches(page.whole, page.path) })
}

// pageURL is a page's URL as the rules match it: whole, and from its path on (path, query and
// fragment), both with the fragment as the page sent it, so that a hash-routed app's pages
// (/app#/settings) can be told apart. An empty fragment (a link to "#" followed) is no fragment.
// A URL given from its path on is both.
type pageURL struct{ whole, path string }

func splitPage(page string) pageURL {
	page = strings.TrimSuffix(page, "#")
	if strings.HasPrefix(page, "/") {
		return pageURL{page, page} // the path on: parsed for nothing
	}
	rest, fragment, hasFragment := strings.Cut(page, "#")
	u, err := url.Parse(rest)
	if err != nil || u.Scheme == "" {
		return pageURL{page, page}
	}
	path := u.EscapedPath()
	if path == "" {
		path = "/"
	}
	if u.RawQuery != "" {
		path += "?" + u.RawQuery
	}
	if hasFragment {
		path += "#" + fragment
	}
	return pageURL{page, path}
}

// mergeAttributes is the page's attributes with the stored ones over them: the team's backend
// is trusted, the page is not.
func mergeAttributes(page, stored map[string]any) map[string]any {
	switch {
	case len(page) == 0:
		return stored
	case len(stored) == 0:
		return page
	}
	out := make(map[string]any, len(page)+len(stored))
	for k, v := range page {
		out[k] = v
	}
	for k, v := range stored {
		out[k] = v
	}
	return out
}

// matchesAttributes reports whether every rule holds for the attributes. A rule on an
// attribute the person does not have holds only for not-equal, not-in and not-exists.
func matchesAttributes(rules []survey.AttributeRule, attrs map[string]any) bool {
	for _, r := range rules {
		v, ok := attrs[r.Key]
		if !holds(r, v, ok) {
			return false
		}
	}
	return true
}

func holds(r survey.AttributeRule, v any, ok bool) bool {
	switch r.Operator {
	case survey.OpExists:
		return ok
	case survey.OpNotExists:
		return !ok
	case survey.OpNotEqual:
		return !ok || !equal(v, r.Value)
	case survey.OpNotIn:
		return !ok || !in(v, r.Value)
	}
	if !ok {
		return false
	}
	switch r.Operator {
	case survey.OpEqual:
		return equal(v, r.Value)
	case survey.OpIn:
		return in(v, r.Value)
	case survey.OpContains:
		s, isString := v.(string)
		return isString && strings.Contains(s, text(r.Value))
	case survey.OpGreater, survey.OpLess:
		a, okA := numberOf(v)
		b, okB := numberOf(r.Value)
		if !okA || !okB {
			return false
		}
		if r.Operator == survey.OpGreater {
			return a > b
		}
		return a < b
	}
	return false
}

func in(v, list any) bool {
	values, _ := list.([]any)
	return slices.ContainsFunc(values, func(x any) bool { return equal(v, x) })
}

// equal compares two attribute values: as numbers when both read as numbers (the page may send
// "42" for 42), else as text ("true" for true).
func equal(a, b any) bool {
	if x, ok := numberOf(a); ok {
		if y, ok := numberOf(b); ok {
			return x == y
		}
	}
	return text(a) == text(b)
}

// numberOf is survey.NumberOf, which it calls only for a string that may read as a finite
// number: a failed parse allocates its error, and most text attributes ("pro") are no number.
func numberOf(v any) (float64, bool) {
	if s, ok := v.(string); ok {
		s = strings.TrimSpace(s)
		if len(s) > 0 && (s[0] == '+' || s[0] == '-') {
			s = s[1:]
		}
		if s == "" || (s[0] != '.' && (s[0] < '0' || s[0] > '9')) {
			return 0, false // not even a digit or a point first: no number, or an infinity or NaN
		}
	}
	return survey.NumberOf(v)
}

// text is a value as text.
func text(v any) string {
	switch v := v.(type) {
	case string:
		return v
	case bool:
		return strconv.FormatBool(v)
	case float64:
		return strconv.FormatFloat(v, 'f', -1, 64)
	}
	return fmt.Sprint(v)
}
