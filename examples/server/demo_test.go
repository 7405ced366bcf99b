package main

import (
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"

	"github.com/svc-feedback/svc"
	"github.com/svc-feedback/svc/client"
	"github.com/svc-feedback/svc/store/sqlite"
	"github.com/svc-feedback/svc/survey"
)

// TestDemoPage: the page at / embeds the widget and names the demo survey (not the newest) with a
// publishable key that works and stays the same across restarts and servers sharing the
// database, unless an operator revokes it; with a fixture there is no demo page.
func TestDemoPage(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the server")
	}
	bin := buildServer(t)
	db := filepath.Join(t.TempDir(), "svc.db")
	get := func(url, key string) (int, string, http.Header) {
		req, _ := http.NewRequest("GET", url, nil)
		if key != "" {
			req.Header.Set("x-svc-pk", key)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b), resp.Header
	}
	page := regexp.MustCompile(`data-survey-id="([a-z0-9]+)" data-publishable-key="(svc_pk_[A-Za-z0-9]+)"`)
	visit := func(p *proc) (surveyID, key string) {
		code, body, h := get(p.url+"/", "")
		if code != 200 || h.Get("Content-Type") != "text/html; charset=utf-8" || !strings.Contains(body, `<script src="/v1/svc/widget.js" defer></script>`) {
			t.Fatalf("GET / = %d %s:\n%s", code, h.Get("Content-Type"), body)
		}
		m := page.FindStringSubmatch(body)
		if m == nil {
			t.Fatalf("GET / names no survey and key:\n%s", body)
		}
		if code, body, _ := get(p.url+"/v1/svc/"+m[1], m[2]); code != 200 || !strings.Contains(body, `"questions"`) {
			t.Fatalf("the demo page's survey and key: GET /v1/svc/%s = %d %s", m[1], code, body)
		}
		return m[1], m[2]
	}
	stop := func(p *proc) {
		_ = p.cmd.Process.Signal(syscall.SIGTERM)
		_ = p.cmd.Wait()
	}

	p := startServer(t, bin, "-db", db)
	if !strings.Contains(p.stdout.String(), "open "+p.url+"/ to see the widget") {
		t.Errorf("the server does not say where the demo page is:\n%s", p.stdout)
	}
	survey1, key1 := visit(p)
	if code, _, _ := get(p.url+"/v1/svc/widget.js", ""); code != 200 {
		t.Errorf("GET /v1/svc/widget.js = %d", code)
	}

	// A survey made since, as the README's quick start makes one, is not the demo's.
	sk := regexp.MustCompile(`export SVC_SK=(\S+)`).FindStringSubmatch(p.stdout.String())
	if sk == nil {
		t.Fatalf("no secret key printed:\n%s", p.stdout)
	}
	c, err := client.New(p.url, sk[1])
	if err != nil {
		t.Fatal(err)
	}
	other := survey.Sample()
	other.Title = "Another survey"
	if _, err := c.CreateSurvey(t.Context(), &client.SurveyInput{Definition: other, Status: "active"}); err != nil {
		t.Fatal(err)
	}
	// A second server on the same database, and a restart, embed the same key: a page that
	// either served keeps working.
	p2 := startServer(t, bin, "-db", db)
	if s, k := visit(p2); s != survey1 || k != key1 {
		t.Errorf("a second server's page: survey %s key %s, want %s and the first server's key", s, k, survey1)
	}
	stop(p2)
	stop(p)
	p = startServer(t, bin, "-db", db)
	survey2, key2 := visit(p)
	if survey2 != survey1 || key2 != key1 {
		t.Errorf("after a restart: survey %s (was %s), key changed: %v", survey2, survey1, key2 != key1)
	}
	// A key an operator revoked stays revoked: the page gets another.
	if _, _, err := cmd(t, db, "key", "revoke", "-team", "demo", demoPageKeyPrefix+"0"); err != nil {
		t.Fatal(err)
	}
	stop(p)
	p = startServer(t, bin, "-db", db)
	if s, k := visit(p); s != survey1 || k == key1 {
		t.Errorf("after the page's key was revoked: survey %s, same key: %v", s, k == key1)
	}
	stop(p)

	fixture, _, _, _ := writeFixture(t, "")
	p = startServer(t, bin, "-db", filepath.Join(t.TempDir(), "seeded.db"), "-seed", fixture)
	defer stop(p)
	if code, body, _ := get(p.url+"/", ""); code != http.StatusNotFound || !strings.Contains(body, `"error"`) {
		t.Errorf("GET / with a fixture = %d %s, want svc's JSON 404", code, body)
	}
}

