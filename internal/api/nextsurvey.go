package api

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"
	"unicode/utf8"

	"github.com/svc-feedback/svc/internal/nextsurvey"
	"github.com/svc-feedback/svc/internal/targeting"
	"github.com/svc-feedback/svc/store"
)

// POST /v1/svc/next-survey (docs/api.md#display-rules) answers from memory as far as it can: the
// team's active surveys with their rules compiled are kept for rulesTTL (a change made through
// this handler drops them at once; one made elsewhere shows within rulesTTL), with the surveys
// each page lets through (targeting.Pages); the person's attributes, prompts, views and
// responses are asked of the store once, which keeps them in memory until a write changes them
// (see store/internal/personcache); and only a survey that passes every rule memory can check
// costs a read more (its response count, or a response to a prompted survey off the page).

// rulesTTL is how long a team's surveys and rules are kept before the store is asked whether
// they changed; rulesReread is how long they are kept at most.
const (
	rulesTTL    = time.Second
	rulesReread = time.Minute
)

// Bounds of a next-survey ask.
const (
	maxAskBody = 64 << 10
	maxPageURL = 8192
)

// teamRules are a team's active surveys, newest first, with their rules compiled, and its
// cooldown.
type teamRules struct {
	loaded   time.Time
	rules    []*targeting.Rules
	pages    *targeting.Pages
	cooldown time.Duration
	// version is the store's store.RulesVersioner version the rules were read at ("" for a
	// store without one), and read when they were last read in full: rules whose version has
	// not changed are kept, up to rulesReread.
	version string
	read    time.Time
	// refreshing is set, under teamsMu, while one request loads the team's rules again:
	// the others use these meanwhile, so that rules going stale under load cost one load,
	// not one per request in flight.
	refreshing bool
}

// rulesOf returns the team's active surveys, rules and cooldown, from memory when fresh. One
// request at a time loads them: when they are stale, the others use them as they were; when
// there are none yet (at start, or after a change dropped them), the others wait for that load,
// since a team of a thousand surveys takes a tenth of a second to load and a burst of asks
// would otherwise each load them.
func (h *Handler) rulesOf(ctx context.Context, tg store.Targeter, teamID string) (*teamRules, error) {
	for {
		now := h.now()
		h.teamsMu.Lock()
		tr, gen := h.teams[teamID], h.teamsGen
		if tr != nil && (tr.refreshing || (now.Sub(tr.loaded) < rulesTTL && !now.Before(tr.loaded))) {
			h.teamsMu.Unlock()
			return tr, nil // fresh, or being loaded again by another request: used meanwhile
		}
		if wait := h.loading[teamID]; tr == nil && wait != nil {
			h.teamsMu.Unlock()
			select {
			case <-wait:
				continue // loaded (or failed, or dropped meanwhile): look again
			case <-ctx.Done():
				return nil, ctx.Err()
			}
		}
		var done chan struct{}
		if tr == nil {
			done = make(chan struct{})
			h.loading[teamID] = done
		} else {
			tr.refreshing = true
		}
		h.teamsMu.Unlock()
		fresh, err := h.loadRules(ctx, tg, teamID, now, tr)
		h.teamsMu.Lock()
		if done != nil {
			delete(h.loading, teamID)
			close(done)
		} else {
			tr.refreshing = false
		}
		if err == nil && h.teamsGen == gen { // no change was made meanwhile that the load may have missed
			h.teams[teamID] = fresh
		}
		h.teamsMu.Unlock()
		return fresh, err
	}
}

// loadRules reads the team's settings and its active surveys' rules, and compiles them. With a
// store that tells their version, the rules of prev (nil for none) are kept while it has not
// changed: a team of a thousand surveys takes a tenth of a second to read and compile.
func (h *Handler) loadRules(ctx context.Context, tg store.Targeter, teamID string, now time.Time, prev *teamRules) (*teamRules, error) {
	settings, err := tg.Settings(ctx, teamID)
	if err != nil {
		return nil, err
	}
	tr := &teamRules{loaded: now, read: now, cooldown: time.Duration(settings.CooldownDays) * 24 * time.Hour}
	if rv, ok := tg.(store.RulesVersioner); ok {
		// Read before the rules: a change made after it shows as a new version next time.
		if tr.version, err = rv.RulesVersion(ctx, teamID); err != nil {
			return nil, err
		}
		if prev != nil && prev.version == tr.version && now.Sub(prev.read) < rulesReread && !now.Before(prev.read) {
			tr.rules, tr.pages, tr.read = prev.rules, prev.pages, prev.read
			if !tr.pages.Hold(now) {
				tr.pages = targeting.NewPages(tr.rules, now)
			}
			return tr, nil
		}
	}
	active, err := tg.ActiveRules(ctx, teamID)
	if err != nil {
		return nil, err
	}
	if tr.rules, err = nextsurvey.Compile(active); err != nil {
		return nil, err
	}
	tr.pages = targeting.NewPages(tr.rules, now)
	return tr, nil
}

