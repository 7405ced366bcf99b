package report

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/svc-feedback/svc/internal/wire"
	"github.com/svc-feedback/svc/store"
	"github.com/svc-feedback/svc/survey"
)

// Filter picks responses by what they hold (docs/api.md#filters), with one meaning wherever
// it is given. The zero Filter picks every response.
type Filter struct {
	answers  map[string]answerFilter
	metadata map[string][]string // any of the values
	finished *bool
	language []string // any of them, each with its regional forms
	page     []string // any of them: a path, or a prefix ending in * (pagefilter.go)
}

// answerFilter is a question's condition: any of values, and within min and max for a rating.
type answerFilter struct {
	typ      string
	values   []string
	min, max *float64
}

// Bounds of a filter, so that a request cannot make each response's test arbitrarily dear.
const (
	maxFilterTerms = 50
	maxFilterValue = 1000
)

// ParseFilter reads a request's filters for survey def: answer.{questionId}=value (repeated:
// any of them; a rating's score, a choice's option value or free text, a word an open-ended
// answer contains, in any case), answer.{questionId}.min and .max for a rating,
// metadata.{key}=value (repeated: any), finished=true|false, language=tag (repeated: any; "de"
// also picks "de-AT"), page=path (repeated: any; see pagefilter.go). A filter of a question
// the survey does not have, or that cannot be filtered so, is an error wrapping
// store.ErrInvalid.
func ParseFilter(q url.Values, def survey.Definition) (Filter, error) {
	var f Filter
	terms := 0
	for key, values := range q {
		switch {
		case key == "finished":
			v, err := wire.Query(q, key)
			if err != nil {
				return Filter{}, err
			}
			if v != "true" && v != "false" {
				return Filter{}, store.Invalidf("finished is true or false")
			}
			b := v == "true"
			f.finished = &b
		case key == "language":
			for _, v := range values {
				tag, err := survey.CanonicalLanguage(v)
				if err != nil {
					return Filter{}, store.Invalidf("language: %v", err)
				}
				f.language = append(f.language, tag)
			}
		case key == "page":
			pages, err := parsePage(values)
			if err != nil {
				return Filter{}, err
			}
			f.page = pages
		case strings.HasPrefix(key, "metadata."):
			name := strings.TrimPrefix(key, "metadata.")
			if name == "" || utf8.RuneCountInString(name) > maxFilterValue {
				return Filter{}, store.Invalidf("a metadata filter names its key: metadata.{key}=value")
			}
			if f.metadata == nil {
				f.metadata = map[string][]string{}
			}
			f.metadata[name] = values
		case strings.HasPrefix(key, "answer."):
			if err := f.addAnswer(def, strings.TrimPrefix(key, "answer."), values); err != nil {
				return Filter{}, err
			}
		default:
			continue
		}
		terms += len(values)
		for _, v := range values {
			if utf8.RuneCountInString(v) > maxFilterValue {
				return Filter{}, store.Invalidf("a filter's value is at most %d characters", maxFilterValue)
			}
		}
	}
	if terms > maxFilterTerms {
		return Filter{}, store.Invalidf("at most %d filter values", maxFilterTerms)
	}
	return f, nil
}

// addAnswer adds answer.{name}: a question's values, or a rating's .min or .max.
func (f *Filter) addAnswer(def survey.Definition, name string, values []string) error {
	find := func(id string) *survey.Question {
		i := slices.IndexFunc(def.Questions, func(q survey.Question) bool { return q.ID == id })
		if i < 0 {
			return nil
		}
		return &def.Questions[i]
	}
	q, bound := find(name), ""
	if q == nil {
		for _, b := range []string{".min", ".max"} {
			if id, ok := strings.CutSuffix(name, b); ok {
				q, bound = find(id), b
			}
		}
	}
	if q == nil {
		return store.Invalidf("answer.%s: the survey has no such question", wire.Truncate(name))
	}
	if f.answers == nil {
		f.answers = map[string]answerFilter{}
	}
	af := f.answers[q.ID]
	af.typ = q.Type()
	switch {
	case af.typ == survey.TypeStatement || af.typ == survey.TypeBugReport || af.typ == survey.TypeMatrix || af.typ == survey.TypeContact:
		return store.Invalidf("answer.%s: a %s question's answers are not filtered", q.ID, af.typ)
	case bound != "" && af.typ != survey.TypeRating:
		return store.Invalidf("answer.%s%s: only a rating has a range", q.ID, bound)
	case bound != "":
		if len(values) != 1 {
			return store.Invalidf("answer.%s%s is given once", q.ID, bound)
		}
		n, err := strconv.ParseFloat(values[0], 64)
		if err != nil {
			return store.Invalidf("answer.%s%s must be a number", q.ID, bound)
		}
		if bound == ".min" {
			af.min = &n
		} else {
			af.max = &n
		}
	default:
		for _, v := range values {
			if _, err := strconv.ParseFloat(v, 64); af.typ == survey.TypeRating && err != nil {
				return store.Invalidf("answer.%s: a rating's value is a score", q.ID)
			}
		}
		af.values = append(af.values, values...)
	}
	f.answers[q.ID] = af
	return nil
}

// Empty reports whether the filter picks every response.
func (f Filter) Empty() bool {
	return len(f.answers) == 0 && len(f.metadata) == 0 && f.finished == nil && len(f.language) == 0 && len(f.page) == 0
}

