package api_test

import (
	"net/http"
	"strings"
	"testing"
)

// pollBody is a survey as a person writes one first: the docs pages, one question.
const pollBody = `{"title":"Quick poll","status":"active","display":{"urls":[{"match":"prefix","value":"/docs"}],"recontact":"once"},
	"questions":[{"id":"useful","title":"Was this page useful?","properties":{"type":"single-select","options":[{"value":"Yes"},{"value":"No"}]}}]}`

// TestSurveyUnknownMembersRefused: a member svc does not know, at any depth of a survey, is a
// 400 naming its path and the members allowed there, on create and on change; nothing is
// stored. The typo that once made a survey show on every page is the first case.
func TestSurveyUnknownMembersRefused(t *testing.T) {
	e := setup(t)
	for _, tt := range []struct{ from, to, want string }{
		{`"display":{"urls"`, `"display":{"url"`, "display.url: unknown member; display has urls, excludeUrls, attributes, events, delaySeconds, percentage, recontact, recontactDays, maxDisplays, startsAt, endsAt, responseLimit, ignoreCooldown, priority"},
		{`"recontact":"once"`, `"recontact":"once","recontactdays":3`, `display.recontactdays: member names are case-sensitive: \"recontactdays\" should be \"recontactDays\"`},
		{`{"match":"prefix"`, `{"match":"prefix","regex":true`, "display.urls[0].regex: unknown member; display.urls[0] has match, value"},
		{`"id":"useful"`, `"id":"useful","requird":true`, "questions[0].requird: unknown member; questions[0] has id, title, description, position, required, properties, routingLogic"},
		{`"type":"single-select"`, `"type":"single-select","multiple":true`, "questions[0].properties.multiple: unknown member; questions[0].properties of type single-select has type, shouldAutoProgress, options, buttonLabel, editable"},
		{`{"value":"Yes"}`, `{"value":"Yes","score":1}`, "questions[0].properties.options[0].score: unknown member; questions[0].properties.options[0] has value, label, description"},
		{`"title":"Quick poll"`, `"title":"Quick poll","confirmation":{"title":"Thanks","description":"","buttonText":"Close","buttonUrl":"/x"}`, "confirmation.buttonUrl: unknown member; confirmation has title, description, buttonText"},
		{`"title":"Quick poll"`, `"title":"Quick poll","link":{"anonymus":true}`, "link.anonymus: unknown member; link has anonymous"},
		{`"title":"Quick poll"`, `"title":"Quick poll","languages":{"default":"en","translations":{"de":{"titel":"Umfrage"}}}`, "languages.translations.de.titel: unknown member"},
	} {
		body := strings.Replace(pollBody, tt.from, tt.to, 1)
		rec := e.manage("POST", "/v1/protected/surveys", body, e.skA)
		wantStatus(t, rec, http.StatusBadRequest, "invalid_request")
		if !strings.Contains(rec.Body.String(), tt.want) {
			t.Errorf("%s: refused with %s, want it to say %s", tt.to, rec.Body, tt.want)
		}
	}
	if n := strings.Count(e.protected("/v1/protected/surveys").Body.String(), `"id":`); n != 1 {
		t.Errorf("after refused creates the team has %d surveys, want its 1", n)
	}
	// Nothing created, so nothing is shown on any page.
	if d := e.ask(`{"respondent":"ann","url":"/pricing"}`); d.Survey != nil {
		t.Errorf("a survey was picked on /pricing: %s", d.Survey.ID)
	}

	// A change is read as strictly, and leaves the survey as it was.
	rec := e.manage("POST", "/v1/protected/surveys", pollBody, e.skA)
	wantStatus(t, rec, http.StatusCreated, "")
	id := decode[struct{ ID string }](t, rec).ID
	tag := rec.Header().Get("ETag")
	rec = e.manage("PATCH", "/v1/protected/surveys/"+id, `{"display":{"url":[{"match":"prefix","value":"/x"}]}}`, e.skA)
	wantStatus(t, rec, http.StatusBadRequest, "invalid_request")
	if !strings.Contains(rec.Body.String(), "display.url: unknown member") {
		t.Errorf("PATCH refused with %s", rec.Body)
	}
	if got := e.protected("/v1/protected/surveys/" + id); got.Header().Get("ETag") != tag {
		t.Errorf("a refused PATCH changed the survey")
	}
	if d := e.ask(`{"respondent":"ann","url":"/docs/start"}`); d.picked() != id {
		t.Errorf("the poll is not picked on /docs/start: %s", d.picked())
	}
}

