package api

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/svc-feedback/svc/internal/jsonappend"
	"github.com/svc-feedback/svc/internal/targeting"
	"github.com/svc-feedback/svc/store"
)

// POST /v1/svc/next-survey (extensions.md section 7) answers from memory as far as it can: the
// team's active surveys with their rules compiled are kept for rulesTTL (a change made through
// this handler drops them at once; one made elsewhere shows within rulesTTL), the person's
// attributes, prompts and views are read once, and only a survey that passes every rule memory
// can check costs a read more (whether the person responded, its response count).

// rulesTTL is how long a team's surveys and rules are kept.
const rulesTTL = time.Second

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
	surveys  map[string]store.Survey
	cooldown time.Duration
}

// rulesOf returns the team's active surveys, rules and cooldown, from memory when fresh.
func (h *Handler) rulesOf(ctx context.Context, tg store.Targeter, teamID string) (*teamRules, error) {
	now := h.now()
	h.teamsMu.Lock()
	tr := h.teams[teamID]
	h.teamsMu.Unlock()
	if tr != nil && now.Sub(tr.loaded) < rulesTTL && !now.Before(tr.loaded) {
		return tr, nil
	}
	settings, err := tg.Settings(ctx, teamID)
	if err != nil {
		return nil, err
	}
	tr = &teamRules{loaded: now, surveys: map[string]store.Survey{}, cooldown: time.Duration(settings.CooldownDays) * 24 * time.Hour}
	var after *store.Cursor
	for {
		page, next, err := h.store.Surveys(ctx, teamID, after, 100)
		if err != nil {
			return nil, err
		}
		for _, sv := range page {
			if sv.Status != store.StatusActive {
				continue
			}
			r, err := targeting.Compile(sv.ID, sv.CreatedAt, sv.Display)
			if err != nil {
				return nil, err // the rules were validated when saved: a defect
			}
			tr.rules = append(tr.rules, r)
			tr.surveys[sv.ID] = sv
		}
		if next == nil {
			break
		}
		after = next
	}
	targeting.Sort(tr.rules)
	h.teamsMu.Lock()
	h.teams[teamID] = tr
	h.teamsMu.Unlock()
	return tr, nil
}

// dropRules forgets a team's surveys and rules, after a change of one of them.
func (h *Handler) dropRules(teamID string) {
	h.teamsMu.Lock()
	delete(h.teams, teamID)
	h.teamsMu.Unlock()
}

// askBody is a next-survey request's body.
type askBody struct {
	respondent, url, event *string
	attributes             map[string]any
}

func decodeAsk(body []byte) (askBody, error) {
	var a askBody
	jr := newJSONReader(body)
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
		return a, badRequest(fmt.Sprintf("url is required: the page's URL, or its path and query, of at most %d bytes", maxPageURL))
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
	body, err := readBody(w, r, maxAskBody)
	if err != nil {
		return err
	}
	a, err := decodeAsk(body)
	if err != nil {
		return err
	}
	tr, err := h.rulesOf(r.Context(), tg, teamID)
	if err != nil {
		return err
	}
	ask := targeting.Ask{Respondent: *a.respondent, URL: *a.url, Attributes: a.attributes, Now: h.now()}
	if a.event != nil {
		ask.Event = *a.event
	}
	d, err := h.decide(r, tg, teamID, tr, ask)
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
	enc, err := h.publicSurvey(tr.surveys[d.SurveyID])
	if err != nil {
		return err
	}
	// The survey's public view, as GET /v1/svc/{surveyId} gives it, with its id first.
	b := make([]byte, 0, len(enc.body)+96)
	b = jsonappend.String(append(b, `{"survey":{"id":`...), d.SurveyID)
	b = append(append(b, ','), enc.body[1:len(enc.body)-2]...) // without its braces and newline
	b = strconv.AppendInt(append(b, `},"delaySeconds":`...), int64(d.DelaySeconds), 10)
	writeBody(w, http.StatusOK, append(b, ",\"reason\":null}\n"...))
	return nil
}

// decide reads what the decision needs of the person and the team, and decides.
func (h *Handler) decide(r *http.Request, tg store.Targeter, teamID string, tr *teamRules, ask targeting.Ask) (targeting.Decision, error) {
	ctx := r.Context()
	if len(tr.rules) == 0 {
		return targeting.Decision{Reason: targeting.ReasonNoSurvey}, nil
	}
	// The person is read once, with their responses to the surveys the page lets through.
	onPage := targeting.OnPage(ask, tr.rules)
	person, err := tg.Person(ctx, teamID, ask.Respondent, onPage)
	if err != nil {
		return targeting.Decision{}, err
	}
	l := targeting.Lookups{
		Responded: func(id string) (bool, error) {
			if slices.Contains(onPage, id) {
				return person.Responded[id], nil
			}
			return tg.Responded(ctx, id, ask.Respondent) // a prompted survey off the page
		},
		Responses: func(id string) (int64, error) {
			st, err := h.store.Stats(ctx, id)
			return st.TotalResponses, err
		},
	}
	if h.opts.Audience != nil {
		l.Audience = func(id string) (bool, error) { return h.opts.Audience(r, ask.Respondent, id) }
	}
	return targeting.Decide(ask, tr.rules, person, tr.cooldown, l)
}