// matchOthers reports whether r passes the filter's terms other than its answers'.
func (f Filter) matchOthers(r store.Response) bool {
	if f.finished != nil && r.Finished != *f.finished {
		return false
	}
	if len(f.language) > 0 && !slices.ContainsFunc(f.language, func(tag string) bool {
		return r.Language == tag || strings.HasPrefix(r.Language, tag+"-")
	}) {
		return false
	}
	if len(f.metadata) > 0 || len(f.page) > 0 {
		meta := responseMetadata(r)
		if len(f.page) > 0 && !pageMatches(f.page, PagePath(meta)) {
			return false
		}
		for k, vs := range f.metadata {
			if v, ok := meta[k]; !ok || !slices.Contains(vs, v) {
				return false
			}
		}
	}
	return true
}

// match reports whether an answer (raw JSON; empty for none) passes the condition.
func (af answerFilter) match(raw json.RawMessage) bool {
	if len(raw) == 0 || string(raw) == "null" {
		return false
	}
	if af.typ == survey.TypeRating {
		var n float64
		if json.Unmarshal(raw, &n) != nil || (af.min != nil && n < *af.min) || (af.max != nil && n > *af.max) {
			return false
		}
		return len(af.values) == 0 || slices.ContainsFunc(af.values, func(v string) bool {
			x, _ := strconv.ParseFloat(v, 64)
			return x == n
		})
	}
	var text string
	var list []string
	switch {
	case json.Unmarshal(raw, &text) == nil:
		list = []string{text}
	case json.Unmarshal(raw, &list) != nil:
		return false
	}
	return slices.ContainsFunc(af.values, func(v string) bool {
		if af.typ == survey.TypeOpenEnded {
			return strings.Contains(strings.ToLower(text), strings.ToLower(v))
		}
		return slices.Contains(list, v)
	})
}

// FilteredResponses reads a page of the responses q finds that f picks: up to q.Limit of them,
// and, when q.MaxBytes is set, no more answers than that once it has one, reading the store's
// pages until it has them or none is left, one store page in memory at a time beside its own.
func FilteredResponses(ctx context.Context, s store.Store, q store.ResponseQuery, f Filter) ([]store.Response, *store.Cursor, error) {
	if f.Empty() {
		return s.Responses(ctx, q)
	}
	var (
		out  []store.Response
		size int
	)
	m := f.matcher()
	q.Narrow = f.narrowing()
	for {
		page, next, err := s.Responses(ctx, q)
		if err != nil {
			return nil, nil, fmt.Errorf("filtered responses: %w", err)
		}
		for _, r := range page {
			if !m.Match(r) {
				continue
			}
			full := len(out) == q.Limit || (q.MaxBytes > 0 && len(out) > 0 && size+len(r.Data)+len(r.Metadata) > q.MaxBytes)
			if full { // one more match: the page ends at the one before it
				last := out[len(out)-1]
				return out, &store.Cursor{CreatedAt: last.CreatedAt, ID: last.ID}, nil
			}
			out = append(out, r)
			size += len(r.Data) + len(r.Metadata)
		}
		if next == nil {
			return out, nil, nil
		}
		q.Cursor = next
	}
}

// narrowing is the part of f a Store may test in its query (store.Narrowing): whether the
// response is finished, a rating's bounds (its values' lowest and highest, within .min and
// .max) and a choice's values. Open-ended words, languages and metadata stay with the matcher,
// which tests every response the Store returns anyway. Nil when there is nothing to narrow by.
func (f Filter) narrowing() *store.Narrowing {
	n := &store.Narrowing{Finished: f.finished}
	// In the order of their ids, so that a filter makes the same query each time (a Store may
	// keep its statements prepared by their text).
	for _, id := range slices.Sorted(maps.Keys(f.answers)) {
		af := f.answers[id]
		switch af.typ {
		case survey.TypeOpenEnded:
		case survey.TypeRating:
			if b, ok := af.bounds(); ok {
				n.Scores = append(n.Scores, store.ScoreBound{QuestionID: id, Min: b[0], Max: b[1]})
			}
		default:
			n.Choices = append(n.Choices, store.ChoiceTerm{QuestionID: id, Values: af.values})
		}
	}
	if n.Finished == nil && len(n.Scores) == 0 && len(n.Choices) == 0 {
		return nil
	}
	return n
}

// bounds returns the range a rating's score must lie in to pass af, as match reads it: a bound
// that is not a number bounds nothing, and a value that is not a number equals no score. It
// reports false when the range says nothing (no bound, and no value to take one from).
func (af answerFilter) bounds() ([2]float64, bool) {
	b := [2]float64{math.Inf(-1), math.Inf(1)}
	if af.min != nil && !math.IsNaN(*af.min) {
		b[0] = *af.min
	}
	if af.max != nil && !math.IsNaN(*af.max) {
		b[1] = *af.max
	}
	if len(af.values) > 0 {
		lo, hi := math.Inf(1), math.Inf(-1)
		for _, v := range af.values {
			x, _ := strconv.ParseFloat(v, 64)
			if !math.IsNaN(x) {
				lo, hi = min(lo, x), max(hi, x)
			}
		}
		if lo > hi { // no value is a number: nothing passes, which the matcher finds
			return b, false
		}
		b[0], b[1] = max(b[0], lo), min(b[1], hi)
	}
	return b, !math.IsInf(b[0], -1) || !math.IsInf(b[1], 1)
}
