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
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/svc-feedback/svc"
	"github.com/svc-feedback/svc/logbuf"
	"github.com/svc-feedback/svc/metrics"
	"github.com/svc-feedback/svc/store"
	"github.com/svc-feedback/svc/store/fixture"
	"github.com/svc-feedback/svc/store/postgres"
	"github.com/svc-feedback/svc/store/sqlite"
	"github.com/svc-feedback/svc/xlsx"
)

// Serving: the default command, with its flags.

// config is the server's settings, from flags and SVC_* variables.
type config struct {
	addr                 string
	db                   string
	dbListen             string
	dbReplica            string
	seed                 string
	baseURL              string
	allowPrivateWebhooks bool
	// allowPrivateSet tells whether -allow-private-webhooks or its variable was given, so that
	// a fixture's own webhook addresses decide only when it was not.
	allowPrivateSet bool
	syncNormal      bool
	rateLimit       float64
	// shutdownTimeout bounds how long requests in flight may take to finish on a signal.
	shutdownTimeout time.Duration
	accessLog       bool
	metrics         bool
	// webhookLease is how long a claimed delivery stays this instance's (0 for the default).
	webhookLease time.Duration
	// resultsTeam, when set, serves that team's results pages at /results/ (loopback only);
	// consoleTeam its console at /console/.
	resultsTeam string
	consoleTeam string
}

func parseFlags(args []string, getenv func(string) string, stderr io.Writer) (config, error) {
	var c config
	fs := flag.NewFlagSet("server", flag.ContinueOnError)
	fs.SetOutput(stderr)
	if err := defineFlags(fs, &c, getenv); err != nil {
		return config{}, err
	}
	// Flags may come before or after a fixture file named without -seed.
	var positional []string
	for {
		if err := fs.Parse(args); err != nil {
			return config{}, err
		}
		if fs.NArg() == 0 {
			break
		}
		positional = append(positional, fs.Arg(0))
		args = fs.Args()[1:]
	}
	switch {
	case c.dbListen != "" && (!isPostgresURL(c.db) || !isPostgresURL(c.dbListen)):
		return config{}, errors.New("-db-listen is a postgres:// URL, for a -db that is one")
	case c.dbReplica != "" && (!isPostgresURL(c.db) || !isPostgresURL(c.dbReplica)):
		return config{}, errors.New("-db-replica is a postgres:// URL, for a -db that is one")
	case len(positional) == 1 && c.seed == "":
		c.seed = positional[0]
	case len(positional) > 0:
		return config{}, fmt.Errorf("unexpected arguments: %s (name one fixture file, or use -seed)", strings.Join(positional, " "))
	}
	c.allowPrivateSet = getenv("SVC_ALLOW_PRIVATE_WEBHOOKS") != ""
	fs.Visit(func(f *flag.Flag) {
		if f.Name == "allow-private-webhooks" {
			c.allowPrivateSet = true
		}
	})
	return c, nil
}

