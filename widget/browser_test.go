package widget_test

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/svc-feedback/svc"
	"github.com/svc-feedback/svc/store/fixture"
	"github.com/svc-feedback/svc/store/sqlite"
)

// TestBrowser runs the widget's end-to-end tests (test/browser/*.test.mjs) in headless Chromium,
// driven by playwright-core, against the real handler over a real SQLite file, with the pages
// of test/pages served from the same origin. Node.js, npm ci in this directory and Debian's
// chromium are needed: without them the test skips, except under CI (CI=true), where it fails.
func TestBrowser(t *testing.T) {
	if testing.Short() {
		t.Skip("browser tests are not short")
	}
	chromium := os.Getenv("SVC_CHROMIUM")
	if chromium == "" {
		chromium = "/usr/bin/chromium"
	}
	missing := ""
	if _, err := exec.LookPath("node"); err != nil {
		missing = "node is not installed"
	} else if _, err := os.Stat("node_modules/playwright-core"); err != nil {
		missing = "run npm ci in widget/ first"
	} else if _, err := os.Stat(chromium); err != nil {
		missing = "Chromium is not at " + chromium + " (apt-get install chromium, or set SVC_CHROMIUM)"
	}
	if missing != "" {
		if os.Getenv("CI") == "true" {
			t.Fatal(missing)
		}
		t.Skip(missing)
	}

	srv := startServer(t)
	// Pages on another origin, which load the widget and call the API across origins.
	other := httptest.NewServer(http.StripPrefix("/test", http.FileServer(http.Dir("test/pages"))))
	t.Cleanup(other.Close)
	// The files run one after another (each drives one Chromium): together about ten minutes on
	// two cores, so the bound is generous; go test's own -timeout must be above it.
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Minute)
	defer cancel()
	args := []string{"--test", "--test-reporter=spec", "--test-concurrency=1"}
	if run := os.Getenv("SVC_BROWSER_RUN"); run != "" {
		args = append(args, "--test-name-pattern="+run) // for working on one test
	}
	files, _ := filepath.Glob("test/browser/*.test.mjs")
	cmd := exec.CommandContext(ctx, "node", append(args, files...)...)
	cmd.Env = append(os.Environ(), "SVC_E2E_URL="+srv.URL, "SVC_E2E_OTHER_ORIGIN="+other.URL, "SVC_CHROMIUM="+chromium)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	if err != nil {
		t.Fatalf("browser tests failed (%v):\n%s", err, out.String())
	}
	t.Logf("browser tests:\n%s", out.String())
}

// startServer serves svc over a fresh SQLite file with test/fixture.json imported, the team's
// results pages under /results/, its console under /console/, and the test pages under /test/,
// and /test/csp.html: page.html under strictCSP, the strict policy the widget must work under.
func startServer(t *testing.T) *httptest.Server {
	t.Helper()
	ctx := t.Context()
	st, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "svc.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	f, err := os.Open("test/fixture.json")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	fx, err := fixture.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	if err := fixture.Import(ctx, st, fx, time.Now()); err != nil {
		t.Fatal(err)
	}
	h, err := svc.NewHandler(st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close(context.Background()) })
	results, err := svc.NewResults(st, fx.Teams[0].ID, nil)
	if err != nil {
		t.Fatal(err)
	}
	console, err := svc.NewConsole(st, fx.Teams[0].ID, nil)
	if err != nil {
		t.Fatal(err)
	}
	pages := http.FileServer(http.Dir("test/pages"))
	mux := http.NewServeMux()
	mux.Handle("/", h)
	mux.Handle("GET /results/", http.StripPrefix("/results", results))
	mux.Handle("/console/", http.StripPrefix("/console", console))
	mux.Handle("GET /test/", http.StripPrefix("/test", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/slow.js" {
			// A script that holds the parser, so a page's earlier scripts run before <body>.
			time.Sleep(700 * time.Millisecond)
			w.Header().Set("Content-Type", "text/javascript")
			return
		}
		if r.URL.Path == "/csp.html" {
			w.Header().Set("Content-Security-Policy", strictCSP)
			r.URL.Path = "/page.html"
		}
		w.Header().Set("Cache-Control", "no-store")
		pages.ServeHTTP(w, r)
	})))
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

// strictCSP is the strict Content-Security-Policy the widget must work under: nothing inline,
// no eval, everything from the page's own origin (images also from data: URLs).
const strictCSP = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'"
