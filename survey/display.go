package survey

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// Display holds a survey's targeting rules (docs/api.md#display-rules): on which pages, for whom,
// how often and when svc picks the survey for a person who asks for the next survey. Every
// member is optional; a survey without Display is never picked, only shown where the host page
// calls Svc.show. The rules are the team's, never sent to a browser.
type Display struct {
	// URLs: the page must match one; none means every page.
	URLs []URLRule `json:"urls,omitempty"`
	// ExcludeURLs: a page that matches any is left out.
	ExcludeURLs []URLRule `json:"excludeUrls,omitempty"`
	// Attributes must all hold for the person's attributes.
	Attributes []AttributeRule `json:"attributes,omitempty"`
	// Events: the survey is picked only when the page reports one of them; none means on a page
	// view.
	Events []string `json:"events,omitempty"`
	// DelaySeconds is how long the widget waits, once the survey is picked, before showing it.
	DelaySeconds int `json:"delaySeconds,omitempty"`
	// Percentage, 0.01 to 100, is the share of people who may see it (see Sampled).
	Percentage *float64 `json:"percentage,omitempty"`
	// Recontact is RecontactOnce, RecontactUntilResponded (the default) or RecontactAlways.
	Recontact string `json:"recontact,omitempty"`
	// RecontactDays keeps the survey from a person within this many days of their last view or
	// dismissal of it.
	RecontactDays int `json:"recontactDays,omitempty"`
	// MaxDisplays is how many views one person may have of it; 0 means no limit.
	MaxDisplays int `json:"maxDisplays,omitempty"`
	// StartsAt and EndsAt bound when it is picked.
	StartsAt *time.Time `json:"startsAt,omitempty"`
	EndsAt   *time.Time `json:"endsAt,omitempty"`
	// ResponseLimit stops it being picked once it has this many responses; 0 means no limit.
	ResponseLimit int64 `json:"responseLimit,omitempty"`
	// IgnoreCooldown lets it be picked within the team's cooldown.
	IgnoreCooldown bool `json:"ignoreCooldown,omitempty"`
	// Priority orders the surveys a person may see, higher first; ties go to the newest.
	Priority float64 `json:"priority,omitempty"`
}

// URLRule matches a page's URL: its path, query and fragment, or the whole URL, fragment
// included, when Value has a scheme.
type URLRule struct {
	Match string `json:"match"` // MatchExact, MatchPrefix, MatchContains or MatchRegex
	Value string `json:"value"`
}

// AttributeRule compares one of the person's attributes with Value.
type AttributeRule struct {
	Key      string `json:"key"`
	Operator string `json:"operator"`
	// Value is a string, number or boolean; a list of them for OpIn and OpNotIn; absent for
	// OpExists and OpNotExists.
	Value any `json:"value,omitempty"`
}

// URL rules' kinds of match.
const (
	MatchExact    = "exact"
	MatchPrefix   = "prefix"
	MatchContains = "contains"
	MatchRegex    = "regex"
)

// Attribute rules' operators besides those they share with routing (OpEqual, OpNotEqual,
// OpContains, OpGreater, OpLess).
const (
	OpIn        = "in"
	OpNotIn     = "not-in"
	OpExists    = "exists"
	OpNotExists = "not-exists"
)

// Recontact policies.
const (
	RecontactOnce           = "once"
	RecontactUntilResponded = "until-responded"
	RecontactAlways         = "always"
)

// Limits of the display rules: they are evaluated for every survey of a team on every request
// for the next survey, so each list is short, and a regular expression is bounded (Go's regexp
// runs in time linear in its input, whatever the pattern).
const (
	MaxURLRules       = 50
	MaxAttributeRules = 50
	MaxEvents         = 50
	MaxRuleValue      = 2000 // characters of a URL rule's or an attribute's value, or an event name
	MaxRegex          = 500  // characters of a regular expression
	MaxInValues       = 100
	MaxDelaySeconds   = 3600
	MaxRecontactDays  = 3650
)

// validateDisplay checks the display rules, naming the member at fault.
func validateDisplay(d *Display) error {
	if err := validateURLRules("display.urls", d.URLs); err != nil {
		return err
	}
	if err := validateURLRules("display.excludeUrls", d.ExcludeURLs); err != nil {
		return err
	}
	if len(d.Attributes) > MaxAttributeRules {
		return invalid("display.attributes may hold at most %d rules", MaxAttributeRules)
	}
	for i, r := range d.Attributes {
		if err := validateAttributeRule(fmt.Sprintf("display.attributes[%d]", i), r); err != nil {
			return err
		}
	}
	if len(d.Events) > MaxEvents {
		return invalid("display.events may hold at most %d names", MaxEvents)
	}
	for i, e := range d.Events {
		if e == "" || utf8.RuneCountInString(e) > MaxRuleValue {
			return invalid("display.events[%d] must be a name of 1 to %d characters", i, MaxRuleValue)
		}
	}
	return validateDisplayLimits(d)
}

