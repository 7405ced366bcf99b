package console

import (
	"fmt"
	"math"
	"net/http"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/svc-feedback/svc/internal/nextsurvey"
	"github.com/svc-feedback/svc/internal/targeting"
	"github.com/svc-feedback/svc/store"
	"github.com/svc-feedback/svc/survey"
)

// "Check who sees it", linked from the editor: a person (respondent), a page (its URL, and an
// event) and the attributes the app would send, answered with the survey of the team that
// POST /v1/svc/next-survey would pick for them now, or none and the reason (its reason codes,
// with a sentence). It decides with the API's own code (package nextsurvey), over the team's
// rules read afresh, and records nothing: no view, no prompt used up. The app's Audience, if it
// has one, is not asked: it is given the person's own request, which the console does not have.

// whoSeesView is the check's form, as typed, and its answer.
type whoSeesView struct {
	Survey                             store.Survey
	Token                              string
	Respondent, URL, Event, Attributes string
	Error                              string
	Answer                             *whoSeesAnswer
}

// whoSeesAnswer is what the check found.
type whoSeesAnswer struct {
	Shown        *store.Survey // the survey picked, nil for none
	DelaySeconds int
	Reason       string // its code, for none
	Why          string // the reason in words
	ThisOne      bool   // the survey picked is the page's own
	Audience     bool   // the app has an Audience, not asked here
}

// Bounds of the check's form, as the API bounds an ask.
const (
	maxCheckAttributes = 100
	maxAttributeKey    = 200
	maxCheckURL        = 8192
)

// reasonWords say each reason code in words.
var reasonWords = map[string]string{
	targeting.ReasonNoSurvey:      "No published survey of the team has display rules, and none is prompted for this person: a survey without display rules shows only where your app calls Svc.show.",
	targeting.ReasonURL:           "No published survey's page rules let this page through.",
	targeting.ReasonEvent:         "A survey's page rules let this page through, but it waits for another event (or for a page view).",
	targeting.ReasonAttributes:    "The person's attributes do not pass the rules of the survey that would show on this page.",
	targeting.ReasonSampledOut:    "The survey that would show here goes to a share of people, and this person is not in it.",
	targeting.ReasonResponded:     "The person has already responded to the survey that would show here.",
	targeting.ReasonRecontact:     "The survey that would show here was shown to the person before, and its rules do not ask again yet.",
	targeting.ReasonMaxDisplays:   "The person has seen the survey that would show here as many times as its rules allow.",
	targeting.ReasonCooldown:      "The person saw a survey of the team within the team's cooldown.",
	targeting.ReasonSchedule:      "The survey that would show here is outside its dates (From and Until).",
	targeting.ReasonResponseLimit: "The survey that would show here has as many responses as its rules ask for.",
	targeting.ReasonAudience:      "Your app's Audience check said no.",
}

func (rs *Results) whoSeesPage(w http.ResponseWriter, r *http.Request) {
	sv, err := rs.surveyOf(r)
	if err != nil {
		rs.fail(w, r, err)
		return
	}
	rs.render(w, r, "whosees.html", whoSeesView{Survey: sv, Token: rs.token})
}

// whoSees answers the check's form.
func (rs *Results) whoSees(w http.ResponseWriter, r *http.Request) {
	sv, err := rs.surveyOf(r)
	if err != nil {
		rs.fail(w, r, err)
		return
	}
	f := r.PostForm
	v := whoSeesView{Survey: sv, Token: rs.token, Respondent: strings.TrimSpace(f.Get("respondent")), URL: strings.TrimSpace(f.Get("url")),
		Event: strings.TrimSpace(f.Get("event")), Attributes: f.Get("attributes")}
	ask, problem := v.ask()
	if problem != "" {
		v.Error = problem
		rs.renderStatus(w, r, http.StatusUnprocessableEntity, "whosees.html", v)
		return
	}
	ask.Now = rs.now()
	tg, ok := rs.store.(store.Targeter)
	if !ok {
		v.Error = "This server's store keeps no targeting (store.Targeter): svc shows no survey by itself."
		rs.renderStatus(w, r, http.StatusUnprocessableEntity, "whosees.html", v)
		return
	}
	team, err := nextsurvey.Load(r.Context(), tg, rs.teamID)
	if err != nil {
		rs.fail(w, r, err)
		return
	}
	d, err := nextsurvey.Decide(r.Context(), rs.store, tg, rs.teamID, team.Rules, targeting.OnPage(ask, team.Rules), team.Cooldown, ask, nil)
	if err != nil {
		rs.fail(w, r, err)
		return
	}
	a := &whoSeesAnswer{Reason: d.Reason, Why: reasonWords[d.Reason], DelaySeconds: d.DelaySeconds, Audience: rs.audience}
	if d.SurveyID != "" {
		picked, err := rs.store.Survey(r.Context(), rs.teamID, d.SurveyID)
		if err != nil {
			rs.fail(w, r, err)
			return
		}
		a.Shown, a.ThisOne = &picked, picked.ID == sv.ID
	}
	v.Answer = a
	rs.render(w, r, "whosees.html", v)
}

// ask is the form's ask, checked as the API checks one; problem says, for the person, what is
// wrong with the form ("" for nothing).
func (v whoSeesView) ask() (a targeting.Ask, problem string) {
	if err := store.ValidateRespondent(v.Respondent); err != nil {
		return targeting.Ask{}, fmt.Sprintf("The respondent is the id your app gives the person, of 1 to %d characters.", store.MaxRespondentChars)
	}
	if v.URL == "" || len(v.URL) > maxCheckURL {
		return targeting.Ask{}, fmt.Sprintf("The page URL is the page's address, such as https://app.example.com/docs, or its path, such as /docs, of at most %d bytes.", maxCheckURL)
	}
	if utf8.RuneCountInString(v.Event) > 2000 {
		return targeting.Ask{}, "An event is a name of at most 2000 characters; leave it empty for a page view."
	}
	ask := targeting.Ask{Respondent: v.Respondent, URL: v.URL, Event: v.Event, Attributes: map[string]any{}}
	n := 0
	for line := range strings.Lines(v.Attributes) {
		if line = strings.TrimSpace(line); line == "" {
			continue
		}
		key, value, ok := strings.Cut(line, "=")
		key, value = strings.TrimSpace(key), strings.TrimSpace(value)
		if n++; !ok || key == "" || utf8.RuneCountInString(key) > maxAttributeKey || n > maxCheckAttributes {
			return targeting.Ask{}, fmt.Sprintf("Attributes are up to %d lines of key=value, such as plan=pro: “%s” is not one.", maxCheckAttributes, line)
		}
		if utf8.RuneCountInString(value) > survey.MaxRuleValue {
			return targeting.Ask{}, fmt.Sprintf("The value of %s has more than %d characters.", key, survey.MaxRuleValue)
		}
		ask.Attributes[key] = attributeValue(value)
	}
	return ask, ""
}

// attributeValue is an attribute's value as the widget would send it: true or false, a number,
// else text.
func attributeValue(s string) any {
	if s == "true" || s == "false" {
		return s == "true"
	}
	if f, err := strconv.ParseFloat(s, 64); err == nil && !math.IsInf(f, 0) && !math.IsNaN(f) {
		return f
	}
	return s
}
