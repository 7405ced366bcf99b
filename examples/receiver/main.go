// Command receiver receives svc webhooks: it verifies each delivery's signature with
// webhookverify (refusing replays older than five minutes), skips responses it has already
// handled, and prints each new response.
//
//	go run ./examples/receiver -secret local-dev-secret
//
// To send it deliveries from a local svc, start the server with the fixture beside this file,
// whose survey's webhook points at http://127.0.0.1:9090/webhooks/svc:
//
//	go run ./examples/server -db receiver-demo.db -seed examples/receiver/fixture.json
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
	"sync"
	"syscall"
	"time"

	"github.com/svc-feedback/svc/webhookverify"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:9090", "listen address")
	secret := flag.String("secret", os.Getenv("SVC_WEBHOOK_SECRET"), "the survey's webhook secret (SVC_WEBHOOK_SECRET)")
	flag.Parse()
	if *secret == "" {
		fmt.Fprintln(os.Stderr, "receiver: give the webhook secret with -secret or SVC_WEBHOOK_SECRET")
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	h, err := newReceiver(*secret, os.Stdout, nil)
	if err != nil {
		fmt.Fprintln(os.Stderr, "receiver:", err)
		os.Exit(2)
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		fmt.Fprintln(os.Stderr, "receiver:", err)
		os.Exit(1)
	}
	mux := http.NewServeMux()
	mux.Handle("POST /webhooks/svc", h)
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() {
		<-ctx.Done()
		_ = srv.Shutdown(context.Background())
	}()
	fmt.Printf("receiving on http://%s/webhooks/svc\n", ln.Addr())
	if err := srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
		fmt.Fprintln(os.Stderr, "receiver:", err)
		os.Exit(1)
	}
}

// newReceiver returns the webhook endpoint, or why it cannot verify deliveries (an empty
// secret). now is the clock (nil for time.Now).
func newReceiver(secret string, out io.Writer, now func() time.Time) (http.Handler, error) {
	v, err := webhookverify.NewVerifier(secret)
	if err != nil {
		return nil, err
	}
	v.Now = now
	// Deliveries can repeat (a redelivery, a retry after a lost reply): handle each response
	// once. A real receiver keeps this set in its database.
	var mu sync.Mutex
	seen := map[string]bool{}
	return webhookverify.Handler(v, &webhookverify.HandlerOptions{Logger: slog.New(slog.NewTextHandler(out, nil))},
		func(ctx context.Context, e *webhookverify.Event) error {
			r := e.Data.Response
			mu.Lock()
			dup := seen[r.ID]
			seen[r.ID] = true
			mu.Unlock()
			if dup {
				return nil
			}
			fmt.Fprintf(out, "response %s from %s to %q (team %s)\n", r.ID, r.Respondent, r.Survey.Title, r.Survey.Team.Name)
			for _, a := range r.Data {
				fmt.Fprintf(out, "  %s: %s\n", a.Question.Title, a.Answer.Stringified)
			}
			return nil
		})
}