// validateDisplayLimits checks the display rules' numbers, times and policy.
func validateDisplayLimits(d *Display) error {
	switch {
	case d.DelaySeconds < 0 || d.DelaySeconds > MaxDelaySeconds:
		return invalid("display.delaySeconds must be from 0 to %d", MaxDelaySeconds)
	case d.Percentage != nil && !(*d.Percentage >= 0.01 && *d.Percentage <= 100):
		return invalid("display.percentage must be from 0.01 to 100")
	case d.Recontact != "" && d.Recontact != RecontactOnce && d.Recontact != RecontactUntilResponded && d.Recontact != RecontactAlways:
		return invalid("display.recontact must be once, until-responded or always")
	case d.RecontactDays < 0 || d.RecontactDays > MaxRecontactDays:
		return invalid("display.recontactDays must be from 0 to %d", MaxRecontactDays)
	case d.MaxDisplays < 0:
		return invalid("display.maxDisplays must not be negative")
	case d.ResponseLimit < 0:
		return invalid("display.responseLimit must not be negative")
	case d.StartsAt != nil && d.EndsAt != nil && !d.StartsAt.Before(*d.EndsAt):
		return invalid("display.endsAt must be after display.startsAt")
	case math.IsNaN(d.Priority) || math.IsInf(d.Priority, 0):
		return invalid("display.priority must be a number")
	}
	return nil
}

func validateURLRules(at string, rules []URLRule) error {
	if len(rules) > MaxURLRules {
		return invalid("%s may hold at most %d rules", at, MaxURLRules)
	}
	for i, r := range rules {
		at := fmt.Sprintf("%s[%d]", at, i)
		if r.Value == "" {
			return invalid("%s.value is required", at)
		}
		switch r.Match {
		case MatchExact, MatchPrefix, MatchContains:
			if utf8.RuneCountInString(r.Value) > MaxRuleValue {
				return invalid("%s.value may have at most %d characters", at, MaxRuleValue)
			}
		case MatchRegex:
			if utf8.RuneCountInString(r.Value) > MaxRegex {
				return invalid("%s.value: a regular expression may have at most %d characters", at, MaxRegex)
			}
			if _, err := regexp.Compile(r.Value); err != nil {
				return invalid("%s.value is not a regular expression Go reads: %v", at, err)
			}
		default:
			return invalid("%s.match must be exact, prefix, contains or regex", at)
		}
	}
	return nil
}

func validateAttributeRule(at string, r AttributeRule) error {
	if r.Key == "" || utf8.RuneCountInString(r.Key) > MaxRuleValue {
		return invalid("%s.key must be a name of 1 to %d characters", at, MaxRuleValue)
	}
	switch r.Operator {
	case OpExists, OpNotExists:
		if r.Value != nil {
			return invalid("%s.value must be absent for %s", at, r.Operator)
		}
	case OpIn, OpNotIn:
		list, ok := r.Value.([]any)
		if !ok || len(list) == 0 || len(list) > MaxInValues {
			return invalid("%s.value must be a list of 1 to %d strings, numbers or booleans for %s", at, MaxInValues, r.Operator)
		}
		for _, v := range list {
			if !attributeScalar(v) {
				return invalid("%s.value must hold only strings, numbers or booleans", at)
			}
		}
	case OpEqual, OpNotEqual, OpContains, OpGreater, OpLess:
		if !attributeScalar(r.Value) {
			return invalid("%s.value must be a string, number or boolean for %s", at, r.Operator)
		}
		if _, isNumber := NumberOf(r.Value); (r.Operator == OpGreater || r.Operator == OpLess) && !isNumber {
			return invalid("%s.value must be a number for %s", at, r.Operator)
		}
	default:
		return invalid("%s.operator must be one of equal, not-equal, in, not-in, contains, greater, less, exists, not-exists", at)
	}
	return nil
}

// attributeScalar reports whether v is a value an attribute may hold: a string of at most
// MaxRuleValue characters, a finite number, or a boolean.
func attributeScalar(v any) bool {
	switch v := v.(type) {
	case string:
		return utf8.RuneCountInString(v) <= MaxRuleValue
	case float64:
		return !math.IsNaN(v) && !math.IsInf(v, 0)
	case bool:
		return true
	}
	return false
}

// NumberOf reads an attribute's value as a number: a JSON number, or a string that reads as
// one (a page may send "42" for 42).
func NumberOf(v any) (float64, bool) {
	switch v := v.(type) {
	case float64:
		return v, true
	case string:
		f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
		if err == nil && !math.IsNaN(f) && !math.IsInf(f, 0) {
			return f, true
		}
	}
	return 0, false
}
