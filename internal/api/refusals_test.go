package api_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/svc-feedback/svc/client"
	"github.com/svc-feedback/svc/internal/api"
)

// wantRetryAfter checks that a reply is a 429 with a Retry-After of want whole seconds.
func wantRetryAfter(t *testing.T, what string, status int, h http.Header, want string) {
	t.Helper()
	ra := h.Get("Retry-After")
	if status != http.StatusTooManyRequests || ra != want {
		t.Errorf("%s: %d with Retry-After %q, want 429 with Retry-After %q", what, status, ra, want)
	}
	if n, err := strconv.Atoi(ra); err != nil || n < 1 {
		t.Errorf("%s: Retry-After %q is not a whole number of seconds of at least 1", what, ra)
	}
}

// Every 429 carries Retry-After, in whole seconds rounded up and at least 1: the widget's
// endpoints and the link page alike, and the JSON error names the option that sets the limit.
func TestEvery429CarriesRetryAfter(t *testing.T) {
	// One request every two seconds, none saved up: the second within two seconds waits.
	e := setup(t, func(o *api.Config) { o.RateLimit = &api.RateLimit{PerSecond: 0.5, Burst: 1} })
	id := e.createSurvey(npsSurvey)
	secret := e.linkSecret()
	pk := map[string]string{"x-svc-pk": e.pkA}
	requests := map[string]req{
		"GET survey":         {method: "GET", path: "/v1/svc/" + e.survA.ID, headers: pk},
		"GET history":        {method: "GET", path: "/v1/svc/" + e.survA.ID + "/respondent/ann", headers: pk},
		"POST event":         {method: "POST", path: "/v1/svc/" + e.survA.ID + "/respondent/ann/event", body: `{"type":"view"}`, headers: pk},
		"PUT response":       {method: "PUT", path: "/v1/svc/" + e.survA.ID + "/response/" + e.ids.New(), body: `{"respondent":"ann","data":{},"metadata":{}}`, headers: pk},
		"POST next-survey":   {method: "POST", path: "/v1/svc/next-survey", body: `{"respondent":"ann","url":"/"}`, headers: pk},
		"the link page":      {method: "GET", path: pathOf(t, client.SignLink(secret, "", id, "ann", t0.Add(time.Hour)))},
		"an anonymous page:": {method: "GET", path: "/s/" + id},
	}
	for name, r := range requests {
		t.Run(name, func(t *testing.T) {
			// Each case from a client of its own, so that each has its own bucket.
			r.headers = cloneHeaders(r.headers)
			send := func() *httptest.ResponseRecorder {
				hr := httptest.NewRequest(r.method, r.path, strings.NewReader(r.body))
				hr.RemoteAddr = "10.9.0." + strconv.Itoa(len(name)) + ":4000"
				if r.body != "" {
					hr.Header.Set("Content-Type", "application/json")
				}
				for k, v := range r.headers {
					hr.Header.Set(k, v)
				}
				rec := httptest.NewRecorder()
				e.h.ServeHTTP(rec, hr)
				return rec
			}
			if first := send(); first.Code == http.StatusTooManyRequests {
				t.Fatalf("the first request was refused: %s", first.Body)
			}
			rec := send()
			wantRetryAfter(t, "at once", rec.Code, rec.Header(), "2")
			if strings.HasPrefix(r.path, "/v1/") {
				wantStatus(t, rec, http.StatusTooManyRequests, "rate_limited")
				if msg := errorMessage(t, rec); !strings.Contains(msg, "svc.Options.RateLimit") {
					t.Errorf("the 429 says %q, which does not name svc.Options.RateLimit", msg)
				}
			} else if !strings.Contains(rec.Body.String(), "Too many requests") {
				t.Errorf("the link page's 429 does not say why:\n%s", rec.Body)
			}
			e.clock.Advance(1500 * time.Millisecond) // half a second to go: rounded up to 1
			rec = send()
			wantRetryAfter(t, "1.5 s later", rec.Code, rec.Header(), "1")
			e.clock.Advance(500 * time.Millisecond)
			if rec := send(); rec.Code == http.StatusTooManyRequests {
				t.Errorf("2 s later: still 429")
			}
		})
	}
}

func cloneHeaders(h map[string]string) map[string]string {
	out := map[string]string{}
	for k, v := range h {
		out[k] = v
	}
	return out
}

