// Package nextsurvey is how POST /v1/svc/next-survey decides which survey a person sees, with
// what it reads of the store: the API answers with it (keeping the team's rules in memory), and
// the console's "Check who sees it" asks it the same way, reading the rules afresh. It records
// nothing: no view, no prompt used up.
package nextsurvey

import (
	"context"
	"slices"
	"time"

	"github.com/svc-feedback/svc/internal/targeting"
	"github.com/svc-feedback/svc/store"
)

// Compile compiles a team's active surveys' rules (store.Targeter's ActiveRules), in the order
// targeting.Decide takes them.
func Compile(active []store.SurveyRules) ([]*targeting.Rules, error) {
	rules := make([]*targeting.Rules, 0, len(active))
	for _, sr := range active {
		r, err := targeting.Compile(sr.ID, sr.CreatedAt, sr.Display)
		if err != nil {
			return nil, err // the rules were validated when saved: a defect
		}
		rules = append(rules, r)
	}
	targeting.Sort(rules)
	return rules, nil
}

// Team is a team's active surveys with their rules compiled, and its cooldown.
type Team struct {
	Rules    []*targeting.Rules
	Cooldown time.Duration
}

// Load reads a team's settings and its active surveys' rules, and compiles them.
func Load(ctx context.Context, tg store.Targeter, teamID string) (Team, error) {
	settings, err := tg.Settings(ctx, teamID)
	if err != nil {
		return Team{}, err
	}
	active, err := tg.ActiveRules(ctx, teamID)
	if err != nil {
		return Team{}, err
	}
	rules, err := Compile(active)
	return Team{Rules: rules, Cooldown: time.Duration(settings.CooldownDays) * 24 * time.Hour}, err
}

// Decide reads what the decision needs of the person and decides, as targeting.Decide: the
// person once, with their responses to the surveys onPage lets through (targeting.OnPage of ask
// and rules); whether they responded to a prompted survey off the page, and a survey's
// responses (s.Stats) for its limit, only when asked. audience is the app's Audience for the
// person, nil for none.
func Decide(ctx context.Context, s store.Store, tg store.Targeter, teamID string, rules []*targeting.Rules, onPage targeting.Matched,
	cooldown time.Duration, ask targeting.Ask, audience func(surveyID string) (bool, error)) (targeting.Decision, error) {
	if len(rules) == 0 {
		return targeting.Decision{Reason: targeting.ReasonNoSurvey}, nil
	}
	person, err := tg.Person(ctx, teamID, ask.Respondent, onPage.IDs)
	if err != nil {
		return targeting.Decision{}, err
	}
	l := targeting.Lookups{
		Responded: func(id string) (bool, error) {
			if slices.Contains(onPage.IDs, id) {
				return person.Responded[id], nil
			}
			return tg.Responded(ctx, id, ask.Respondent) // a prompted survey off the page
		},
		Responses: func(id string) (int64, error) {
			st, err := s.Stats(ctx, id)
			return st.TotalResponses, err
		},
		Audience: audience,
	}
	return targeting.Decide(ask, rules, onPage, person, cooldown, l)
}