// defineFlags defines the serving flags in fs, each defaulting to its SVC_* variable.
func defineFlags(fs *flag.FlagSet, c *config, getenv func(string) string) error {
	env := func(name, def string) string {
		if v := getenv(name); v != "" {
			return v
		}
		return def
	}
	envBool := func(name string, def bool) bool {
		if b, err := strconv.ParseBool(getenv(name)); err == nil {
			return b
		}
		return def
	}
	defaultAddr := "127.0.0.1:8080"
	if port := getenv("PORT"); port != "" {
		// The platform convention (containers, PaaS): PORT is the port to serve on, on every
		// interface, since loopback is unreachable from outside a container. SVC_ADDR and
		// -addr still win.
		defaultAddr = net.JoinHostPort("", port)
	}
	fs.StringVar(&c.addr, "addr", env("SVC_ADDR", defaultAddr), "listen address (SVC_ADDR; PORT=n means all interfaces on port n)")
	fs.StringVar(&c.db, "db", env("SVC_DB", "svc.db"), "SQLite database file, or a postgres:// URL (SVC_DB)")
	fs.StringVar(&c.dbListen, "db-listen", env("SVC_DB_LISTEN", ""),
		"with a -db through a pooler (PgBouncer): a postgres:// URL of the same database reaching it directly, for LISTEN; without it the server polls (SVC_DB_LISTEN)")
	fs.StringVar(&c.dbReplica, "db-replica", env("SVC_DB_REPLICA", ""),
		"with a postgres:// -db: a streaming replica's URL, read by the protected API's lists and summaries while it is caught up (SVC_DB_REPLICA)")
	fs.StringVar(&c.seed, "seed", env("SVC_SEED", ""), "fixture file to import at start (SVC_SEED)")
	fs.StringVar(&c.baseURL, "base-url", env("SVC_BASE_URL", ""), "absolute URL the API is served at, for pagination links (SVC_BASE_URL)")
	fs.BoolVar(&c.allowPrivateWebhooks, "allow-private-webhooks", envBool("SVC_ALLOW_PRIVATE_WEBHOOKS", false),
		"let webhooks reach loopback and private addresses, for local development (SVC_ALLOW_PRIVATE_WEBHOOKS)")
	fs.BoolVar(&c.syncNormal, "sync-normal", envBool("SVC_SYNC_NORMAL", false),
		"commit with synchronous=NORMAL: faster, but the last commits may be lost on power loss (SVC_SYNC_NORMAL)")
	grace, err := time.ParseDuration(env("SVC_SHUTDOWN_TIMEOUT", "10s"))
	if err != nil {
		return fmt.Errorf("SVC_SHUTDOWN_TIMEOUT: %w", err)
	}
	fs.DurationVar(&c.shutdownTimeout, "shutdown-timeout", grace,
		"on SIGINT or SIGTERM, how long requests in flight may take to finish before they are cut (SVC_SHUTDOWN_TIMEOUT)")
	fs.BoolVar(&c.accessLog, "access-log", envBool("SVC_ACCESS_LOG", true), "log one line per request: method, route, status, duration, bytes (SVC_ACCESS_LOG)")
	fs.BoolVar(&c.metrics, "metrics", envBool("SVC_METRICS", false), "serve Prometheus metrics at GET /metrics; keep the address private (SVC_METRICS)")
	lease, err := time.ParseDuration(env("SVC_WEBHOOK_LEASE", "0s"))
	if err != nil {
		return fmt.Errorf("SVC_WEBHOOK_LEASE: %w", err)
	}
	fs.DurationVar(&c.webhookLease, "webhook-lease", lease,
		"how long a claimed webhook delivery stays this instance's before another may send it; 0 for 30 s (SVC_WEBHOOK_LEASE)")
	fs.StringVar(&c.resultsTeam, "results", env("SVC_RESULTS", ""),
		"serve this team's results pages at /results/, with no login: only on a loopback address (SVC_RESULTS; the demo team is \"demo\")")
	fs.StringVar(&c.consoleTeam, "console", env("SVC_CONSOLE", ""),
		"serve this team's console (results, and surveys made, published, paused and deleted) at /console/, with no login: only on a loopback address (SVC_CONSOLE)")
	rl, _ := strconv.ParseFloat(getenv("SVC_RATE_LIMIT"), 64)
	fs.Float64Var(&c.rateLimit, "rate-limit", rl,
		"requests per second allowed per publishable key and client address on the public endpoints, 0 for no limit (SVC_RATE_LIMIT)")
	return nil
}

// run runs a subcommand (team, key, fixture, help) or, by default, serves.
func run(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	if len(args) > 0 && isCommandWord(args[0]) {
		return runCommand(ctx, args, getenv, stdout, stderr)
	}
	cfg, err := parseFlags(args, getenv, stderr)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return usageError("%v", err)
	}
	log := slog.New(slog.NewTextHandler(stderr, nil))
	gcPercent, memoryLimit := tuneGC(getenv)
	log.Info("garbage collector", "GOGC", gcPercent, "GOMEMLIMIT", memoryLimit)

	var m *metrics.Metrics
	if cfg.metrics {
		m = metrics.New()
	}
	st, err := openStore(ctx, cfg, m)
	if err != nil {
		return err
	}
	defer st.Close()
	log.Info("opened database", "db", redactDB(cfg.db))
	allowPrivate, err := seed(ctx, st, cfg, log)
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", cfg.addr)
	if err != nil {
		return err
	}
	defer ln.Close()
	baseURL := cfg.baseURL
	if baseURL == "" {
		baseURL = "http://" + ln.Addr().String()
	}
	if cfg.seed == "" {
		if err := ensureDemo(ctx, st, baseURL, stdout); err != nil {
			return err
		}
	}
	var accessLog *slog.Logger
	if cfg.accessLog {
		// Queued: a request pays for a copy of its record; the lines are formatted and written
		// in batches, off the requests' path.
		out := logbuf.NewHandler(stderr, func(w io.Writer) slog.Handler { return slog.NewTextHandler(w, nil) })
		defer out.Close()
		accessLog = slog.New(out)
	}
	h, err := svc.NewHandler(st, handlerOptions(cfg, log, accessLog, allowPrivate, m))
	if err != nil {
		return err
	}
	root, err := routes(ctx, st, h, cfg, m, ln.Addr())
	if err != nil {
		return err
	}
	if cfg.consoleTeam != "" {
		fmt.Fprintf(stdout, "console of team %s at %s/console/\n", cfg.consoleTeam, baseURL)
	}
	if cfg.resultsTeam != "" {
		fmt.Fprintf(stdout, "results of team %s at %s/results/\n", cfg.resultsTeam, baseURL)
	}
	if cfg.seed == "" {
		fmt.Fprintf(stdout, "open %s/ to see the widget on the demo page\n", baseURL)
	}
	if err := serve(ctx, ln, root, cfg.shutdownTimeout, log, stdout); err != nil {
		return err
	}
	// Deliveries still sending after a few seconds stay pending for the next start.
	hookCtx, cancelHooks := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancelHooks()
	if err := h.Close(hookCtx); err != nil && !errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("stop webhook delivery: %w", err)
	}
	return st.Close()
}