// A link's prefilled score is taken only as a whole number in decimal digits: the forms a
// number parser would also read (hexadecimal, exponent, sign, space, point) are refused with
// the page that says why, and nothing is saved.
func TestLinkPrefillScoreIsDecimal(t *testing.T) {
	e := setup(t)
	id := e.createSurvey(npsSurvey)
	secret := e.linkSecret()
	link := func(respondent, query string) string {
		return pathOf(t, client.SignLink(secret, "", id, respondent, t0.Add(time.Hour))) + query
	}
	refused := map[string]string{
		"hexadecimal float":        "&a.nps=" + url.QueryEscape("0x1p3"),
		"exponent":                 "&a.nps=1e1",
		"plus sign":                "&a.nps=" + url.QueryEscape("+9"),
		"plus in the query: space": "&a.nps=+9",
		"leading space":            "&a.nps=" + url.QueryEscape(" 9"),
		"decimal point":            "&a.nps=9.0",
		"minus sign":               "&a.nps=-1",
		"infinity":                 "&a.nps=Inf",
		"other digits":             "&a.nps=" + url.QueryEscape("٩"),
		"empty":                    "&a.nps=",
		"twice":                    "&a.nps=9&a.nps=8",
	}
	for name, q := range refused {
		res := e.page(link("ann@example.com", q))
		html := body(t, res)
		if res.StatusCode != http.StatusBadRequest || !strings.Contains(html, "is not a score") || strings.Contains(html, "data-survey") {
			t.Errorf("%s (%s): %d, want 400 saying it is not a score:\n%s", name, q, res.StatusCode, html)
		}
	}
	if got := decode[struct{ Data []any }](t, e.protected("/v1/protected/surveys/"+id+"/responses")).Data; len(got) != 0 {
		t.Fatalf("a refused prefill saved a response: %v", got)
	}

	// Off the scale: a decimal integer, but not one the question takes.
	if res := e.page(link("ann@example.com", "&a.nps=11")); res.StatusCode != http.StatusBadRequest || !strings.Contains(body(t, res), "not one it takes") {
		t.Errorf("a score of 11 on a scale of 10: %d", res.StatusCode)
	}
	for i, score := range []string{"9", "0", "10"} {
		who := "p" + strconv.Itoa(i) + "@example.com"
		if res := e.page(link(who, "&a.nps="+score)); res.StatusCode != http.StatusOK {
			t.Errorf("score %s: %d, want 200:\n%s", score, res.StatusCode, body(t, res))
		}
		rec := e.protected("/v1/protected/surveys/" + id + "/responses?respondent=" + url.QueryEscape(who))
		got := decode[struct {
			Data []struct{ Data map[string]any }
		}](t, rec).Data
		want, _ := strconv.Atoi(score)
		if len(got) != 1 || got[0].Data["nps"] != float64(want) {
			t.Errorf("score %s saved as %v, want nps %d", score, got, want)
		}
	}
}

// A Host whose port is not a number is refused by the link page with a 400 page, before it is
// used for anything; a Host with a numeric port, or none, is served.
func TestLinkPageRefusesHostWithBadPort(t *testing.T) {
	e := setup(t)
	id := e.createSurvey(npsSurvey)
	link := pathOf(t, client.SignLink(e.linkSecret(), "", id, "ann", t0.Add(time.Hour)))
	open := func(host string) *httptest.ResponseRecorder {
		hr := httptest.NewRequest("GET", link, nil)
		hr.Host = host
		rec := httptest.NewRecorder()
		e.h.ServeHTTP(rec, hr)
		return rec
	}
	for _, host := range []string{"example.com:abc", "[::1]:x", "a:", "example.com:99999", "example.com:+80", "[::1]junk"} {
		rec := open(host)
		if html := rec.Body.String(); rec.Code != http.StatusBadRequest || !strings.Contains(html, "port that is not a number") || strings.Contains(html, "data-survey") {
			t.Errorf("Host %q: %d, want a 400 page about the port:\n%s", host, rec.Code, html)
		}
		if ct := rec.Header().Get("Content-Type"); ct != "text/html; charset=utf-8" {
			t.Errorf("Host %q: Content-Type %q, want the page's", host, ct)
		}
	}
	for _, host := range []string{"example.com", "example.com:8080", "[::1]:8080", "127.0.0.1:80", "[::1]"} {
		if rec := open(host); rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), "data-survey") {
			t.Errorf("Host %q: %d, want the survey", host, rec.Code)
		}
	}
}

// The JSON kinds a member may be sent as, each the wrong one somewhere.
var jsonKinds = map[string]string{
	"string": `"x"`, "number": `7`, "boolean": `true`, "null": `null`,
	"array": `["x",1]`, "object": `{"x":1}`, "nested": `[{"x":[{}]}]`, "big number": `1e400`,
}

// bodyCase is a body sent with one member of the JSON kind asked for: body("...") puts the
// value in its place.
type bodyCase struct {
	name   string // what the error must name
	method string
	path   string
	auth   string // "pk" or "sk"
	body   func(v string) string
}

