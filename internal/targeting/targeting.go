// Package targeting decides which survey a person sees next (docs/api.md#display-rules), from the
// team's surveys' display rules, what is known of the person, and what the page says. It reads
// nothing itself: the caller brings the surveys (compiled once per version, see Compile), the
// person's history and attributes (read once per decision), and lookups for the two checks
// that memory cannot answer (a survey's responses, the app's Audience), which are asked only of
// a survey that passes every other rule. So a decision costs no scan, and every instance decides
// alike.
package targeting

import (
	"cmp"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/svc-feedback/svc/store"
	"github.com/svc-feedback/svc/survey"
)

// Reasons nothing was picked: the first rule that held back the best candidate the page could
// show (see Decide).
const (
	ReasonNoSurvey      = "no-survey"
	ReasonURL           = "url"
	ReasonEvent         = "event"
	ReasonAttributes    = "attributes"
	ReasonSampledOut    = "sampled-out"
	ReasonResponded     = "responded"
	ReasonRecontact     = "recontact"
	ReasonMaxDisplays   = "max-displays"
	ReasonCooldown      = "cooldown"
	ReasonSchedule      = "schedule"
	ReasonResponseLimit = "response-limit"
	ReasonAudience      = "audience"
)

// Ask is what the page asks with.
type Ask struct {
	Respondent string
	URL        string         // the page's URL, or its path, query and fragment
	Event      string         // the event the page reports; empty for a page view
	Attributes map[string]any // the page's, untrusted: the stored ones win
	Now        time.Time
}

// Lookups answer what a decision cannot from memory. Each may be nil: nobody responded, no
// limit to check, no Audience.
type Lookups struct {
	// Responded reports whether the person has a response to a survey.
	Responded func(surveyID string) (bool, error)
	// Responses counts a survey's responses, for its ResponseLimit.
	Responses func(surveyID string) (int64, error)
	// Audience reports whether the app lets the person see the survey.
	Audience func(surveyID string) (bool, error)
}

// Decision is the survey to show, with its delay, or none with the reason.
type Decision struct {
	SurveyID     string
	DelaySeconds int
	Reason       string
}

// Sort orders a team's surveys as Decide takes them: by priority, then the newest. Sort them
// once, as they are compiled.
func Sort(surveys []*Rules) {
	slices.SortFunc(surveys, func(a, b *Rules) int {
		return compareCandidates(candidate{Rules: a}, candidate{Rules: b})
	})
}

// Decide picks, among surveys (the team's active ones, in Sort's order), the survey the person
// sees next: the prompted ones first (oldest prompt first), then by priority, then the newest.
// A survey without display rules is a candidate only when prompted. cooldown is the team's: no
// survey (but those that ignore it) within that long of the person's last view of any. p is what
// the store read of the person (store.Targeter's Person); its Responded is the caller's, through
// l.Responded. onPage is what OnPage returned for ask and surveys: only its surveys can be
// picked unprompted, so the others cost no check.
//
// When nothing is picked, the reason is the first rule that held back the best candidate the
// page could show: a prompted one, or one whose URL and event rules the page passes (whatever
// its schedule). When there is none, it is event if a survey's URL rules let the page through
// (it awaits another event, or a page view), else url (or no-survey, for a team without display
// rules), and never more: what else holds back a survey meant for another page (its schedule,
// its audience, the person's history with it) is not the page's to know.
func Decide(ask Ask, surveys []*Rules, onPage Matched, p store.Person, cooldown time.Duration, l Lookups) (Decision, error) {
	prompted := activePrompts(p.Prompts, ask.Now)
	var cands []candidate // the prompted ones, by their prompts' age
	for _, r := range surveys {
		if len(prompted) == 0 {
			break
		}
		if pr, ok := prompted[r.SurveyID]; ok {
			cands = append(cands, candidate{r, true, pr})
		}
	}
	slices.SortFunc(cands, compareCandidates)
	attrs := mergeAttributes(ask.Attributes, p.Attributes)
	lastView := p.LastViewed()
	reason := ""
	// try checks one candidate: done when it is picked or fails.
	try := func(c candidate) (Decision, bool, error) {
		why, err := c.check(ask, p.Surveys[c.SurveyID], lastView, attrs, cooldown, l)
		if err != nil || why == "" {
			return Decision{SurveyID: c.SurveyID, DelaySeconds: c.rules().DelaySeconds}, true, err
		}
		if reason == "" {
			reason = why // the best candidate's
		}
		return Decision{}, false, nil
	}
	for _, c := range cands {
		if d, done, err := try(c); done {
			return d, err
		}
	}
	// Then the others the page could show (their URL and event rules let it through), in Sort's
	// order; a survey without rules only when prompted. Those outside their schedule fail on
	// it, before anything of the person is read.
	unprompted := func(r *Rules) bool { _, ok := prompted[r.SurveyID]; return !ok && r.display != nil }
	for _, r := range onPage.page {
		if !unprompted(r) {
			continue
		}
		if d, done, err := try(candidate{Rules: r}); done {
			return d, err
		}
	}
	if reason == "" {
		// None the page could show, and none prompted: every survey with rules failed on the
		// page's URL or event.
		reason = cmp.Or(onPage.missed, ReasonNoSurvey)
	}
	return Decision{Reason: reason}, nil
}