// routes is what the server serves: svc, with /metrics when on, the results pages at /results/
// when asked, and the demo page at / when it runs on its demo data. It dispatches by path
// itself rather than through an http.ServeMux, whose redirects to a cleaned path would answer
// "DELETE /v1/protected/respondents/../surveys/S" with a 307 to "DELETE /v1/protected/surveys/S":
// svc answers an unclean path with a JSON 404 of its own, never a redirect.
func routes(ctx context.Context, st store.Store, h http.Handler, cfg config, m *metrics.Metrics, addr net.Addr) (http.Handler, error) {
	var results, console, page http.Handler
	if cfg.resultsTeam != "" || cfg.consoleTeam != "" {
		// The pages have no login of their own: an app mounts them behind its admin's.
		if tcp, ok := addr.(*net.TCPAddr); !ok || !tcp.IP.IsLoopback() {
			return nil, usageError("-results and -console serve pages without a login: listen on a loopback address (such as 127.0.0.1:8080) to use them")
		}
	}
	if cfg.resultsTeam != "" {
		rs, err := svc.NewResults(st, cfg.resultsTeam, &svc.Options{PageHosts: pageHosts(cfg), Spreadsheets: xlsx.New()})
		if err != nil {
			return nil, err
		}
		results = http.StripPrefix("/results", rs)
	}
	if cfg.consoleTeam != "" {
		// BaseURL: the Share page's links and snippet are where svc is served (the host's root
		// without -base-url).
		c, err := svc.NewConsole(st, cfg.consoleTeam, &svc.ConsoleOptions{Options: svc.Options{PageHosts: pageHosts(cfg), Spreadsheets: xlsx.New(), BaseURL: cfg.baseURL}})
		if err != nil {
			return nil, err
		}
		console = http.StripPrefix("/console", c)
	}
	if cfg.seed == "" {
		p, err := demoPage(ctx, st, cfg.consoleTeam == demoTeam)
		if err != nil {
			return nil, err
		}
		// Like the results pages, the demo page answers its own host names only (loopback, or
		// the -base-url's), never a name another web site points at this server.
		if page, err = svc.AllowHosts(p, pageHosts(cfg)); err != nil {
			return nil, err
		}
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		get := r.Method == http.MethodGet || r.Method == http.MethodHead
		switch path := r.URL.Path; {
		case m != nil && get && path == "/metrics":
			m.ServeHTTP(w, r)
		case results != nil && strings.HasPrefix(path, "/results/"):
			results.ServeHTTP(w, r)
		case console != nil && strings.HasPrefix(path, "/console/"):
			console.ServeHTTP(w, r)
		case page != nil && get && isDemoPath(path):
			page.ServeHTTP(w, r)
		default:
			h.ServeHTTP(w, r) // svc answers everything else, its own 404s and 405s included
		}
	}), nil
}

// pageHosts are the hosts the server's pages answer under: the -base-url's when it is given,
// else loopback names and addresses (nil).
func pageHosts(cfg config) []string {
	if u, err := url.Parse(cfg.baseURL); err == nil && u.Host != "" {
		return []string{u.Host}
	}
	return nil
}

// openStore opens the database as the flags say: PostgreSQL for a postgres:// or postgresql://
// URL, else an SQLite file; either's commits counted when metrics are on.
func openStore(ctx context.Context, cfg config, m *metrics.Metrics) (store.Store, error) {
	if isPostgresURL(cfg.db) {
		o := &postgres.Options{ListenURL: cfg.dbListen, ReplicaURL: cfg.dbReplica}
		if m != nil {
			o.OnCommit = m.ObserveCommit
		}
		return postgres.Open(ctx, cfg.db, o)
	}
	o := &sqlite.Options{}
	if m != nil {
		o.OnCommit = m.ObserveCommit
	}
	if cfg.syncNormal {
		o.Synchronous = sqlite.SynchronousNormal
	}
	return sqlite.Open(ctx, cfg.db, o)
}

