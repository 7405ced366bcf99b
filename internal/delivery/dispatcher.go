// Package delivery sends response.created deliveries from the store's outbox: background
// workers claim due deliveries, build and sign the payload with webhookverify, and make one
// attempt each (a timeout, redirects not followed, through a dialer that refuses private
// addresses after DNS resolution). A retry, on 408, 429, 5xx and network errors, is not waited
// for in a worker: it is scheduled in the outbox after a jittered exponential backoff or the
// receiver's Retry-After, so a destination that is down holds no worker while it waits, and
// each destination has at most its share of the workers at once.
package delivery

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/svc-feedback/svc/store"
)

// UserAgent is sent with every delivery.
const UserAgent = "Svc-Webhook"

// Options tune a Dispatcher. Zero values mean svc's defaults, given with each field (and in
// docs/webhooks.md).
type Options struct {
	Logger *slog.Logger
	// Now is the clock for claims and signatures; nil means time.Now.
	Now func() time.Time
	// AllowPrivate lets deliveries reach loopback, private and link-local addresses.
	AllowPrivate bool
	// Workers bounds concurrent deliveries; zero means 8.
	Workers int
	// PollInterval is how often the outbox is checked when nothing signals new work; zero
	// means one second.
	PollInterval time.Duration
	// AttemptTimeout bounds each HTTP attempt; zero means 5 s.
	AttemptTimeout time.Duration
	// RetryMax is the number of retries after the first attempt; zero means 3. Use -1 for none.
	RetryMax int
	// RetryWaitMin is the first backoff (then doubled each retry, with ±25% jitter); zero
	// means 1 s.
	RetryWaitMin time.Duration
	// RetryAfterMax caps a receiver's Retry-After and the backoff; zero means 60 s.
	RetryAfterMax time.Duration
	// Lease is how long a claimed delivery stays reserved for this sender, which makes one
	// attempt; zero means AttemptTimeout plus 25 s. Another sender takes over a delivery whose
	// lease ran out (its sender stopped).
	Lease time.Duration
	// MaxPerDestination bounds the attempts in flight to one host; zero means half the
	// workers (at least 1). A delivery due while its host is at the bound waits in the outbox.
	MaxPerDestination int
	// OnAttempt, when set, is told of every attempt's outcome (succeeded, failed, retry,
	// handed_back) and number in its round (1 for the first), for metrics.
	OnAttempt func(outcome string, attempt int)
	// Observe, when set, is called with the outcome of every delivery: succeeded, failed
	// after its last attempt, or handed back by a stopping sender. Attempts is then the count
	// of the delivery's attempts since it was created or redelivered.
	Observe func(store.DeliveryResult)
}

// Dispatcher delivers webhooks in the background. Start it once; Close stops it.
type Dispatcher struct {
	store store.Store
	o     Options
	log   *slog.Logger
	http  *http.Client

	nudge chan struct{}
	stop  chan struct{}
	done  chan struct{}
	// inflight counts the workers busy: each a goroutine sending a claimed delivery, then those
	// of its destination that wait for it (see waiting), which hold no worker of their own.
	inflight atomic.Int64
	wg       sync.WaitGroup
	// perHost counts the attempts in flight to each destination host, and waiting holds the
	// claimed deliveries of a host at its share, each run by the next of its attempts to end.
	hostsMu sync.Mutex
	perHost map[string]int
	waiting map[string][]prepared

	// sendCtx is cancelled when Close's deadline passes, ending attempts still running; they
	// hand their deliveries back as pending.
	sendCtx    context.Context
	cancelSend context.CancelFunc
	startOnce  sync.Once
	closeOnce  sync.Once
}

// New returns a Dispatcher over s. It sends nothing until Start.
func New(s store.Store, o Options) *Dispatcher {
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Workers <= 0 {
		o.Workers = 8
	}
	if o.PollInterval <= 0 {
		o.PollInterval = time.Second
	}
	if o.AttemptTimeout <= 0 {
		o.AttemptTimeout = 5 * time.Second
	}
	if o.RetryMax == 0 {
		o.RetryMax = 3
	} else if o.RetryMax < 0 {
		o.RetryMax = 0
	}
	if o.RetryWaitMin <= 0 {
		o.RetryWaitMin = time.Second
	}
	if o.RetryAfterMax <= 0 {
		o.RetryAfterMax = 60 * time.Second
	}
	if o.Lease <= 0 {
		o.Lease = o.AttemptTimeout + 25*time.Second
	}
	if o.MaxPerDestination <= 0 {
		o.MaxPerDestination = max(1, o.Workers/2)
	}
	ctx, cancel := context.WithCancel(context.Background())
	return &Dispatcher{
		store: s, o: o, log: o.Logger,
		http: &http.Client{
			Transport: newTransport(o.AllowPrivate, o.AttemptTimeout),
			Timeout:   o.AttemptTimeout,
			// Redirects are final answers, never followed.
			CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
		},
		nudge: make(chan struct{}, 1), stop: make(chan struct{}), done: make(chan struct{}), perHost: make(map[string]int),
		waiting: make(map[string][]prepared),
		sendCtx: ctx, cancelSend: cancel,
	}
}

