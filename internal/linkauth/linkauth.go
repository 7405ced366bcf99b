// Package linkauth signs and checks the links of link surveys (docs/languages-and-links.md): a link
// /s/{surveyId}?r={respondent}&exp={unix seconds}&sig={hex} is the lowercase hex HMAC-SHA256,
// keyed with the team's link secret, of "{surveyId}\n{respondent}\n{exp}". It also makes the
// grant a link page hands the widget in place of a publishable key.
package linkauth

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// Errors of Check.
var (
	// ErrExpired is a link whose exp has passed.
	ErrExpired = errors.New("the link has expired")
	// ErrBadSignature is a link that was not signed with a valid secret of the team, or was
	// changed since: a wrong survey, respondent, expiry or signature.
	ErrBadSignature = errors.New("the link's signature is not valid")
)

// AnonymousPrefix begins the respondent of an anonymous link's browser: no signed link's person
// can be written as from an anonymous page.
const AnonymousPrefix = "anonymous-"

// Sign returns the signature of a link to surveyID for respondent, expiring at exp.
func Sign(secret, surveyID, respondent string, exp int64) string {
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write([]byte(surveyID + "\n" + respondent + "\n" + strconv.FormatInt(exp, 10)))
	return hex.EncodeToString(mac.Sum(nil))
}

// Link is one person's link to a survey's page under base (where svc's handler is served):
// base/s/{surveyId}?r={respondent}&exp={exp}&sig={Sign's}. The client and the console both
// write links with it, so that the two cannot drift from what Check verifies.
func Link(secret, base, surveyID, respondent string, exp int64) string {
	q := url.Values{"r": {respondent}, "exp": {strconv.FormatInt(exp, 10)}, "sig": {Sign(secret, surveyID, respondent, exp)}}
	return strings.TrimRight(base, "/") + "/s/" + url.PathEscape(surveyID) + "?" + q.Encode()
}

// Check verifies a link's exp and sig, as given in its query, against each of secrets: nil, or
// ErrExpired, or ErrBadSignature. The comparison takes the same time wherever the signature
// differs.
func Check(secrets []string, surveyID, respondent, exp, sig string, now time.Time) error {
	at, err := ParseExp(exp)
	if err != nil {
		return ErrBadSignature
	}
	given, err := hex.DecodeString(sig)
	if err != nil || len(given) != sha256.Size || sig != strings.ToLower(sig) {
		return ErrBadSignature
	}
	valid := false
	for _, secret := range secrets {
		want, _ := hex.DecodeString(Sign(secret, surveyID, respondent, at))
		valid = hmac.Equal(want, given) || valid
	}
	switch {
	case !valid:
		return ErrBadSignature
	case now.Unix() >= at:
		return ErrExpired
	}
	return nil
}

// ParseExp reads a link's exp: Unix seconds, in decimal digits.
func ParseExp(exp string) (int64, error) {
	if exp == "" || len(exp) > 18 || strings.TrimLeft(exp, "0123456789") != "" {
		return 0, fmt.Errorf("exp %q is not a time in Unix seconds", exp)
	}
	return strconv.ParseInt(exp, 10, 64)
}

// ResponseID is the id of the one response a signed link makes, the same for every link to the
// survey for the person: a UUID of version 8 from a SHA-256 of the two.
func ResponseID(surveyID, respondent string) string {
	sum := sha256.Sum256([]byte("svc link response\n" + surveyID + "\n" + respondent))
	b := sum[:16]
	b[6] = b[6]&0x0f | 0x80
	b[8] = b[8]&0x3f | 0x80
	h := hex.EncodeToString(b)
	return h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
}

// Grant is what a link page lets its widget do, carried as a token in place of a publishable
// key: answer one survey, as one person (signed) or as any anonymous browser.
type Grant struct {
	SurveyID   string
	Respondent string // "" for an anonymous page
	Exp, Sig   string // the signed link's
}

// TokenPrefix begins a grant's token, where a publishable key would be.
const TokenPrefix = "svc_link_"

// Anonymous reports whether the grant is an anonymous page's.
func (g Grant) Anonymous() bool { return g.Respondent == "" }

// Token encodes the grant: the survey, then the signed link's expiry, signature and respondent
// (base64url, as it may hold any character), joined by dots.
func (g Grant) Token() string {
	if g.Anonymous() {
		return TokenPrefix + g.SurveyID
	}
	return TokenPrefix + g.SurveyID + "." + g.Exp + "." + g.Sig + "." + base64.RawURLEncoding.EncodeToString([]byte(g.Respondent))
}

// ParseToken reads a grant's token; ok is false for one that is not well formed.
func ParseToken(tok string) (g Grant, ok bool) {
	rest, ok := strings.CutPrefix(tok, TokenPrefix)
	if !ok {
		return Grant{}, false
	}
	parts := strings.Split(rest, ".")
	switch len(parts) {
	case 1:
		return Grant{SurveyID: parts[0]}, parts[0] != ""
	case 4:
		r, err := base64.RawURLEncoding.DecodeString(parts[3])
		if err != nil || len(r) == 0 || parts[0] == "" {
			return Grant{}, false
		}
		return Grant{SurveyID: parts[0], Exp: parts[1], Sig: parts[2], Respondent: string(r)}, true
	}
	return Grant{}, false
}