// dropRules forgets a team's surveys and rules, after a change of one of them; a load in
// flight when it happened is not kept.
func (h *Handler) dropRules(teamID string) {
	h.teamsMu.Lock()
	delete(h.teams, teamID)
	h.teamsGen++
	h.teamsMu.Unlock()
}

// askBody is a next-survey request's body.
type askBody struct {
	respondent, url, event *string
	attributes             map[string]any
}

func decodeAsk(jr *jsonReader) (askBody, error) {
	var a askBody
	err := jr.body(maxBodyMembers, func(name string) error {
		var err error
		switch name {
		case "respondent":
			a.respondent, err = jr.stringOrNull("respondent")
		case "url":
			a.url, err = jr.stringOrNull("url")
		case "event":
			a.event, err = jr.stringOrNull("event")
		case "attributes":
			a.attributes, err = decodeAttributes(jr, `field "attributes"`)
		default:
			if err := exactName(name, "respondent", "url", "event", "attributes"); err != nil {
				return err
			}
			err = jr.skip() // the widget may send more than svc reads
		}
		return err
	})
	if err != nil {
		return a, err
	}
	switch {
	case a.respondent == nil:
		return a, badRequest("respondent is required")
	case a.url == nil || *a.url == "" || len(*a.url) > maxPageURL:
		return a, badRequest(fmt.Sprintf("url is required: the page's URL, or its path, query and fragment, of at most %d bytes", maxPageURL))
	case a.event != nil && (*a.event == "" || utf8.RuneCountInString(*a.event) > 2000):
		return a, badRequest("event must be a name of 1 to 2000 characters, or null for a page view")
	}
	if err := store.ValidateRespondent(*a.respondent); err != nil {
		return a, badRequest(err.Error())
	}
	return a, nil
}

// handleNextSurvey serves "POST /v1/svc/next-survey": the survey to show the person now, with
// its delay, or null with the reason.
func (h *Handler) handleNextSurvey(w http.ResponseWriter, r *http.Request, teamID string) error {
	tg, err := h.targeter()
	if err != nil {
		return err
	}
	a, err := decodeBody(h, w, r, maxAskBody, decodeAsk)
	if err != nil {
		return err
	}
	ask := targeting.Ask{Respondent: *a.respondent, URL: *a.url, Attributes: a.attributes, Now: h.now()}
	if a.event != nil {
		ask.Event = *a.event
	}
	d, sv, err := h.pick(r, tg, teamID, ask)
	if err != nil {
		return err
	}
	if d.SurveyID == "" {
		h.writeJSON(w, http.StatusOK, struct {
			Survey       *struct{} `json:"survey"`
			DelaySeconds int       `json:"delaySeconds"`
			Reason       string    `json:"reason"`
		}{nil, 0, d.Reason})
		return nil
	}
	lang, err := surveyLanguage(r, &sv)
	if err != nil {
		return err
	}
	enc, err := h.publicSurvey(sv, lang)
	if err != nil {
		return err
	}
	writeBody(w, http.StatusOK, enc.asNext(d.SurveyID, d.DelaySeconds))
	return nil
}

// pick decides, and reads the survey picked. The rules in memory may be up to rulesTTL old:
// when the survey picked is no longer active, they are read again and the decision made once
// more.
func (h *Handler) pick(r *http.Request, tg store.Targeter, teamID string, ask targeting.Ask) (targeting.Decision, store.Survey, error) {
	for try := 0; ; try++ {
		tr, err := h.rulesOf(r.Context(), tg, teamID)
		if err != nil {
			return targeting.Decision{}, store.Survey{}, err
		}
		d, err := h.decide(r, tg, teamID, tr, ask)
		if err != nil || d.SurveyID == "" {
			return d, store.Survey{}, err
		}
		sv, err := h.readSurvey(r.Context(), teamID, d.SurveyID)
		switch {
		case err == nil && sv.Status == store.StatusActive:
			return d, sv, nil
		case err != nil && !errors.Is(err, store.ErrNotFound):
			return targeting.Decision{}, store.Survey{}, err
		case try > 0:
			return targeting.Decision{Reason: targeting.ReasonNoSurvey}, store.Survey{}, nil
		}
		h.dropRules(teamID)
	}
}

// decide reads what the decision needs of the person and the team, and decides
// (nextsurvey.Decide, which the console's "Check who sees it" asks too).
func (h *Handler) decide(r *http.Request, tg store.Targeter, teamID string, tr *teamRules, ask targeting.Ask) (targeting.Decision, error) {
	var audience func(string) (bool, error)
	if h.opts.Audience != nil {
		audience = func(id string) (bool, error) { return h.opts.Audience(r, ask.Respondent, id) }
	}
	onPage := targeting.Matched{}
	if len(tr.rules) > 0 {
		onPage = tr.pages.OnPage(ask)
	}
	return nextsurvey.Decide(r.Context(), h.store, tg, teamID, tr.rules, onPage, tr.cooldown, ask, audience)
}