// Start begins delivering in the background.
func (d *Dispatcher) Start() {
	d.startOnce.Do(func() {
		go d.run()
		// A store shared with other processes may tell of their deliveries as they are
		// scheduled, so this sender need not wait for its poll to send them.
		if w, ok := d.store.(store.DeliveryWatcher); ok {
			go func() { _ = w.WatchDeliveries(d.sendCtx, d.Notify) }()
		}
	})
}

// Notify tells the dispatcher new deliveries may be due, so it need not wait for its poll.
func (d *Dispatcher) Notify() {
	select {
	case d.nudge <- struct{}{}:
	default:
	}
}

// Close stops claiming deliveries and waits for those in flight until ctx is done; attempts
// still running then are cancelled and their deliveries left pending for the next start.
func (d *Dispatcher) Close(ctx context.Context) error {
	var err error
	d.closeOnce.Do(func() {
		d.Start() // so done is closed even if Start was never called
		close(d.stop)
		<-d.done
		finished := make(chan struct{})
		go func() { d.wg.Wait(); close(finished) }()
		select {
		case <-finished:
		case <-ctx.Done():
			d.cancelSend()
			<-finished
			err = ctx.Err()
		}
		d.cancelSend()
		d.http.CloseIdleConnections()
	})
	return err
}

func (d *Dispatcher) run() {
	defer close(d.done)
	timer := time.NewTimer(0)
	defer timer.Stop()
	for {
		select {
		case <-d.stop:
			return
		case <-d.nudge:
		case <-timer.C:
		}
		d.sweep()
		d.claim()
		timer.Reset(d.o.PollInterval)
	}
}

func (d *Dispatcher) claim() {
	free := d.o.Workers - int(d.inflight.Load())
	if free <= 0 {
		return
	}
	batch, err := d.store.ClaimDeliveries(d.sendCtx, d.o.Now(), d.o.Lease, free)
	if err != nil {
		if !errors.Is(err, store.ErrClosed) {
			d.log.Error("webhook: claim deliveries", "err", err)
		}
		return
	}
	d.inflight.Add(int64(len(batch)))
	for _, del := range batch {
		d.wg.Add(1)
		go func() {
			defer func() {
				d.inflight.Add(-1)
				d.wg.Done()
				d.Notify() // a free worker may take more
			}()
			d.deliver(del)
		}()
	}
}

// prepared is a claimed delivery ready to send: where, what, signed with which secrets, and
// until when it is this sender's to send (its lease).
type prepared struct {
	del     store.Delivery
	target  string
	body    []byte
	secrets []string
	leased  time.Time
}

// deliver sends a claimed delivery, and then, while its destination has deliveries waiting for
// a free attempt, those too. A delivery whose destination is at its share of the workers waits
// for it in memory, holding its lease, rather than being handed back to the outbox for later:
// handed back, a burst to one fast receiver went at a few deliveries a second.
func (d *Dispatcher) deliver(del store.Delivery) {
	leased := d.o.Now().Add(d.o.Lease)
	target, body, secrets, err := d.prepare(d.sendCtx, del)
	if err != nil {
		d.finish(del, store.DeliveryResult{ID: del.ID, State: store.DeliveryFailed, LastError: err.Error()}, "")
		return
	}
	host := hostOf(target)
	p := prepared{del, target, body, secrets, leased}
	switch d.takeHost(host, p) {
	case hostWaiting:
		return // the host's next attempt to end sends it; this worker is free meanwhile
	case hostFull:
		// As many wait as memory allows: back to the outbox, for later.
		d.handBack(del, d.o.AttemptTimeout/2)
		return
	}
	for ok := true; ok; p, ok = d.releaseHost(host) {
		d.send(p)
	}
}

// send makes one attempt of a prepared delivery and records the outcome: succeeded, failed, or
// pending again at the time of its next retry.
func (d *Dispatcher) send(p prepared) {
	ctx := d.sendCtx
	a := d.attemptRecovered(ctx, p.target, p.del.ID, p.body, p.secrets)
	res := d.decide(p.del, a, d.o.Now(), ctx.Err() != nil)
	if res.State == store.DeliveryPending && res.Attempts > 0 {
		d.log.Warn("webhook: attempt failed; will retry", "delivery", p.del.ID, "attempt", p.del.RoundAttempts+1,
			"url", RedactURL(p.target), "status", a.status, "err", res.LastError, "retry_at", res.NextAttemptAt)
	}
	// Counted before the outcome is recorded and Observe told of it, so that whoever Observe
	// wakes sees the attempt in the metrics.
	d.countAttempt(res.State, p.del.RoundAttempts+1)
	if res.State == store.DeliveryPending && ctx.Err() == nil {
		d.record(res) // a retry, due at res.NextAttemptAt: not an outcome
		return
	}
	d.finish(p.del, res, p.target)
}