// TestSurveyWrongTypesRefused: a value of the wrong kind anywhere in a survey is a 400 naming
// the member, never a 500 and never read as a zero value.
func TestSurveyWrongTypesRefused(t *testing.T) {
	e := setup(t)
	for _, tt := range []struct{ from, to, want string }{
		{`"title":"Quick poll"`, `"title":["Quick poll"]`, "title must be a string, not a list"},
		{`"status":"active"`, `"status":true`, "status must be a string, not a JSON boolean"},
		{`"id":"useful"`, `"id":"useful","required":"yes"`, "questions[0].required must be true or false, not a JSON string"},
		{`"id":"useful"`, `"id":"useful","required":null`, "questions[0].required must be true or false, not null"},
		{`"id":"useful"`, `"id":"useful","position":0.5`, "questions[0].position must be a whole number, not 0.5"},
		{`"id":"useful"`, `"id":"useful","position":1e400`, "questions[0].position must be a whole number, not 1e400"},
		{`"options":[`, `"options":{"a":`, "malformed JSON"},
		{`"options":[{"value":"Yes"},{"value":"No"}]`, `"options":"Yes,No"`, "questions[0].properties.options must be a list or null, not a JSON string"},
		{`"recontact":"once"`, `"recontact":"once","delaySeconds":"30"`, "display.delaySeconds must be a whole number, not a JSON string"},
		{`"recontact":"once"`, `"recontact":"once","percentage":"50%"`, "display.percentage must be a number or null, not a JSON string"},
		{`"recontact":"once"`, `"recontact":"once","startsAt":"next monday"`, `display.startsAt must be a date and time such as \"2026-01-02T15:04:05Z\" (RFC 3339), not next monday`},
		{`"recontact":"once"`, `"recontact":"once","attributes":[{"key":"plan","operator":"equal","value":{"is":"pro"}}]`, "display.attributes[0].value must be a string, a number, true or false, or a list of them, not an object"},
		{`"type":"single-select"`, `"type":"dropdown"`, `questions[0].properties.type must be one of bug-report, consent, contact, cta, date, matrix, multi-select, open-ended, ranking, rating, single-select, statement, not \"dropdown\"`},
		{`"title":"Quick poll"`, `"title":"Quick poll","webhookWaitSeconds":"60"`, "webhookWaitSeconds must be a whole number, not a JSON string"},
		{`"id":"useful"`, `"id":"useful","routingLogic":{"type":"always","target":{"type":"jump"}}`, "questions[0].routingLogic.target.target is required"},
	} {
		body := strings.Replace(pollBody, tt.from, tt.to, 1)
		rec := e.manage("POST", "/v1/protected/surveys", body, e.skA)
		wantStatus(t, rec, http.StatusBadRequest, "invalid_request")
		if !strings.Contains(rec.Body.String(), tt.want) {
			t.Errorf("%s: refused with %s, want it to say %s", tt.to, rec.Body, tt.want)
		}
	}
}

