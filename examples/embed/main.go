// Command embed is an existing application that mounts svc under /feedback/ beside its own
// routes and middleware, keeps svc's data in an SQLite file of its own, and stops cleanly.
//
//	go run ./examples/embed                         # creates a team, keys and a survey in Go
//	go run ./examples/embed -seed examples/receiver/fixture.json   # or imports them from a file
//
// It listens on 127.0.0.1:8081; the widget endpoints are under
// http://127.0.0.1:8081/feedback/v1/svc/..., and EMBED_ADMIN_SESSION (a cookie value of the
// app's own login, "admin-session" when unset) opens /results and /feedback/v1/protected/...
//
// It shows what an embedding app does in Go: svc.Bootstrap makes its team and first keys on the
// first start (printed once); its first survey is created from Go with the client, with only
// the fields it cares about; its own page, /results, reads its results in process
// (client.WithHandler: no port) as the app's own login, which svc.Options.Authorize lets in
// front of the protected API; and the same login, its session cookie, opens svc's protected API
// to the app's admins.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/svc-feedback/svc"
	"github.com/svc-feedback/svc/client"
	"github.com/svc-feedback/svc/store"
	"github.com/svc-feedback/svc/store/fixture"
	"github.com/svc-feedback/svc/store/sqlite"
	"github.com/svc-feedback/svc/survey"
)

// team is the app's team in svc: one app, one team.
const team = "myapp"

func main() {
	addr := flag.String("addr", "127.0.0.1:8081", "listen address")
	db := flag.String("db", "embed-svc.db", "svc's SQLite file")
	seed := flag.String("seed", "", "fixture file to import instead of creating data in Go")
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	admin := os.Getenv("EMBED_ADMIN_SESSION")
	if admin == "" {
		admin = "admin-session"
	}
	if err := run(ctx, *addr, *db, *seed, admin, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "embed:", err)
		os.Exit(1)
	}
}

// app is the application: its own routes plus svc.
type app struct {
	handler http.Handler
	svc     *svc.Handler
	store   *sqlite.Store
}

// asApp is the context key under which the app's own code calls svc in process: a value no
// request from outside can carry.
type asApp struct{}

// newApp opens svc's database, makes sure it holds data, and builds the app's routes. admin is
// the session cookie of the app's own login that may read results.
func newApp(ctx context.Context, dbPath, seed, admin string, out io.Writer) (*app, error) {
	st, err := sqlite.Open(ctx, dbPath, nil)
	if err != nil {
		return nil, err
	}
	log := slog.New(slog.NewTextHandler(out, nil))
	feedback, err := svc.NewHandler(st, &svc.Options{Logger: log, Authorize: appLogin(admin)})
	if err != nil {
		st.Close()
		return nil, err
	}
	mux := http.NewServeMux()
	// svc under a prefix: StripPrefix hands it paths starting at /v1/.
	mux.Handle("/feedback/", http.StripPrefix("/feedback", feedback))
	// The app reaches svc in its own process, as its own login: no key, no port.
	results, err := client.NewAuthorized("http://app/feedback", client.WithHandler(mux))
	if err != nil {
		st.Close()
		return nil, err
	}
	a := &app{handler: requestLog(log, mux), svc: feedback, store: st}
	if err := ensureData(ctx, st, results, seed, out); err != nil {
		_ = a.close(ctx)
		return nil, err
	}
	// The app's own routes.
	mux.HandleFunc("GET /hello", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintln(w, "hello from the app")
	})
	mux.Handle("GET /results", requireAdmin(admin, resultsPage(results)))
	return a, nil
}

// appLogin is svc.Options.Authorize for this app: its own code (in process) and its admins'
// session cookie act for its team; any other request is left to svc's secret keys.
func appLogin(admin string) func(*http.Request) (string, error) {
	return func(r *http.Request) (string, error) {
		if r.Context().Value(asApp{}) != nil {
			return team, nil
		}
		c, err := r.Cookie("session")
		switch {
		case err != nil:
			return "", nil // no login of the app's: a secret key may still open it
		case c.Value == admin:
			return team, nil
		}
		return "", errors.New("your session is not an admin's: sign in to the app as an admin")
	}
}

