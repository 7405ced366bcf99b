package api_test

import (
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/svc-feedback/svc/internal/api"
)

// TestAuthorizeAppLogin: with Config.Authorize, the app's own login opens the protected API for
// the team it names, without a key; a refusal is a 401 with the app's words; a request the app
// leaves alone still needs, and is served with, a secret key; the widget's endpoints never ask.
func TestAuthorizeAppLogin(t *testing.T) {
	asked := 0
	e := setup(t, func(c *api.Config) {
		c.Authorize = func(r *http.Request) (string, error) {
			asked++
			ck, err := r.Cookie("session")
			switch {
			case err != nil:
				return "", nil // not the app's login: a key may still serve it
			case ck.Value == "ann-of-b":
				return "b", nil
			}
			return "", errors.New("your session has expired: sign in again")
		}
	})
	bySession := func(method, path, session string) string {
		t.Helper()
		rec := e.do(req{method: method, path: path, headers: map[string]string{"Cookie": "session=" + session}})
		if rec.Code != http.StatusOK {
			return rec.Body.String()
		}
		return "200 " + rec.Body.String()
	}
	if got := bySession("GET", "/v1/protected/surveys/"+e.survB.ID, "ann-of-b"); !strings.HasPrefix(got, "200 ") || !strings.Contains(got, e.survB.ID) {
		t.Errorf("team b's survey through the app's login: %s", got)
	}
	if got := bySession("GET", "/v1/protected/surveys/"+e.survA.ID, "ann-of-b"); !strings.Contains(got, "not_found") {
		t.Errorf("team a's survey through team b's login: %s", got)
	}
	rec := e.do(req{method: "GET", path: "/v1/protected/surveys", headers: map[string]string{"Cookie": "session=stale"}})
	wantStatus(t, rec, http.StatusUnauthorized, "unauthorized")
	if !strings.Contains(rec.Body.String(), "your session has expired: sign in again") {
		t.Errorf("the app's refusal: %s", rec.Body)
	}
	// No session: the secret key serves it, as without Authorize; and nothing is a 401.
	if rec := e.protected("/v1/protected/surveys/" + e.survA.ID); rec.Code != http.StatusOK {
		t.Errorf("with a secret key and no session: %d %s", rec.Code, rec.Body)
	}
	wantStatus(t, e.do(req{method: "GET", path: "/v1/protected/surveys"}), http.StatusUnauthorized, "unauthorized")
	n := asked
	wantStatus(t, e.public("GET", "/v1/svc/"+e.survA.ID, ""), http.StatusOK, "")
	if asked != n {
		t.Errorf("Authorize was asked of a widget endpoint")
	}
}