// Matched are the surveys with display rules that a page and moment let through (OnPage), in
// Sort's order, and their ids.
type Matched struct {
	Surveys []*Rules
	IDs     []string
	// page are the surveys the page's URL and event let through, whatever their schedule: the
	// ones that give the reason when nothing is picked. The same slice as Surveys when none of
	// them is outside its schedule.
	page []*Rules
	// missed is why the page could show none of the surveys: event when one's URL rules let it
	// through, else url; no-survey when none has display rules.
	missed string
}

// OnPage lists the surveys with display rules that the page and the moment let through (URL,
// event, schedule), before anything is read of the person: their history need be read only for
// these, and for the surveys they are prompted for. It notes for Decide, too, those of the page
// that their schedule alone holds back, and why the page could show none, if it could not.
func OnPage(ask Ask, surveys []*Rules) Matched {
	page := splitPage(ask.URL)
	m := Matched{missed: ReasonNoSurvey}
	held := false // a survey of the page is outside its schedule
	for _, r := range surveys {
		d := r.display
		if d == nil {
			continue
		}
		if !r.matchesURL(page) {
			if m.missed == ReasonNoSurvey {
				m.missed = ReasonURL
			}
			continue
		}
		if !hasEvent(d.Events, ask.Event) {
			m.missed = ReasonEvent
			continue
		}
		if !inSchedule(d, ask.Now) {
			if !held {
				m.page = slices.Clone(m.Surveys)
				held = true
			}
			m.page = append(m.page, r)
			continue
		}
		m.Surveys = append(m.Surveys, r)
		m.IDs = append(m.IDs, r.SurveyID)
		if held {
			m.page = append(m.page, r)
		}
	}
	if !held {
		m.page = m.Surveys
	}
	return m
}

// inSchedule reports whether a survey's schedule lets it be shown at now.
func inSchedule(d *survey.Display, now time.Time) bool {
	return (d.StartsAt == nil || !now.Before(*d.StartsAt)) && (d.EndsAt == nil || now.Before(*d.EndsAt))
}

// candidate is a survey that may be picked, and its prompt if it has one.
type candidate struct {
	*Rules
	prompted bool
	prompt   store.Prompt
}

func (c candidate) rules() *survey.Display {
	if c.display == nil {
		return &survey.Display{} // a prompted survey without rules: the defaults
	}
	return c.display
}

// compareCandidates orders the candidates: prompted first, by their prompts' age; then higher
// priority; then the newest survey.
func compareCandidates(a, b candidate) int {
	if a.prompted != b.prompted {
		if a.prompted {
			return -1
		}
		return 1
	}
	if a.prompted {
		if c := a.prompt.CreatedAt.Compare(b.prompt.CreatedAt); c != 0 {
			return c
		}
	}
	if c := cmp.Compare(b.rules().Priority, a.rules().Priority); c != 0 {
		return c
	}
	if c := b.CreatedAt.Compare(a.CreatedAt); c != 0 {
		return c
	}
	return cmp.Compare(b.SurveyID, a.SurveyID)
}