// isPostgresURL reports whether -db names a PostgreSQL database rather than an SQLite file.
func isPostgresURL(db string) bool {
	return strings.HasPrefix(db, "postgres://") || strings.HasPrefix(db, "postgresql://")
}

// handlerOptions are svc's options as the flags say.
func handlerOptions(cfg config, log, accessLog *slog.Logger, allowPrivate bool, m *metrics.Metrics) *svc.Options {
	opts := &svc.Options{Logger: log, AccessLog: accessLog, BaseURL: cfg.baseURL, Spreadsheets: xlsx.New(),
		Webhooks: svc.WebhookOptions{AllowPrivate: allowPrivate, Lease: cfg.webhookLease}}
	if cfg.rateLimit > 0 {
		opts.RateLimit = &svc.RateLimit{PerSecond: cfg.rateLimit, Burst: int(2 * cfg.rateLimit)}
	}
	if m != nil { // a nil *Metrics in the interface would be called
		opts.Observer = m
	}
	return opts
}

// seed imports the -seed fixture, if any, and reports whether webhooks may reach private
// addresses: as the flag says, or, when it was not given, whether the fixture names such an
// address. A fixture that does means it: the refusal guards against addresses from less trusted
// hands, and an operator's own file is not one of them.
func seed(ctx context.Context, st store.Store, cfg config, log *slog.Logger) (allowPrivate bool, err error) {
	if cfg.seed == "" {
		return cfg.allowPrivateWebhooks, nil
	}
	fx, err := importFile(ctx, st, cfg.seed, log)
	if err != nil {
		return false, err
	}
	log.Info("imported fixture", "file", cfg.seed)
	if urls := privateWebhookURLs(fx); len(urls) > 0 && !cfg.allowPrivateSet {
		log.Warn("the fixture sends webhooks to loopback or private addresses, so they are allowed (-allow-private-webhooks, "+
			"which sets svc.Options.Webhooks.AllowPrivate); pass -allow-private-webhooks=false to refuse them", "urls", urls)
		return true, nil
	}
	return cfg.allowPrivateWebhooks, nil
}

// serve serves h on ln until ctx is done, then stops accepting and waits for the requests in
// flight for at most grace; those still running then (a stalled upload, say) are cut, so the
// server still stops in bounded time, hands its webhook deliveries back and exits 0.
func serve(ctx context.Context, ln net.Listener, h http.Handler, grace time.Duration, log *slog.Logger, stdout io.Writer) error {
	srv := &http.Server{
		Handler:           h,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       60 * time.Second,
		WriteTimeout:      60 * time.Second,
		IdleTimeout:       120 * time.Second,
		MaxHeaderBytes:    64 << 10,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	fmt.Fprintf(stdout, "listening on http://%s\n", ln.Addr())
	log.Info("listening", "addr", ln.Addr().String())

	select {
	case err := <-served:
		return err
	case <-ctx.Done():
	}
	log.Info("shutting down", "grace", grace)
	shutdownCtx, cancel := context.WithTimeout(context.Background(), grace)
	defer cancel()
	if err := srv.Shutdown(shutdownCtx); errors.Is(err, context.DeadlineExceeded) {
		log.Warn("requests still in flight after the grace period were cut", "grace", grace)
		_ = srv.Close()
	} else if err != nil {
		return fmt.Errorf("shutdown: %w", err)
	}
	if err := <-served; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

func importFile(ctx context.Context, s store.Store, path string, log *slog.Logger) (fixture.File, error) {
	f, err := os.Open(path)
	if err != nil {
		return fixture.File{}, err
	}
	defer f.Close()
	fx, err := fixture.Decode(f)
	if err != nil {
		return fixture.File{}, fmt.Errorf("%s: %w", path, err)
	}
	if len(fx.Unknown) > 0 {
		log.Warn("fixture members svc does not know were ignored; check them for typos", "file", path, "members", fx.Unknown)
	}
	if err := fixture.Import(ctx, s, fx, time.Now()); err != nil {
		return fixture.File{}, fmt.Errorf("%s: %w", path, err)
	}
	return fx, nil
}

// privateWebhookURLs lists the fixture's webhook URLs that name a loopback or private address.
func privateWebhookURLs(fx fixture.File) []string {
	var urls []string
	for _, t := range fx.Teams {
		for _, sv := range t.Surveys {
			if sv.WebhookURL != "" && svc.PrivateWebhookURL(sv.WebhookURL) {
				urls = append(urls, sv.WebhookURL)
			}
		}
	}
	return urls
}

// redactDB is the -db value for logs: a PostgreSQL URL without its password.
func redactDB(db string) string {
	if u, err := url.Parse(db); err == nil && isPostgresURL(db) {
		return u.Redacted()
	}
	return db
}
