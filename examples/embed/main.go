// Command embed is an existing application that mounts svc under /feedback/ beside its own
// routes and middleware, keeps svc's data in an SQLite file of its own, and stops cleanly.
//
//	go run ./examples/embed                         # creates a team, keys and a survey in Go
//	go run ./examples/embed -seed examples/receiver/fixture.json   # or imports them from a file
//
// It listens on 127.0.0.1:8081; the widget endpoints are under
// http://127.0.0.1:8081/feedback/v1/svc/...
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
	"github.com/svc-feedback/svc/store"
	"github.com/svc-feedback/svc/store/fixture"
	"github.com/svc-feedback/svc/store/sqlite"
	"github.com/svc-feedback/svc/survey"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:8081", "listen address")
	db := flag.String("db", "embed-svc.db", "svc's SQLite file")
	seed := flag.String("seed", "", "fixture file to import instead of creating data in Go")
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, *addr, *db, *seed, os.Stdout); err != nil {
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

// newApp opens svc's database, makes sure it holds data, and builds the app's routes.
func newApp(ctx context.Context, dbPath, seed string, out io.Writer) (*app, error) {
	st, err := sqlite.Open(ctx, dbPath, nil)
	if err != nil {
		return nil, err
	}
	if err := ensureData(ctx, st, seed, out); err != nil {
		st.Close()
		return nil, err
	}
	log := slog.New(slog.NewTextHandler(out, nil))
	feedback, err := svc.NewHandler(st, &svc.Options{Logger: log})
	if err != nil {
		return nil, err
	}

	mux := http.NewServeMux()
	// The app's own route.
	mux.HandleFunc("GET /hello", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintln(w, "hello from the app")
	})
	// svc under a prefix: StripPrefix hands it paths starting at /v1/.
	mux.Handle("/feedback/", http.StripPrefix("/feedback", feedback))
	return &app{handler: requestLog(log, mux), svc: feedback, store: st}, nil
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

// ensureData imports the fixture, or on first start creates a team, keys and a survey in Go.
func ensureData(ctx context.Context, st store.Store, seed string, out io.Writer) error {
	now := time.Now().UTC()
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
		return fixture.Import(ctx, st, fx, now) // importing twice changes nothing
	}
	if _, err := st.Team(ctx, "myapp"); err == nil {
		return nil
	}
	if err := st.CreateTeam(ctx, store.Team{ID: "myapp", Name: "My App", CreatedAt: now}); err != nil {
		return err
	}
	pk, _, err := store.CreateKey(ctx, st, "myapp", store.Publishable, now)
	if err != nil {
		return err
	}
	sk, _, err := store.CreateKey(ctx, st, "myapp", store.Secret, now)
	if err != nil {
		return err
	}
	next := survey.Routing{Type: survey.RoutingAlways, Target: survey.Target{Type: survey.TargetNext}}
	sv := store.Survey{ID: store.NewSurveyID(), TeamID: "myapp", Status: store.StatusActive, CreatedAt: now, UpdatedAt: now,
		Definition: survey.Definition{
			Title: "Quick feedback",
			Questions: []survey.Question{
				{ID: "score", Title: "How easy was checkout?", Position: 0, Required: true, RoutingLogic: next,
					Properties: survey.RatingProperties{ButtonLabel: "Next", Scale: 5}},
				{ID: "why", Title: "What could be easier?", Position: 1, RoutingLogic: next,
					Properties: survey.OpenEndedProperties{ButtonLabel: "Send", Max: 500}},
			},
			Confirmation: survey.Confirmation{Title: "Thanks!", Description: "We read every answer.", ButtonText: "Close"},
		}}
	if err := st.CreateSurvey(ctx, sv); err != nil {
		return err
	}
	fmt.Fprintf(out, "created team myapp (shown once):\npublishable key: %s\nsecret key: %s\nsurvey: %s\n", pk, sk, sv.ID)
	return nil
}

func run(ctx context.Context, addr, dbPath, seed string, out io.Writer) error {
	a, err := newApp(ctx, dbPath, seed, out)
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
