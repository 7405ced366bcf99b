package api

import (
	"cmp"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/svc-feedback/svc/internal/wire"
	"github.com/svc-feedback/svc/store"
	"github.com/svc-feedback/svc/survey"
)

// A survey's language for a request: ?lang= first, then the
// browser's Accept-Language, each through its fallback chain ("de-AT" → "de"), then the
// survey's default.

// maxAcceptLanguages bounds the languages of an Accept-Language header svc reads: a browser
// sends a handful, and a longer list only costs.
const maxAcceptLanguages = 16

// surveyLanguage returns the language to show sv in for r: "" for a survey without
// translations. A malformed ?lang= is refused; a well-formed one the survey lacks falls back.
func surveyLanguage(r *http.Request, sv *store.Survey) (string, error) {
	var asked []string
	// Most asks name no language: the query is parsed only when it may.
	if raw := r.URL.RawQuery; strings.Contains(raw, "lang") || strings.Contains(raw, "%") {
		q := r.URL.Query()
		tag, err := wire.Query(q, "lang")
		if err != nil {
			return "", err
		}
		if q.Has("lang") {
			c, err := survey.CanonicalLanguage(tag)
			if err != nil {
				return "", badRequest("lang: " + err.Error())
			}
			asked = append(asked, c)
		}
	}
	if sv.Languages == nil {
		return "", nil
	}
	asked = append(asked, acceptLanguages(headerValue(r.Header, "Accept-Language"))...)
	tag, _ := sv.Languages.Resolve(asked...)
	return tag, nil
}

// acceptLanguages returns an Accept-Language header's languages svc knows, most wanted first;
// q=0 and malformed entries are left out.
func acceptLanguages(header string) []string {
	type weighted struct {
		tag string
		q   float64
	}
	var list []weighted
	for entry := range strings.SplitSeq(header, ",") {
		if len(list) == maxAcceptLanguages {
			break
		}
		tag, params, _ := strings.Cut(strings.TrimSpace(entry), ";")
		q := 1.0
		if v, ok := strings.CutPrefix(strings.TrimSpace(params), "q="); ok {
			f, err := strconv.ParseFloat(v, 64)
			if err != nil || f < 0 || f > 1 {
				continue
			}
			q = f
		}
		c, err := survey.CanonicalLanguage(strings.TrimSpace(tag))
		if err != nil || q == 0 {
			continue // "*" and tags svc does not know match nothing
		}
		list = append(list, weighted{c, q})
	}
	slices.SortStableFunc(list, func(a, b weighted) int { return cmp.Compare(b.q, a.q) })
	tags := make([]string, len(list))
	for i, w := range list {
		tags[i] = w.tag
	}
	return tags
}

// responseLanguage checks the language a PUT says its answers were given in.
func responseLanguage(tag *string) (string, error) {
	if tag == nil {
		return "", nil
	}
	c, err := survey.CanonicalLanguage(*tag)
	if err != nil {
		return "", badRequest(fmt.Sprintf(`field "language": %v`, err))
	}
	return c, nil
}
