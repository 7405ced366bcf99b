package console_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/svc-feedback/svc/internal/console"
)

// A Host whose port is not a number is refused with a 400 on every page, the export (which
// builds links to responses from the Host) included, even where any host is allowed; a Host
// with a numeric port is served.
func TestPagesRefuseHostWithBadPort(t *testing.T) {
	e := setup(t)
	e.putResponse(e.survA.ID, e.ids.New(), "ann", `{"nps":10,"comments":"private",
		"bug":{"title":"Broken","metadata":"/home","screenshotDataUrl":"data:image/png;base64,iVBORw0KGgo="}}`)
	e.clock.Advance(time.Minute)
	anyHost := console.NewResults(e.store, "a", console.Config{Now: e.clock.Now, PageHosts: []string{"*"}})
	byDefault := console.NewConsole(e.store, "a", console.Config{Now: e.clock.Now}, nil)
	get := func(h http.Handler, host, path string) *httptest.ResponseRecorder {
		rec := httptest.NewRecorder()
		r := httptest.NewRequest("GET", path, nil)
		r.Host = host
		h.ServeHTTP(rec, r)
		return rec
	}
	export := "/surveys/" + e.survA.ID + "/export?header=titles"
	for _, path := range []string{"/", "/surveys/" + e.survA.ID, export} {
		for _, host := range []string{"example.com:abc", "[::1]:x", "a:", "localhost:99999"} {
			for name, h := range map[string]http.Handler{"any host allowed": anyHost, "loopback only": byDefault} {
				rec := get(h, host, path)
				if body := rec.Body.String(); rec.Code != http.StatusBadRequest || !strings.Contains(body, "port that is not a number") ||
					strings.Contains(body, "private") || strings.Contains(body, host) {
					t.Errorf("%s: GET %s for Host %q: %d, want a 400 about the port:\n%s", name, path, host, rec.Code, body)
				}
			}
		}
	}
	if rec := get(anyHost, "example.com:8443", export); rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), "http://example.com:8443/surveys/") {
		t.Errorf("the export for Host example.com:8443: %d, want links under it:\n%.500s", rec.Code, rec.Body)
	}
}