// activePrompts are the person's prompts not yet expired, by survey: the oldest of each.
func activePrompts(prompts []store.Prompt, now time.Time) map[string]store.Prompt {
	if len(prompts) == 0 {
		return nil
	}
	out := make(map[string]store.Prompt, len(prompts))
	for _, pr := range prompts {
		if pr.ExpiresAt != nil && !now.Before(*pr.ExpiresAt) {
			continue
		}
		if old, ok := out[pr.SurveyID]; !ok || pr.CreatedAt.Before(old.CreatedAt) {
			out[pr.SurveyID] = pr
		}
	}
	return out
}

// check returns the first rule that holds the candidate back, or "". A candidate not prompted
// is one whose page rules (URL, event) the page passes (OnPage): the rest are checked here. A
// prompt asks for the person by name: the page's rules and the audience rules (attributes,
// sampling) do not hold it back; the schedule, the person's history, the cooldown and the app do.
func (c candidate) check(ask Ask, seen store.Seen, lastView time.Time, attrs map[string]any, cooldown time.Duration, l Lookups) (string, error) {
	d := c.rules()
	if !inSchedule(d, ask.Now) {
		return ReasonSchedule, nil
	}
	if !c.prompted {
		if why := audience(d, c.SurveyID, ask.Respondent, attrs); why != "" {
			return why, nil
		}
	}
	if why, err := history(d, c.SurveyID, seen, ask.Now, l.Responded); why != "" || err != nil {
		return why, err
	}
	if cooldown > 0 && !d.IgnoreCooldown && !lastView.IsZero() && ask.Now.Before(lastView.Add(cooldown)) {
		return ReasonCooldown, nil
	}
	if d.ResponseLimit > 0 && l.Responses != nil {
		n, err := l.Responses(c.SurveyID)
		if err != nil {
			return "", fmt.Errorf("responses of survey %s: %w", c.SurveyID, err)
		}
		if n >= d.ResponseLimit {
			return ReasonResponseLimit, nil
		}
	}
	if l.Audience != nil {
		ok, err := l.Audience(c.SurveyID)
		if err != nil {
			return "", fmt.Errorf("audience of survey %s: %w", c.SurveyID, err)
		}
		if !ok {
			return ReasonAudience, nil
		}
	}
	return "", nil
}

// audience checks the rules of the person's attributes and sample.
func audience(d *survey.Display, surveyID, respondent string, attrs map[string]any) string {
	switch {
	case !matchesAttributes(d.Attributes, attrs):
		return ReasonAttributes
	case d.Percentage != nil && !Sampled(surveyID, respondent, *d.Percentage):
		return ReasonSampledOut
	}
	return ""
}

// hasEvent reports whether the page's event is one the survey waits for: with no events, a
// page view (no event) is.
func hasEvent(events []string, event string) bool {
	if len(events) == 0 {
		return event == ""
	}
	return slices.Contains(events, event)
}

// history checks the person's history with the survey against its recontact rules; whether
// they responded is asked only of a survey shown until they do, and last.
func history(d *survey.Display, id string, seen store.Seen, now time.Time, responded func(string) (bool, error)) (string, error) {
	policy := d.Recontact
	if policy == "" {
		policy = survey.RecontactUntilResponded
	}
	if policy == survey.RecontactOnce && seen.Views > 0 {
		return ReasonRecontact, nil
	}
	if d.RecontactDays > 0 {
		last := seen.LastViewed
		if seen.LastDismissed.After(last) {
			last = seen.LastDismissed
		}
		if !last.IsZero() && now.Before(last.AddDate(0, 0, d.RecontactDays)) {
			return ReasonRecontact, nil
		}
	}
	if d.MaxDisplays > 0 && seen.Views >= d.MaxDisplays {
		return ReasonMaxDisplays, nil
	}
	if policy == survey.RecontactUntilResponded && responded != nil {
		yes, err := responded(id)
		if err != nil {
			return "", fmt.Errorf("responses of survey %s: %w", id, err)
		}
		if yes {
			return ReasonResponded, nil
		}
	}
	return "", nil
}

// Sampled reports whether a survey shown to percentage per cent of people is shown to
// respondent: a hash of both, so the same person gets the same answer on every device and
// every instance, and each survey samples people independently of the others.
func Sampled(surveyID, respondent string, percentage float64) bool {
	sum := sha256.Sum256([]byte(surveyID + "\x00" + respondent))
	x := float64(binary.BigEndian.Uint64(sum[:8])) / math.Exp2(64) // uniform in [0, 1)
	return x*100 < percentage
}
