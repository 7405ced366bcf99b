package linkauth_test

import (
	"strings"
	"testing"
	"time"

	"github.com/svc-feedback/svc/internal/linkauth"
)

var now = time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)

func TestCheck(t *testing.T) {
	exp := "1796115600" // 2026-12-01
	sig := linkauth.Sign("one", "s1", "ann", 1796115600)
	for _, c := range []struct {
		name               string
		secrets            []string
		survey, who, e, sg string
		want               error
	}{
		{"valid", []string{"one"}, "s1", "ann", exp, sig, nil},
		{"the previous secret", []string{"two", "one"}, "s1", "ann", exp, sig, nil},
		{"another secret", []string{"two"}, "s1", "ann", exp, sig, linkauth.ErrBadSignature},
		{"no secret", nil, "s1", "ann", exp, sig, linkauth.ErrBadSignature},
		{"another person", []string{"one"}, "s1", "bob", exp, sig, linkauth.ErrBadSignature},
		{"another survey", []string{"one"}, "s2", "ann", exp, sig, linkauth.ErrBadSignature},
		{"another expiry", []string{"one"}, "s1", "ann", "1796115601", sig, linkauth.ErrBadSignature},
		{"upper case hex", []string{"one"}, "s1", "ann", exp, strings.ToUpper(sig), linkauth.ErrBadSignature},
		{"cut short", []string{"one"}, "s1", "ann", exp, sig[:60], linkauth.ErrBadSignature},
		{"expiry not a number", []string{"one"}, "s1", "ann", "+1796115600", sig, linkauth.ErrBadSignature},
		{"expired", []string{"one"}, "s1", "ann", "1764000000", linkauth.Sign("one", "s1", "ann", 1764000000), linkauth.ErrExpired},
	} {
		if err := linkauth.Check(c.secrets, c.survey, c.who, c.e, c.sg, now); err != c.want {
			t.Errorf("%s: %v, want %v", c.name, err, c.want)
		}
	}
}

func TestResponseIDIsOnePerSurveyAndPerson(t *testing.T) {
	a, b := linkauth.ResponseID("s1", "ann"), linkauth.ResponseID("s1", "bob")
	if a != linkauth.ResponseID("s1", "ann") || a == b || a == linkauth.ResponseID("s2", "ann") || len(a) != 36 || a[14] != '8' {
		t.Errorf("ids %s and %s", a, b)
	}
}

// FuzzToken: every grant reads back from its token as it was, and no token read panics or gives
// a grant of an empty survey.
func FuzzToken(f *testing.F) {
	f.Add("csurvey01", "ann@example.com", "1796115600", "ab")
	f.Add("c", "", "", "")
	f.Add("c.d", "a.b", "..", "\x00")
	f.Fuzz(func(t *testing.T, survey, who, exp, sig string) {
		if g, ok := linkauth.ParseToken(survey); ok && g.SurveyID == "" {
			t.Fatalf("%q read as a grant of no survey", survey)
		}
		g := linkauth.Grant{SurveyID: survey, Respondent: who, Exp: exp, Sig: sig}
		if g.Anonymous() {
			g.Exp, g.Sig = "", "" // an anonymous page's grant has no signed link
		}
		if strings.Contains(survey+exp+sig, ".") || survey == "" {
			return // not a grant svc makes: ids, expiries and hex signatures hold no dot
		}
		got, ok := linkauth.ParseToken(g.Token())
		if !ok || got != g {
			t.Fatalf("ParseToken(%q) = %+v, %v; want %+v", g.Token(), got, ok, g)
		}
	})
}
