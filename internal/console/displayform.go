package console

import (
	"encoding/json"
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/svc-feedback/svc/survey"
)

// Display rules in the editor (docs/api.md#display-rules): who svc shows the survey to by
// itself, on which pages, how often and when. Each list is rows of fields, a rule a row, each
// added and removed by a button that works without script; the times are shown in the browser's
// time zone, named beside them, and stored in UTC (the editor's script: widget/src/editor).

// editDisplay is a survey's display rules as the form shows them: every value as typed.
type editDisplay struct {
	On bool
	// Pages and Exclude are URL rules (Op the match, Value the address), Attributes attribute
	// rules (Key, Op, Value), Events the events' names (Value).
	Pages, Exclude, Attributes, Events   []displayRow
	Delay, Percentage, RecontactDays     string
	MaxDisplays, ResponseLimit, Priority string
	Recontact, Starts, Ends              string
	// StartsOffset and EndsOffset are the minutes east of UTC of the zone Starts and Ends are
	// written in: 0, UTC, until the editor's script fills in the browser's.
	StartsOffset, EndsOffset string
	IgnoreCooldown           bool
	Recontacts               []choice
	Error                    string
	// Focus is the list whose Add button the page focuses, its last row just removed.
	Focus string
}

// displayRow is a rule of one of the lists as a row of the form. JSON is an attribute rule's
// stored value, kept while its text is unchanged, so that the text "10" of a string stays a
// string. Focus puts the focus on the row's first field when the page comes back from a button.
type displayRow struct {
	N                    int // 1-based
	Op, Key, Value, JSON string
	Focus                bool
}

// urlMatches are a URL rule's kinds of match, with their names for people; a new rule starts
// with the first.
var urlMatches = []struct{ Value, Label string }{
	{survey.MatchPrefix, "starts with"}, {survey.MatchExact, "is"}, {survey.MatchContains, "contains"},
	{survey.MatchRegex, "matches the regular expression"},
}

// attributeOperators are an attribute rule's operators, with their names for people.
var attributeOperators = []struct{ Value, Label string }{
	{survey.OpEqual, "is"}, {survey.OpNotEqual, "is not"}, {survey.OpContains, "contains"}, {survey.OpGreater, "is more than"},
	{survey.OpLess, "is less than"}, {survey.OpIn, "is one of"}, {survey.OpNotIn, "is not one of"},
	{survey.OpExists, "is set"}, {survey.OpNotExists, "is not set"},
}

// MatchChoices and OperatorChoices are the choices of a row's select, for the template.
func (r displayRow) MatchChoices() []choice    { return choicesOf(urlMatches, r.Op) }
func (r displayRow) OperatorChoices() []choice { return choicesOf(attributeOperators, r.Op) }

// displayLists are the form's lists of rows: each one's field name, the limit of its rules,
// and what a row is called in a message.
var displayLists = []struct {
	name, prefix, what string
	max                int
}{
	{"pages", "p", "page rule", survey.MaxURLRules}, {"exclude", "x", "excluded page rule", survey.MaxURLRules},
	{"attributes", "a", "attribute rule", survey.MaxAttributeRules}, {"events", "e", "event", survey.MaxEvents},
}

func (e *editDisplay) list(name string) *[]displayRow {
	switch name {
	case "pages":
		return &e.Pages
	case "exclude":
		return &e.Exclude
	case "attributes":
		return &e.Attributes
	case "events":
		return &e.Events
	}
	return nil
}

const dateTimeLocal = "2006-01-02T15:04"

var recontacts = []struct{ Value, Label string }{
	{survey.RecontactUntilResponded, "Until they respond"}, {survey.RecontactOnce, "Once"}, {survey.RecontactAlways, "Every time they qualify"},
}