// requireAdmin is the app's own login in front of its own pages.
func requireAdmin(admin string, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if c, err := r.Cookie("session"); err != nil || c.Value != admin {
			http.Error(w, "sign in as an admin", http.StatusUnauthorized)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// resultsPage is the app's own page of its surveys' results, read in process.
func resultsPage(c *client.Client) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx := context.WithValue(r.Context(), asApp{}, true)
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		for s, err := range c.Surveys(ctx, nil) {
			if err != nil {
				http.Error(w, "could not read the results", http.StatusInternalServerError)
				return
			}
			sum, err := c.GetSummary(ctx, s.ID, nil)
			if err != nil {
				http.Error(w, "could not read the results", http.StatusInternalServerError)
				return
			}
			fmt.Fprintf(w, "%s: %d started, %d finished\n", s.Title, sum.Current.Funnel.Started, sum.Current.Funnel.Finished)
		}
	})
}

// close stops svc's background work (webhooks in flight may finish until ctx is done) and
// closes its database.
func (a *app) close(ctx context.Context) error {
	return errors.Join(a.svc.Close(ctx), a.store.Close())
}

// requestLog is the app's own middleware, wrapping svc like any other route.
func requestLog(log *slog.Logger, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		next.ServeHTTP(w, r)
		log.Info("request", "method", r.Method, "path", r.URL.Path, "took", time.Since(start))
	})
}

// ensureData imports the fixture, or on first start makes the team, its keys and a survey in
// Go: the survey through svc's own API, in process, with only the fields that matter.
func ensureData(ctx context.Context, st store.Store, c *client.Client, seed string, out io.Writer) error {
	if seed != "" {
		f, err := os.Open(seed)
		if err != nil {
			return err
		}
		defer f.Close()
		fx, err := fixture.Decode(f)
		if err != nil {
			return err
		}
		if len(fx.Unknown) > 0 {
			fmt.Fprintf(out, "%s: ignored members svc does not know (typos?): %s\n", seed, strings.Join(fx.Unknown, ", "))
		}
		return fixture.Import(ctx, st, fx, time.Now()) // importing twice changes nothing
	}
	keys, err := svc.Bootstrap(ctx, st, team, "My App")
	if err != nil || keys == nil {
		return err // nil: not the first start
	}
	sv, err := c.CreateSurvey(context.WithValue(ctx, asApp{}, true), &client.SurveyInput{Status: "active", Definition: survey.Definition{
		Title: "Quick feedback",
		Questions: []survey.Question{
			{ID: "score", Title: "How easy was checkout?", Required: true, Properties: survey.RatingProperties{Scale: 5}},
			{ID: "why", Title: "What could be easier?", Properties: survey.OpenEndedProperties{ButtonLabel: "Send", Max: 500}},
		},
	}})
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "created team %s (shown once):\npublishable key: %s\nsecret key: %s\nsurvey: %s\n", team, keys.Publishable, keys.Secret, sv.ID)
	return nil
}

func run(ctx context.Context, addr, dbPath, seed, admin string, out io.Writer) error {
	a, err := newApp(ctx, dbPath, seed, admin, out)
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		_ = a.close(ctx)
		return err
	}
	srv := &http.Server{Handler: a.handler, ReadHeaderTimeout: 10 * time.Second}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	fmt.Fprintf(out, "listening on http://%s (svc under /feedback/)\n", ln.Addr())
	select {
	case err := <-served:
		_ = a.close(context.Background())
		return err
	case <-ctx.Done():
	}
	shutdown, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutdown); err != nil {
		return err
	}
	return a.close(shutdown)
}