// Every member of the settings, attributes, prompt, next-survey and event bodies, sent as each
// JSON kind, is taken (2xx) or refused with a JSON 400 that names the member: never a 500.
func TestBodyMembersOfEveryKind(t *testing.T) {
	e := setup(t)
	survey := "/v1/svc/" + e.survA.ID
	cases := []bodyCase{
		{"cooldownDays", "PATCH", "/v1/protected/settings", "sk", func(v string) string { return `{"cooldownDays":` + v + `}` }},
		{"plan", "PUT", "/v1/protected/respondents/ann/attributes", "sk", func(v string) string { return `{"plan":` + v + `,"seats":3}` }},
		{"attributes", "PUT", "/v1/protected/respondents/ann/attributes", "sk", func(v string) string { return v }},
		{"respondent", "POST", "/v1/protected/surveys/" + e.survA.ID + "/prompts", "sk", func(v string) string { return `{"respondent":` + v + `}` }},
		{"expiresAt", "POST", "/v1/protected/surveys/" + e.survA.ID + "/prompts", "sk", func(v string) string {
			return `{"respondent":"ann","expiresAt":` + v + `}`
		}},
		{"respondent", "POST", "/v1/svc/next-survey", "pk", func(v string) string { return `{"respondent":` + v + `,"url":"/"}` }},
		{"url", "POST", "/v1/svc/next-survey", "pk", func(v string) string { return `{"respondent":"ann","url":` + v + `}` }},
		{"event", "POST", "/v1/svc/next-survey", "pk", func(v string) string { return `{"respondent":"ann","url":"/","event":` + v + `}` }},
		{"attributes", "POST", "/v1/svc/next-survey", "pk", func(v string) string { return `{"respondent":"ann","url":"/","attributes":` + v + `}` }},
		{"plan", "POST", "/v1/svc/next-survey", "pk", func(v string) string {
			return `{"respondent":"ann","url":"/","attributes":{"plan":` + v + `}}`
		}},
		{"type", "POST", survey + "/respondent/ann/event", "pk", func(v string) string { return `{"type":` + v + `}` }},
	}
	for _, c := range cases {
		for kind, v := range jsonKinds {
			rec, _ := e.exchange(req{method: c.method, path: c.path, body: c.body(v), headers: e.credential(c.auth)})
			what := c.method + " " + c.path + " with " + c.name + " as " + kind
			switch {
			case rec.Code >= 200 && rec.Code < 300:
			case rec.Code == http.StatusBadRequest:
				var reply struct{ Error, Code string }
				if err := json.Unmarshal(rec.Body.Bytes(), &reply); err != nil || reply.Code != "invalid_request" {
					t.Errorf("%s: the 400 is not a JSON error: %s", what, rec.Body)
				} else if !strings.Contains(reply.Error, c.name) {
					t.Errorf("%s: the 400 says %q, which does not name %s", what, reply.Error, c.name)
				}
			default:
				t.Errorf("%s: %d %s, want 2xx or a 400 naming the member", what, rec.Code, rec.Body)
			}
		}
	}
}

// credential is the header of a request with team A's publishable ("pk") or secret key.
func (e *env) credential(kind string) map[string]string {
	if kind == "pk" {
		return map[string]string{"x-svc-pk": e.pkA}
	}
	return map[string]string{"Authorization": "Bearer " + e.skA}
}

