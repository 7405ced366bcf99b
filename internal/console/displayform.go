package console

import (
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/svc-feedback/svc/survey"
)

// Display rules in the editor (extensions.md sections 7 and 8): who svc shows the survey to by
// itself, on which pages, how often and when. Lists are written a rule a line, as people say
// them: "starts with /docs", "plan is one of pro, team".

// editDisplay is a survey's display rules as the form shows them: every value as typed.
type editDisplay struct {
	On                                   bool
	Pages, Exclude, Events, Attributes   string
	Delay, Percentage, RecontactDays     string
	MaxDisplays, ResponseLimit, Priority string
	Recontact, Starts, Ends              string
	IgnoreCooldown                       bool
	Recontacts                           []choice
	Error                                string
}

// urlPhrases are a URL rule's kinds of match as a line begins with them.
var urlPhrases = []struct{ match, phrase string }{
	{survey.MatchPrefix, "starts with"}, {survey.MatchExact, "is"}, {survey.MatchContains, "contains"}, {survey.MatchRegex, "matches"},
}

// attributePhrases are an attribute rule's operators as a line says them after the key,
// longest first, so "is not one of" is not read as "is".
var attributePhrases = []struct{ op, phrase string }{
	{survey.OpNotIn, "is not one of"}, {survey.OpNotExists, "is not set"}, {survey.OpGreater, "is more than"},
	{survey.OpLess, "is less than"}, {survey.OpIn, "is one of"}, {survey.OpNotEqual, "is not"}, {survey.OpExists, "is set"},
	{survey.OpContains, "contains"}, {survey.OpEqual, "is"},
}

const dateTimeLocal = "2006-01-02T15:04"

var recontacts = []struct{ Value, Label string }{
	{survey.RecontactUntilResponded, "Until they respond"}, {survey.RecontactOnce, "Once"}, {survey.RecontactAlways, "Every time they qualify"},
}

// viewDisplay is stored display rules as the form shows them.
func viewDisplay(d *survey.Display) editDisplay {
	if d == nil {
		return editDisplay{}
	}
	e := editDisplay{On: true, Events: strings.Join(d.Events, "\n"), Recontact: d.Recontact, IgnoreCooldown: d.IgnoreCooldown,
		Pages: urlLines(d.URLs), Exclude: urlLines(d.ExcludeURLs)}
	var lines []string
	for _, a := range d.Attributes {
		lines = append(lines, attributeLine(a))
	}
	e.Attributes = strings.Join(lines, "\n")
	num := func(n int64) string {
		if n == 0 {
			return ""
		}
		return strconv.FormatInt(n, 10)
	}
	e.Delay, e.RecontactDays, e.MaxDisplays, e.ResponseLimit = num(int64(d.DelaySeconds)), num(int64(d.RecontactDays)), num(int64(d.MaxDisplays)), num(d.ResponseLimit)
	if d.Percentage != nil {
		e.Percentage = strconv.FormatFloat(*d.Percentage, 'f', -1, 64)
	}
	if d.Priority != 0 {
		e.Priority = strconv.FormatFloat(d.Priority, 'f', -1, 64)
	}
	if d.StartsAt != nil {
		e.Starts = d.StartsAt.UTC().Format(dateTimeLocal)
	}
	if d.EndsAt != nil {
		e.Ends = d.EndsAt.UTC().Format(dateTimeLocal)
	}
	return e
}

func urlLines(rules []survey.URLRule) string {
	lines := make([]string, 0, len(rules))
	for _, u := range rules {
		i := slices.IndexFunc(urlPhrases, func(p struct{ match, phrase string }) bool { return p.match == u.Match })
		lines = append(lines, urlPhrases[max(i, 0)].phrase+" "+u.Value)
	}
	return strings.Join(lines, "\n")
}

func attributeLine(a survey.AttributeRule) string {
	i := slices.IndexFunc(attributePhrases, func(p struct{ op, phrase string }) bool { return p.op == a.Operator })
	line := a.Key + " " + attributePhrases[max(i, 0)].phrase
	switch v := a.Value.(type) {
	case nil:
	case []any:
		parts := make([]string, len(v))
		for i, x := range v {
			parts[i] = fmt.Sprint(x)
		}
		line += " " + strings.Join(parts, ", ")
	default:
		line += " " + fmt.Sprint(v)
	}
	return line
}

// formDisplay reads the form's display rules.
func formDisplay(f url.Values) editDisplay {
	return editDisplay{On: f.Get("display") == "on", Pages: f.Get("d.pages"), Exclude: f.Get("d.exclude"), Events: f.Get("d.events"),
		Attributes: f.Get("d.attributes"), Delay: f.Get("d.delay"), Percentage: f.Get("d.percentage"), RecontactDays: f.Get("d.recontactDays"),
		MaxDisplays: f.Get("d.maxDisplays"), ResponseLimit: f.Get("d.responseLimit"), Priority: f.Get("d.priority"),
		Recontact: f.Get("d.recontact"), Starts: f.Get("d.starts"), Ends: f.Get("d.ends"), IgnoreCooldown: f.Get("d.ignoreCooldown") == "on"}
}

