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
		m := matcher{match: r.Match, value: r.Value, whole: strings.Contains(r.Value, "://")}
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

// matches reports whether the rule matches a page, given as its whole URL and as its path and
// query.
func (m matcher) matches(whole, pathQuery string) bool {
	s := pathQuery
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
	if len(r.urls) > 0 && !slices.ContainsFunc(r.urls, func(m matcher) bool { return m.matches(page.whole, page.pathQuery) }) {
		return false
	}
	return !slices.ContainsFunc(r.exclude, func(m matcher) bool { return m.matches(page.whole, page.pathQuery) })
}

// pageURL is a page's URL as the rules match it: whole, and its path and query, without its
// fragment. A URL given as a path and query is both.
type pageURL struct{ whole, pathQuery string }

func splitPage(page string) pageURL {
	whole, _, _ := strings.Cut(page, "#")
	if strings.HasPrefix(whole, "/") {
		return pageURL{whole, whole} // a path and query: the widget's form, parsed for nothing
	}
	u, err := url.Parse(whole)
	if err != nil || u.Scheme == "" {
		return pageURL{whole, whole}
	}
	pathQuery := u.EscapedPath()
	if pathQuery == "" {
		pathQuery = "/"
	}
	if u.RawQuery != "" {
		pathQuery += "?" + u.RawQuery
	}
	return pageURL{whole, pathQuery}
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
		a, okA := survey.NumberOf(v)
		b, okB := survey.NumberOf(r.Value)
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
	if x, ok := survey.NumberOf(a); ok {
		if y, ok := survey.NumberOf(b); ok {
			return x == y
		}
	}
	return text(a) == text(b)
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
