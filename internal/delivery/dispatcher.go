// Package delivery sends response.created deliveries from the store's outbox: background
// workers claim due deliveries, build and sign the payload with webhookverify, and send it with
// go-retryablehttp (a per-attempt timeout, retries with jittered exponential backoff on 408,
// 429, 5xx and network errors, Retry-After honoured up to a cap, redirects not followed),
// through a dialer that refuses private addresses after DNS resolution.
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

// Options tune a Dispatcher. Zero values mean the defaults of the contract.
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
	// Lease is how long a claimed delivery stays reserved for this sender; zero means 5 min.
	// It must outlast all attempts of one delivery.
	Lease time.Duration
	// Observe, when set, is called with every recorded outcome (for metrics and tests).
	Observe func(store.DeliveryResult)
}

// Dispatcher delivers webhooks in the background. Start it once; Close stops it.
type Dispatcher struct {
	store store.Store
	o     Options
	log   *slog.Logger
	http  *http.Client

	nudge    chan struct{}
	stop     chan struct{}
	done     chan struct{}
	inflight atomic.Int64
	wg       sync.WaitGroup

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
		o.Lease = 5 * time.Minute
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
		nudge: make(chan struct{}, 1), stop: make(chan struct{}), done: make(chan struct{}),
		sendCtx: ctx, cancelSend: cancel,
	}
}

// Start begins delivering in the background.
func (d *Dispatcher) Start() {
	d.startOnce.Do(func() { go d.run() })
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
	for _, del := range batch {
		d.inflight.Add(1)
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

// deliver sends one claimed delivery with its retries and records the outcome.
func (d *Dispatcher) deliver(del store.Delivery) {
	ctx := d.sendCtx
	res := store.DeliveryResult{ID: del.ID, State: store.DeliveryFailed}
	target, body, secrets, err := d.prepare(ctx, del)
	if err == nil {
		res.Attempts, res.LastStatus, err = d.sendRecovered(ctx, target, del.ID, body, secrets)
		if err == nil && res.LastStatus >= 200 && res.LastStatus < 300 {
			res.State = store.DeliverySucceeded
		} else if err == nil {
			res.LastError = strconv.Itoa(res.LastStatus) + " " + http.StatusText(res.LastStatus)
		}
	}
	if err != nil {
		res.LastError = err.Error()
	}
	if ctx.Err() != nil {
		// Stopping: hand the delivery back for the next start.
		res.State, res.LastError = store.DeliveryPending, "sender stopped before the delivery finished"
	}
	res.At = d.o.Now()
	res.NextAttemptAt = res.At
	finishCtx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := d.store.FinishDelivery(finishCtx, res); err != nil {
		d.log.Error("webhook: record delivery", "delivery", del.ID, "err", err)
		return
	}
	// A delivery that failed for good is what an operator must see; a success is routine.
	level := slog.LevelInfo
	if res.State == store.DeliveryFailed {
		level = slog.LevelError
	}
	d.log.Log(context.Background(), level, "webhook delivery", "delivery", del.ID, "url", RedactURL(target), "state", res.State,
		"attempts", res.Attempts, "status", res.LastStatus, "err", res.LastError)
	if d.o.Observe != nil {
		d.o.Observe(res)
	}
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
