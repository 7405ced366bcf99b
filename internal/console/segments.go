package console

import (
	"fmt"
	"maps"
	"net/url"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/svc-feedback/svc/internal/report"
	"github.com/svc-feedback/svc/survey"
)

// The filter bar's segments: a select per metadata key seen on the survey's newest responses,
// the language and the page, each with its most frequent values, and a free text box where the
// values offered are not all there are (see report.ReadSegmentChoices).

// filterSegment is one segment's controls: a select of its most frequent values (Options,
// Value the one picked), and, when Free, a text box (FreeLabel, holding Other: a value picked
// that is not among the options).
type filterSegment struct {
	Name, Label, Value string
	Options            []string
	Free               bool
	FreeLabel, Other   string
	// Hint is the text box's example of what it takes.
	Hint string
}

// withSegments adds to fb the segments of choices, with the values fq asks for: each segment
// fq filters by is shown, offered or not. A language the survey's own translations already
// offer (fb's choice "language") is not offered twice.
func withSegments(fb *filterBar, choices report.SegmentChoices, fq url.Values) {
	offered := map[string]bool{}
	for _, c := range fb.Choices {
		offered[c.Name] = true
	}
	for _, c := range choices.Segments {
		if offered[c.Param] {
			continue
		}
		offered[c.Param] = true
		s := segmentControls(c.Param, c.Key)
		for _, v := range c.Values {
			s.Options = append(s.Options, v.Value)
		}
		// With more values than listed, or older responses not read, any value may be typed.
		s.Free = s.Free || c.More || choices.Newest
		s.pick(fq[c.Param])
		fb.Segments = append(fb.Segments, s)
	}
	// A segment asked for that the responses read do not hold (a link's, or a value typed).
	for _, name := range slices.Sorted(maps.Keys(fq)) {
		if offered[name] || (name != "language" && name != "page" && !strings.HasPrefix(name, "metadata.")) {
			continue
		}
		s := segmentControls(name, strings.TrimPrefix(name, "metadata."))
		s.Free = true
		s.pick(fq[name])
		fb.Segments = append(fb.Segments, s)
	}
	if choices.Newest {
		fb.Note = fmt.Sprintf("The metadata, languages and pages offered are those of the survey’s newest %s responses: type another value in the box beside its list.", thousands(choices.Read))
	}
}

// segmentControls are the controls of the segment filtered by the parameter name (key being a
// metadata key's name), without values.
func segmentControls(name, key string) filterSegment {
	switch name {
	case "language":
		return filterSegment{Name: name, Label: "Language", FreeLabel: "Another language", Hint: "de"}
	case "page":
		// A page's path is typed as often as picked: every page under a path is one only a
		// text box can ask for.
		return filterSegment{Name: name, Label: "Page", Free: true, FreeLabel: "Another page, or pages under a path", Hint: "/docs/*"}
	}
	return filterSegment{Name: name, Label: "Metadata: " + key, FreeLabel: "Metadata: " + key + ", another value"}
}

// pick marks the values asked for: the first that is an option is selected, the first other
// fills the text box (which is then offered).
func (s *filterSegment) pick(values []string) {
	for _, v := range values {
		switch {
		case v == "":
		case slices.Contains(s.Options, v):
			if s.Value == "" {
				s.Value = v
			}
		case s.Other == "":
			s.Other, s.Free = v, true
		}
	}
}

// describeFilter says in words what the filter fq (as filterQuery keeps it) picks, for def's
// questions: "Metadata: plan is pro; finished", or "All responses".
func describeFilter(def survey.Definition, fq url.Values) string {
	title := func(id string) string {
		if i := slices.IndexFunc(def.Questions, func(q survey.Question) bool { return q.ID == id }); i >= 0 {
			return "“" + def.Questions[i].Title + "”"
		}
		return id
	}
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(fq)) {
		values := strings.Join(fq[k], " or ")
		switch {
		case k == "finished" && values == "true":
			parts = append(parts, "finished")
		case k == "finished":
			parts = append(parts, "not finished")
		case k == "language":
			parts = append(parts, "language is "+values)
		case k == "page":
			parts = append(parts, "page is "+values)
		case strings.HasPrefix(k, "metadata."):
			parts = append(parts, "metadata "+strings.TrimPrefix(k, "metadata.")+" is "+values)
		case strings.HasSuffix(k, ".min"):
			parts = append(parts, title(strings.TrimSuffix(strings.TrimPrefix(k, "answer."), ".min"))+" at least "+values)
		case strings.HasSuffix(k, ".max"):
			parts = append(parts, title(strings.TrimSuffix(strings.TrimPrefix(k, "answer."), ".max"))+" at most "+values)
		default:
			parts = append(parts, "answer to "+title(strings.TrimPrefix(k, "answer."))+" is "+values)
		}
	}
	if len(parts) == 0 {
		return "All responses"
	}
	s := strings.Join(parts, "; ")
	first, n := utf8.DecodeRuneInString(s)
	return string(unicode.ToUpper(first)) + s[n:]
}