// decide is what an attempt a of del, made at now, comes to: succeeded on a 2xx; pending again
// after a backoff when it failed in a way worth retrying (a network error or timeout, 408, 429,
// 5xx) and its round has retries left; failed otherwise (redirects and other statuses are
// final). A sender that is stopping hands the delivery back pending, the attempt not counted.
func (d *Dispatcher) decide(del store.Delivery, a attemptResult, now time.Time, stopping bool) store.DeliveryResult {
	res := store.DeliveryResult{ID: del.ID, State: store.DeliveryFailed, Attempts: 1, LastStatus: a.status, At: now, NextAttemptAt: now}
	switch {
	case a.err == nil && a.status >= 200 && a.status < 300:
		res.State = store.DeliverySucceeded
	case a.err != nil:
		res.LastError = a.err.Error()
	default:
		res.LastError = strconv.Itoa(a.status) + " " + http.StatusText(a.status)
	}
	switch {
	case stopping:
		res.State, res.Attempts, res.LastError = store.DeliveryPending, 0, "sender stopped before the delivery finished"
	case res.State == store.DeliveryFailed && a.retryable() && del.RoundAttempts < d.o.RetryMax:
		res.State = store.DeliveryPending
		res.NextAttemptAt = now.Add(backoff(d.o.RetryWaitMin, d.o.RetryAfterMax, del.RoundAttempts, a))
	}
	return res
}

// countAttempt tells OnAttempt of an attempt that ended in state.
func (d *Dispatcher) countAttempt(state store.DeliveryState, attempt int) {
	if d.o.OnAttempt == nil {
		return
	}
	outcome := string(state)
	switch {
	case state == store.DeliveryPending && d.sendCtx.Err() != nil:
		outcome = "handed_back"
	case state == store.DeliveryPending:
		outcome = "retry"
	}
	d.o.OnAttempt(outcome, attempt)
}

// finish records a delivery's outcome for this round, logs it (a final failure at ERROR) and
// tells Observe, with the round's attempts in all.
func (d *Dispatcher) finish(del store.Delivery, res store.DeliveryResult, target string) {
	if res.At.IsZero() {
		res.At = d.o.Now()
		res.NextAttemptAt = res.At
	}
	if !d.record(res) {
		return
	}
	level := slog.LevelInfo
	if res.State == store.DeliveryFailed {
		level = slog.LevelError
	}
	d.log.Log(context.Background(), level, "webhook delivery", "delivery", del.ID, "url", RedactURL(target), "state", res.State,
		"attempts", del.RoundAttempts+res.Attempts, "status", res.LastStatus, "err", res.LastError)
	if d.o.Observe != nil {
		res.Attempts += del.RoundAttempts
		d.o.Observe(res)
	}
}

// record stores a claimed delivery's result, reporting whether it could.
func (d *Dispatcher) record(res store.DeliveryResult) bool {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := d.store.FinishDelivery(ctx, res); errors.Is(err, store.ErrNotFound) {
		// Its response was deleted (or its respondent erased) while it was sent.
		d.log.Info("webhook: delivery deleted while it was sent; its outcome is not kept", "delivery", res.ID)
		return false
	} else if err != nil {
		d.log.Error("webhook: record delivery", "delivery", res.ID, "err", err)
		return false
	}
	return true
}

// prepare loads what a delivery sends: its URL, payload and signing secrets.
func (d *Dispatcher) prepare(ctx context.Context, del store.Delivery) (string, []byte, []string, error) {
	sv, err := d.store.Survey(ctx, del.TeamID, del.SurveyID)
	if err != nil {
		return "", nil, nil, fmt.Errorf("load survey: %w", err)
	}
	if sv.WebhookURL == "" || sv.Status == store.StatusDeleted {
		return "", nil, nil, errors.New("the survey no longer has a webhook")
	}
	team, err := d.store.Team(ctx, del.TeamID)
	if err != nil {
		return "", nil, nil, fmt.Errorf("load team: %w", err)
	}
	resp, err := d.store.Response(ctx, del.SurveyID, del.ResponseID)
	if err != nil {
		return "", nil, nil, fmt.Errorf("load response: %w", err)
	}
	body, err := Payload(sv, team, resp, del.CreatedAt)
	if err != nil {
		return "", nil, nil, err
	}
	var secrets []string
	if sv.WebhookSecret != "" {
		secrets = append(secrets, sv.WebhookSecret)
		if sv.PreviousWebhookSecret != "" && d.o.Now().Before(sv.PreviousSecretExpiresAt) {
			secrets = append(secrets, sv.PreviousWebhookSecret)
		}
	}
	return sv.WebhookURL, body, secrets, nil
}