// TestResultsFlag: -results serves a team's results pages at /results/ on loopback, and is
// refused on any other address.
func TestResultsFlag(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the server")
	}
	bin := buildServer(t)
	p := startServer(t, bin, "-db", filepath.Join(t.TempDir(), "svc.db"), "-results", "demo")
	defer func() {
		_ = p.cmd.Process.Signal(syscall.SIGTERM)
		_ = p.cmd.Wait()
	}()
	resp, err := http.Get(p.url + "/results/")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(b), "How are we doing?") {
		t.Errorf("GET /results/ = %d\n%s", resp.StatusCode, b)
	}
	// A web site that points its own name at this server (DNS rebinding) reads nothing.
	for _, path := range []string{"/results/", "/"} {
		req, _ := http.NewRequest("GET", p.url+path, nil)
		req.Host = "rebound.example:8080"
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusForbidden || strings.Contains(string(b), "How are we doing?") || strings.Contains(string(b), "svc_pk_") {
			t.Errorf("GET %s for another host = %d\n%s", path, resp.StatusCode, b)
		}
	}
	var out strings.Builder
	err = run(t.Context(), []string{"-addr", "0.0.0.0:0", "-db", filepath.Join(t.TempDir(), "other.db"), "-results", "demo"},
		func(string) string { return "" }, &out, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "loopback") {
		t.Errorf("-results on every interface: %v", err)
	}
}

// TestDemoPageServes: the demo page, its other pages, script and style as a browser gets them
// through the server's routes: under a strict policy with nothing inline for it to refuse, the
// page ?page= names or a 404 page, the console linked when it is served, and svc's own JSON 404
// for any other path.
func TestDemoPageServes(t *testing.T) {
	serveDemo := demoRoutes(t)
	get := func(root http.Handler, target string) (int, http.Header, string) {
		w := httptest.NewRecorder()
		root.ServeHTTP(w, httptest.NewRequest("GET", "http://127.0.0.1:8080"+target, nil))
		return w.Code, w.Result().Header, w.Body.String()
	}
	root := serveDemo(config{})
	inline := regexp.MustCompile(`<script>|<script [^>]*>[^<]|<style|style=|\son[a-z]+=`)
	for _, tc := range []struct{ target, h1, current string }{
		{"/", "Home", `<a href="/" aria-current="page">Home</a>`},
		{"/?page=pricing", "Pricing", `<a href="/?page=pricing" aria-current="page">Pricing</a>`},
		{"/?page=account&utm_source=mail", "Account", `<a href="/?page=account" aria-current="page">Account</a>`},
	} {
		code, hdr, body := get(root, tc.target)
		if code != 200 || hdr.Get("Content-Security-Policy") != demoCSP || !strings.Contains(body, "<h1>"+tc.h1+"</h1>") ||
			!strings.Contains(body, tc.current) || strings.Count(body, "aria-current") != 1 ||
			!strings.Contains(body, `<script src="/demo/page.js" defer></script>`) || !strings.Contains(body, `<button type="button" id="show">Show the demo survey</button>`) {
			t.Errorf("GET %s = %d, CSP %q:\n%s", tc.target, code, hdr.Get("Content-Security-Policy"), body)
		}
		if m := inline.FindString(body); m != "" {
			t.Errorf("GET %s: %q, which the page's policy refuses", tc.target, m)
		}
		if strings.Contains(body, `href="/console/"`) {
			t.Errorf("GET %s links to a console that is not served", tc.target)
		}
	}
	for _, target := range []string{"/?page=settings", "/?page=%zz", "/?page="} {
		code, _, body := get(root, target)
		if target == "/?page=" {
			if code != 200 || !strings.Contains(body, "<h1>Home</h1>") {
				t.Errorf("GET %s = %d, want the home page", target, code)
			}
			continue
		}
		if code != 404 || !strings.Contains(body, "<h1>No such page</h1>") || strings.Contains(body, "widget.js") || !strings.Contains(body, `href="/?page=pricing"`) {
			t.Errorf("GET %s = %d, want the demo's 404 page linking to its pages:\n%s", target, code, body)
		}
	}
	for path, ctype := range map[string]string{"/demo/page.js": "text/javascript; charset=utf-8", "/demo/page.css": "text/css; charset=utf-8"} {
		code, hdr, body := get(root, path)
		if code != 200 || hdr.Get("Content-Type") != ctype || hdr.Get("X-Content-Type-Options") != "nosniff" || len(body) < 100 {
			t.Errorf("GET %s = %d %s %q", path, code, hdr.Get("Content-Type"), hdr.Get("X-Content-Type-Options"))
		}
	}
	if code, _, body := get(root, "/demo/page.html"); code != 404 || !strings.Contains(body, `"error"`) {
		t.Errorf("GET /demo/page.html = %d %s, want svc's JSON 404", code, body)
	}

	// With the demo team's console served, the page links to it.
	if _, _, body := get(serveDemo(config{consoleTeam: demoTeam}), "/"); !strings.Contains(body, `<a href="/console/">console</a>`) {
		t.Errorf("the page does not link to the console it is served with:\n%s", body)
	}
}

// demoRoutes makes the demo data in a new database, and returns what makes the server's routes
// over it for a configuration, served on loopback.
func demoRoutes(t *testing.T) func(config) http.Handler {
	t.Helper()
	st, err := sqlite.Open(t.Context(), filepath.Join(t.TempDir(), "svc.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	if err := ensureDemo(t.Context(), st, "http://127.0.0.1:8080", io.Discard); err != nil {
		t.Fatal(err)
	}
	h, err := svc.NewHandler(st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close(context.Background()) })
	return func(cfg config) http.Handler {
		root, err := routes(t.Context(), st, h, cfg, nil, &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 8080})
		if err != nil {
			t.Fatal(err)
		}
		return root
	}
}