// The settings' cooldownDays is a whole number of days in range; any other value is a 400
// that says what it must be and what it was, where a string once answered 500.
func TestSettingsCooldownDaysRefusals(t *testing.T) {
	e := setup(t)
	for body, want := range map[string]string{
		`{"cooldownDays":"7"}`:   "cooldownDays must be a whole number of days from 0 to 3650, not a JSON string",
		`{"cooldownDays":true}`:  "cooldownDays must be a whole number of days from 0 to 3650, not a JSON boolean",
		`{"cooldownDays":null}`:  "cooldownDays must be a whole number of days from 0 to 3650, not null",
		`{"cooldownDays":[7]}`:   "cooldownDays must be a whole number of days from 0 to 3650, not a JSON array",
		`{"cooldownDays":{}}`:    "cooldownDays must be a whole number of days from 0 to 3650, not a JSON object",
		`{"cooldownDays":7.5}`:   "cooldownDays must be a whole number of days from 0 to 3650, not 7.5",
		`{"cooldownDays":3651}`:  "cooldownDays must be a whole number of days from 0 to 3650, not 3651",
		`{"cooldownDays":-1}`:    "cooldownDays must be a whole number of days from 0 to 3650, not -1",
		`{"cooldownDays":1e400}`: "cooldownDays must be a whole number of days from 0 to 3650, not 1e400",
		`{"cooldown":7}`:         `unknown member "cooldown"; the settings have cooldownDays and segments`,
		`{"CooldownDays":7}`:     `member names are case-sensitive: "CooldownDays" should be "cooldownDays"`,
	} {
		rec := e.manage("PATCH", "/v1/protected/settings", body, e.skA)
		wantStatus(t, rec, http.StatusBadRequest, "invalid_request")
		if msg := errorMessage(t, rec); msg != want {
			t.Errorf("%s: %q, want %q", body, msg, want)
		}
	}
	// In this order: an empty patch keeps what the one before it set.
	for _, tt := range []struct{ body, want string }{{`{"cooldownDays":7}`, `{"cooldownDays":7`}, {`{"cooldownDays":1e1}`, `{"cooldownDays":10`},
		{`{"cooldownDays":3.0}`, `{"cooldownDays":3`}, {`{}`, `{"cooldownDays":3`}} {
		rec := e.manage("PATCH", "/v1/protected/settings", tt.body, e.skA)
		if wantStatus(t, rec, http.StatusOK, ""); !strings.HasPrefix(rec.Body.String(), tt.want+",") {
			t.Errorf("%s: %s, want %s", tt.body, rec.Body, tt.want)
		}
	}
}

// An unknown member of a prompt's body is a 400 naming it and the members a prompt has; its
// wrong types name the member too.
func TestPromptBodyRefusals(t *testing.T) {
	e := setup(t)
	path := "/v1/protected/surveys/" + e.survA.ID + "/prompts"
	for body, want := range map[string]string{
		`{"respondent":"ann","expires":"2099-01-01T00:00:00Z"}`:   `unknown member "expires"; a prompt has respondent and expiresAt`,
		`{"respondent":"ann","expiresat":"2099-01-01T00:00:00Z"}`: `member names are case-sensitive: "expiresat" should be "expiresAt"`,
		`{"respondent":7}`:                         `field "respondent" must be a string, not a JSON number`,
		`{"respondent":"ann","expiresAt":"soon"}`:  `expiresAt must be a time such as 2026-12-01T00:00:00Z, not "soon"`,
		`{"respondent":"ann","expiresAt":[2099]}`:  `field "expiresAt" must be a string, not a JSON array`,
		`{"respondent":"ann","expiresAt":{"a":1}}`: `field "expiresAt" must be a string, not a JSON object`,
	} {
		rec := e.manage("POST", path, body, e.skA)
		wantStatus(t, rec, http.StatusBadRequest, "invalid_request")
		if msg := errorMessage(t, rec); msg != want {
			t.Errorf("%s: %q, want %q", body, msg, want)
		}
	}
}

// A body over a limit an option sets gets a 413 that says the limit and names the option; a
// preflight from an origin not allowed names the option that would allow it.
func TestRefusalsNameTheirOption(t *testing.T) {
	e := setup(t, func(o *api.Config) {
		o.MaxEventBody, o.MaxResponseBody = 100, 200
		o.AllowedOrigins = map[string]bool{"https://app.example.com": true}
	})
	pk := map[string]string{"x-svc-pk": e.pkA}
	pad := strings.Repeat("x", 300)
	for option, r := range map[string]req{
		"svc.Options.MaxEventBody": {method: "POST", path: "/v1/svc/" + e.survA.ID + "/respondent/ann/event",
			body: `{"type":"view","pad":"` + pad + `"}`, headers: pk},
		"svc.Options.MaxResponseBody": {method: "PUT", path: "/v1/svc/" + e.survA.ID + "/response/" + e.ids.New(),
			body: `{"respondent":"ann","data":{},"metadata":{"pad":"` + pad + `"}}`, headers: pk},
	} {
		rec := e.do(r)
		wantStatus(t, rec, http.StatusRequestEntityTooLarge, "payload_too_large")
		if msg := errorMessage(t, rec); !strings.Contains(msg, option) || !strings.Contains(msg, "limit of") {
			t.Errorf("%s %s: %q, want the limit and %s", r.method, r.path, msg, option)
		}
	}
	rec := e.do(req{method: "OPTIONS", path: "/v1/svc/" + e.survA.ID, headers: map[string]string{
		"Origin": "https://evil.example", "Access-Control-Request-Method": "GET"}})
	wantStatus(t, rec, http.StatusForbidden, "origin_not_allowed")
	if msg := errorMessage(t, rec); !strings.Contains(msg, "svc.Options.AllowedOrigins") {
		t.Errorf("the refused preflight says %q, which does not name svc.Options.AllowedOrigins", msg)
	}
}