// display is the survey's display rules the form gives (nil when svc does not show it by
// itself), or what a field holds that is not a rule, in words.
func (e editDisplay) display() (*survey.Display, error) {
	if !e.On {
		return nil, nil
	}
	d := &survey.Display{Recontact: e.Recontact, IgnoreCooldown: e.IgnoreCooldown, URLs: urlRules(e.Pages), ExcludeURLs: urlRules(e.Exclude)}
	for line := range strings.Lines(e.Events) {
		if v := strings.TrimSpace(line); v != "" {
			d.Events = append(d.Events, v)
		}
	}
	for line := range strings.Lines(e.Attributes) {
		if v := strings.TrimSpace(line); v != "" {
			a, err := attributeRule(v)
			if err != nil {
				return nil, err
			}
			d.Attributes = append(d.Attributes, a)
		}
	}
	ints := []struct {
		label, v string
		dst      *int
	}{{"Delay", e.Delay, &d.DelaySeconds}, {"Days before asking again", e.RecontactDays, &d.RecontactDays}, {"Most views per person", e.MaxDisplays, &d.MaxDisplays}}
	for _, n := range ints {
		if s := strings.TrimSpace(n.v); s != "" {
			v, err := strconv.Atoi(s)
			if err != nil {
				return nil, fmt.Errorf("%s must be a whole number", n.label)
			}
			*n.dst = v
		}
	}
	if s := strings.TrimSpace(e.ResponseLimit); s != "" {
		v, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return nil, fmt.Errorf("the response limit must be a whole number")
		}
		d.ResponseLimit = v
	}
	if s := strings.TrimSpace(e.Percentage); s != "" {
		v, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return nil, fmt.Errorf("the share of people must be a number of per cent")
		}
		d.Percentage = &v
	}
	if s := strings.TrimSpace(e.Priority); s != "" {
		v, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return nil, fmt.Errorf("the priority must be a number")
		}
		d.Priority = v
	}
	for _, t := range []struct {
		label, v string
		dst      **time.Time
	}{{"From", e.Starts, &d.StartsAt}, {"Until", e.Ends, &d.EndsAt}} {
		if s := strings.TrimSpace(t.v); s != "" {
			at, err := time.Parse(dateTimeLocal, s)
			if err != nil {
				return nil, fmt.Errorf("%s must be a date and time", t.label)
			}
			*t.dst = &at
		}
	}
	return d, nil
}

// urlRules reads lines such as "starts with /docs"; a line with no known beginning is a
// "contains".
func urlRules(text string) []survey.URLRule {
	var out []survey.URLRule
	for line := range strings.Lines(text) {
		v := strings.TrimSpace(line)
		if v == "" {
			continue
		}
		rule := survey.URLRule{Match: survey.MatchContains, Value: v}
		for _, p := range urlPhrases {
			if rest, ok := strings.CutPrefix(v, p.phrase+" "); ok {
				rule = survey.URLRule{Match: p.match, Value: strings.TrimSpace(rest)}
				break
			}
		}
		out = append(out, rule)
	}
	return out
}

// attributeRule reads a line such as "plan is one of pro, team" or "seats is more than 10":
// the key, an operator's phrase, and its value (a number, true or false, or text).
func attributeRule(line string) (survey.AttributeRule, error) {
	key, rest, _ := strings.Cut(line, " ")
	for _, p := range attributePhrases {
		after, ok := strings.CutPrefix(rest+" ", p.phrase+" ")
		if !ok {
			continue
		}
		a := survey.AttributeRule{Key: key, Operator: p.op}
		value := strings.TrimSpace(after)
		switch p.op {
		case survey.OpExists, survey.OpNotExists:
		case survey.OpIn, survey.OpNotIn:
			var list []any
			for v := range strings.SplitSeq(value, ",") {
				list = append(list, typed(strings.TrimSpace(v)))
			}
			a.Value = list
		default:
			a.Value = typed(value)
		}
		return a, nil
	}
	return survey.AttributeRule{}, fmt.Errorf("“%s” is not a rule about a person: write the attribute, then is, is not, contains, is more than, is less than, is one of, is not one of, is set or is not set, then the value", line)
}

// typed is a rule's value as a person wrote it: a number, true or false, else text.
func typed(s string) any {
	if s == "true" || s == "false" {
		return s == "true"
	}
	if n, err := strconv.ParseFloat(s, 64); err == nil {
		return n
	}
	return s
}