// TestSurveyRoutingCheckedAgainstQuestions: a routing case that no answer to its question can
// satisfy is a 400 naming the case; cases that can hold are taken, a score also as a string of
// digits, which compares as a number.
func TestSurveyRoutingCheckedAgainstQuestions(t *testing.T) {
	e := setup(t)
	withCase := func(props, op, value string) string {
		return `{"title":"Routing","questions":[{"id":"a","title":"A","properties":` + props + `,
			"routingLogic":{"type":"switch","cases":[{"type":"binary-operator","operator":"` + op + `","value":{"type":"value","value":` + value + `},"target":{"type":"end"}}],"default":{"type":"next"}}},
			{"id":"b","title":"B","properties":{"type":"open-ended"}}]}`
	}
	const (
		nps    = `{"type":"rating","scale":10,"display":"nps"}`
		stars  = `{"type":"rating","scale":5}`
		single = `{"type":"single-select","options":[{"value":"Email"},{"value":"Chat"}]}`
		multi  = `{"type":"multi-select","options":[{"value":"Speed"},{"value":"Price"}]}`
		open   = `{"type":"open-ended"}`
		note   = `{"type":"statement"}`
	)
	for _, tt := range []struct{ props, op, value, want string }{
		{stars, "less-or-equal", `"six"`, `questions[0].routingLogic.cases[0].value \"six\" can never match: a score of this rating is a whole number from 1 to 5`},
		{stars, "greater", `6`, "questions[0].routingLogic.cases[0].value 6 can never match: a score of this rating is a whole number from 1 to 5"},
		{stars, "equal", `0`, "value 0 can never match: a score of this rating is a whole number from 1 to 5"},
		{stars, "equal", `2.5`, "value 2.5 can never match"},
		{stars, "equal", `"1e1"`, `value \"1e1\" can never match`},
		{stars, "contains", `3`, `questions[0].routingLogic.cases[0].operator \"contains\" cannot hold for a rating question: use equal, not-equal, greater, greater-or-equal, less or less-or-equal`},
		{nps, "less", `11`, "a score of this rating is a whole number from 0 to 10"},
		{single, "equal", `"email"`, `questions[0].routingLogic.cases[0].value \"email\" is not one of the question's options (\"Email\", \"Chat\"): values match exactly, so write \"Email\"`},
		{single, "equal", `"Phone"`, `value \"Phone\" is not one of the question's options (\"Email\", \"Chat\")`},
		{single, "contains", `"Email"`, `operator \"contains\" cannot hold for a single-select question: use equal or not-equal`},
		{single, "greater", `"Email"`, `cannot hold for a single-select question`},
		{single, "equal", `1`, "must be one of the question's option values, as text, not the number 1"},
		{multi, "equal", `"Speed"`, `operator \"equal\" cannot hold for a multi-select question: use contains or not-contains`},
		{multi, "contains", `"speed"`, `so write \"Speed\"`},
		{open, "greater", `"a"`, `operator \"greater\" cannot hold for an open-ended question`},
		{open, "contains", `5`, "must be text for an open-ended question, not the number 5"},
		{note, "equal", `"x"`, "questions[0].routingLogic.cases[0]: a statement takes no answer, so no case can hold"},
		{open, "like", `"x"`, `operator \"like\" cannot hold`},
	} {
		rec := e.manage("POST", "/v1/protected/surveys", withCase(tt.props, tt.op, tt.value), e.skA)
		wantStatus(t, rec, http.StatusBadRequest, "invalid_request")
		if !strings.Contains(rec.Body.String(), tt.want) {
			t.Errorf("%s %s %s: refused with %s, want it to say %s", tt.props, tt.op, tt.value, rec.Body, tt.want)
		}
	}
	for _, tt := range []struct{ props, op, value string }{
		{stars, "less-or-equal", `3`}, {stars, "greater", `"4"`}, {stars, "equal", `5`}, {nps, "less", `0`}, {nps, "equal", `10`},
		{single, "equal", `"Email"`}, {single, "not-equal", `"Chat"`}, {multi, "contains", `"Price"`}, {multi, "not-contains", `"Speed"`},
		{open, "contains", `"bug"`}, {open, "equal", `""`}, {open, "not-equal", `"no"`},
	} {
		rec := e.manage("POST", "/v1/protected/surveys", withCase(tt.props, tt.op, tt.value), e.skA)
		wantStatus(t, rec, http.StatusCreated, "")
	}
	// A jump must land on a question after its own.
	back := `{"title":"Routing","questions":[{"id":"a","title":"A","properties":{"type":"open-ended"}},
		{"id":"b","title":"B","properties":{"type":"open-ended"},"routingLogic":{"type":"always","target":{"type":"jump","target":0}}}]}`
	rec := e.manage("POST", "/v1/protected/surveys", back, e.skA)
	wantStatus(t, rec, http.StatusBadRequest, "invalid_request")
	if !strings.Contains(rec.Body.String(), "questions[1].routingLogic.target jumps to position 0, which is not after 1") {
		t.Errorf("a jump back: %s", rec.Body)
	}
}