// viewDisplay is stored display rules as the form shows them, times in UTC.
func viewDisplay(d *survey.Display) editDisplay {
	if d == nil {
		return editDisplay{StartsOffset: "0", EndsOffset: "0"}
	}
	e := editDisplay{On: true, Recontact: d.Recontact, IgnoreCooldown: d.IgnoreCooldown,
		Pages: urlRows(d.URLs), Exclude: urlRows(d.ExcludeURLs), StartsOffset: "0", EndsOffset: "0"}
	for _, a := range d.Attributes {
		b, _ := json.Marshal(a.Value)
		e.Attributes = append(e.Attributes, displayRow{Key: a.Key, Op: a.Operator, Value: attributeText(a.Value), JSON: string(b)})
	}
	for _, ev := range d.Events {
		e.Events = append(e.Events, displayRow{Value: ev})
	}
	e.number()
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

func urlRows(rules []survey.URLRule) []displayRow {
	var rows []displayRow
	for _, u := range rules {
		rows = append(rows, displayRow{Op: u.Match, Value: u.Value})
	}
	return rows
}

// attributeText is an attribute rule's value as the form shows it: a list's values parted by
// commas.
func attributeText(v any) string {
	switch v := v.(type) {
	case nil:
		return ""
	case []any:
		parts := make([]string, len(v))
		for i, x := range v {
			parts[i] = fmt.Sprint(x)
		}
		return strings.Join(parts, ", ")
	case float64:
		return strconv.FormatFloat(v, 'f', -1, 64)
	}
	return fmt.Sprint(v)
}

// number numbers each list's rows.
func (e *editDisplay) number() {
	for _, l := range displayLists {
		rows := *e.list(l.name)
		for j := range rows {
			rows[j].N = j + 1
		}
	}
}

// formDisplay reads the form's display rules.
func formDisplay(f url.Values) editDisplay {
	e := editDisplay{On: f.Get("display") == "on", Delay: f.Get("d.delay"), Percentage: f.Get("d.percentage"), RecontactDays: f.Get("d.recontactDays"),
		MaxDisplays: f.Get("d.maxDisplays"), ResponseLimit: f.Get("d.responseLimit"), Priority: f.Get("d.priority"),
		Recontact: f.Get("d.recontact"), Starts: f.Get("d.starts"), Ends: f.Get("d.ends"), IgnoreCooldown: f.Get("d.ignoreCooldown") == "on",
		StartsOffset: f.Get("d.startsOffset"), EndsOffset: f.Get("d.endsOffset")}
	for _, l := range displayLists {
		n, _ := strconv.Atoi(f.Get("d." + l.name))
		n = min(max(n, 0), l.max+1)
		rows := make([]displayRow, n)
		for j := range n {
			p := fmt.Sprintf("d.%s%d.", l.prefix, j)
			rows[j] = displayRow{Op: f.Get(p + "op"), Key: f.Get(p + "key"), Value: f.Get(p + "value"), JSON: f.Get(p + "json")}
		}
		*e.list(l.name) = rows
	}
	e.number()
	return e
}

// rowAction applies a button of the lists' rows: "d-add:pages" adds a row to a list (pages,
// exclude, attributes or events), "d-remove:pages.1" removes one; the focus goes back to the
// new row, or the row now in the place of the one removed, or the list's Add button. Nothing is
// saved until Save.
func (e *editDisplay) rowAction(action, arg string) (notice string) {
	name, row, _ := strings.Cut(arg, ".")
	i := slices.IndexFunc(displayLists, func(l struct {
		name, prefix, what string
		max                int
	}) bool {
		return l.name == name
	})
	if i < 0 {
		return ""
	}
	l, rows := displayLists[i], e.list(name)
	switch action {
	case "d-add":
		if len(*rows) >= l.max {
			return fmt.Sprintf("The display rules hold at most %d of this kind.", l.max)
		}
		r := displayRow{Focus: true}
		switch name {
		case "pages", "exclude":
			r.Op = urlMatches[0].Value
		case "attributes":
			r.Op = survey.OpEqual
		}
		*rows = append(*rows, r)
	case "d-remove":
		j, err := strconv.Atoi(row)
		if err != nil || j < 0 || j >= len(*rows) {
			return ""
		}
		*rows = slices.Delete(*rows, j, j+1)
		if len(*rows) == 0 {
			e.Focus = name
		} else {
			(*rows)[min(j, len(*rows)-1)].Focus = true
		}
		notice = fmt.Sprintf("%s %d removed: save to keep the change.", strings.ToUpper(l.what[:1])+l.what[1:], j+1)
	}
	e.number()
	return notice
}

// display is the survey's display rules the form gives (nil when svc does not show it by
// itself), or what a field holds that is not a rule, in words.
func (e editDisplay) display() (*survey.Display, error) {
	if !e.On {
		return nil, nil
	}
	d := &survey.Display{Recontact: e.Recontact, IgnoreCooldown: e.IgnoreCooldown}
	var err error
	if d.URLs, err = urlRules(e.Pages, "page rule"); err != nil {
		return nil, err
	}
	if d.ExcludeURLs, err = urlRules(e.Exclude, "excluded page rule"); err != nil {
		return nil, err
	}
	for j, r := range e.Events {
		v := strings.TrimSpace(r.Value)
		if v == "" {
			return nil, fmt.Errorf("event %d has no name: write one, or remove it", j+1)
		}
		d.Events = append(d.Events, v)
	}
	for j, r := range e.Attributes {
		a, err := r.attributeRule()
		if err != nil {
			return nil, fmt.Errorf("attribute rule %d %s", j+1, err)
		}
		d.Attributes = append(d.Attributes, a)
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
		label, v, offset string
		dst              **time.Time
	}{{"From", e.Starts, e.StartsOffset, &d.StartsAt}, {"Until", e.Ends, e.EndsOffset, &d.EndsAt}} {
		if s := strings.TrimSpace(t.v); s != "" {
			at, err := time.Parse(dateTimeLocal, s)
			if err != nil {
				return nil, fmt.Errorf("%s must be a date and time", t.label)
			}
			off, ok := zoneOffset(t.offset)
			if !ok {
				return nil, fmt.Errorf("the time zone of %s is not one on Earth", t.label)
			}
			at = at.Add(-time.Duration(off) * time.Minute) // in UTC
			*t.dst = &at
		}
	}
	return d, nil
}

// zoneOffset reads a time field's offset, in minutes east of UTC: empty is UTC.
func zoneOffset(s string) (int, bool) {
	if s = strings.TrimSpace(s); s == "" {
		return 0, true
	}
	n, err := strconv.Atoi(s)
	return n, err == nil && n >= -14*60 && n <= 14*60
}

// StartsZone and EndsZone name the zones of the times as the form shows them.
func (e editDisplay) StartsZone() string { return zoneName(e.StartsOffset) }
func (e editDisplay) EndsZone() string   { return zoneName(e.EndsOffset) }

// zoneName names the zone of an offset the way the form does before its script names the
// browser's zone: "UTC", "UTC+01:00".
func zoneName(offset string) string {
	n, ok := zoneOffset(offset)
	if !ok || n == 0 {
		return "UTC"
	}
	sign := "+"
	if n < 0 {
		sign, n = "−", -n
	}
	return fmt.Sprintf("UTC%s%02d:%02d", sign, n/60, n%60)
}

// urlRules are the rows' URL rules; what names a row in a message.
func urlRules(rows []displayRow, what string) ([]survey.URLRule, error) {
	var out []survey.URLRule
	for j, r := range rows {
		v := strings.TrimSpace(r.Value)
		if v == "" {
			return nil, fmt.Errorf("%s %d has no page: write an address, such as /docs, or remove the rule", what, j+1)
		}
		out = append(out, survey.URLRule{Match: r.Op, Value: v})
	}
	return out, nil
}

// attributeRule is the row's attribute rule: its key, operator and value (a number, true or
// false, or text; values parted by commas for "is one of" and "is not one of"; none for "is
// set" and "is not set"). A stored value is kept while its text is unchanged.
func (r displayRow) attributeRule() (survey.AttributeRule, error) {
	a := survey.AttributeRule{Key: strings.TrimSpace(r.Key), Operator: r.Op}
	if a.Key == "" {
		return a, fmt.Errorf("names no attribute: write one, such as plan, or remove the rule")
	}
	value := strings.TrimSpace(r.Value)
	var stored any
	if r.JSON != "" && json.Unmarshal([]byte(r.JSON), &stored) == nil && stored != nil && attributeText(stored) == value {
		if _, isList := stored.([]any); isList == (a.Operator == survey.OpIn || a.Operator == survey.OpNotIn) {
			a.Value = stored
		}
	}
	switch a.Operator {
	case survey.OpExists, survey.OpNotExists:
		a.Value = nil
	case survey.OpIn, survey.OpNotIn:
		if a.Value != nil {
			break
		}
		var list []any
		for v := range strings.SplitSeq(value, ",") {
			if v = strings.TrimSpace(v); v != "" {
				list = append(list, typed(v))
			}
		}
		if len(list) == 0 {
			return a, fmt.Errorf("has no values: write them parted by commas, such as pro, team")
		}
		a.Value = list
	default:
		if a.Value == nil {
			a.Value = typed(value)
		}
	}
	return a, nil
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
