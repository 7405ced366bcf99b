// Package metrics collects svc's metrics in the Prometheus text format: requests by route and
// status with their latency, webhook attempts by outcome, the store's commits, its outbox's
// backlog, and how busy its connections and writer are. Only an app that imports it links the
// Prometheus client: svc itself reports through the svc.Observer this package implements.
package metrics

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/svc-feedback/svc"
	"github.com/svc-feedback/svc/store"
)

// Metrics collects svc's metrics in a Prometheus registry of its own (nothing is registered
// globally) and serves them in the Prometheus text format: it is an http.Handler to mount
// where your app wants, behind its own access control. Give it to svc.NewHandler as
// Options.Observer, and, for the store's commits, its ObserveCommit to sqlite.Options or
// postgres.Options:
//
//	m := metrics.New()
//	st, err := sqlite.Open(ctx, "svc.db", &sqlite.Options{OnCommit: m.ObserveCommit})
//	h, err := svc.NewHandler(st, &svc.Options{Observer: m})
//	adminMux.Handle("GET /metrics", m)
type Metrics struct {
	reg        *prometheus.Registry
	serve      http.Handler
	requests   *prometheus.CounterVec
	latency    *prometheus.HistogramVec
	deliveries *prometheus.CounterVec
	batch      prometheus.Histogram
	commit     prometheus.Histogram
	storeOnce  sync.Once
}

var _ svc.Observer = (*Metrics)(nil)

// New returns a Metrics with svc's collectors, and Go's runtime and process collectors,
// registered in a registry of its own.
func New() *Metrics {
	reg := prometheus.NewRegistry()
	m := &Metrics{
		reg: reg,
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "svc_http_requests_total",
			Help: "Requests served, by route pattern and status code."}, []string{"route", "code"}),
		latency: prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "svc_http_request_duration_seconds",
			Help: "Time to serve a request, by route pattern.", Buckets: prometheus.ExponentialBuckets(0.0005, 2, 14)}, []string{"route"}),
		deliveries: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "svc_webhook_attempts_total",
			Help: "Webhook delivery attempts, by outcome (succeeded, failed, retry, handed_back) and attempt number."}, []string{"outcome", "attempt"}),
		batch: prometheus.NewHistogram(prometheus.HistogramOpts{Name: "svc_store_commit_writes",
			Help: "Writes per store commit (group commit).", Buckets: prometheus.ExponentialBuckets(1, 2, 9)}),
		commit: prometheus.NewHistogram(prometheus.HistogramOpts{Name: "svc_store_commit_duration_seconds",
			Help: "Time to run and commit a batch of writes.", Buckets: prometheus.ExponentialBuckets(0.0001, 2, 14)}),
	}
	reg.MustRegister(m.requests, m.latency, m.deliveries, m.batch, m.commit,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	m.serve = promhttp.HandlerFor(reg, promhttp.HandlerOpts{Registry: reg})
	return m
}

// ServeHTTP serves the metrics in the Prometheus text format.
func (m *Metrics) ServeHTTP(w http.ResponseWriter, r *http.Request) { m.serve.ServeHTTP(w, r) }

// Registry is the registry the metrics are in, for an app that adds collectors of its own or
// gathers them into another.
func (m *Metrics) Registry() *prometheus.Registry { return m.reg }

// ObserveCommit records one commit of the store: how many writes it held and how long it took.
// Give it to sqlite.Options.OnCommit or postgres.Options.OnCommit.
func (m *Metrics) ObserveCommit(writes int, took time.Duration) {
	m.batch.Observe(float64(writes))
	m.commit.Observe(took.Seconds())
}

// Request implements svc.Observer: svc_http_requests_total and svc_http_request_duration_seconds.
func (m *Metrics) Request(route string, status int, took time.Duration) {
	m.requests.WithLabelValues(route, strconv.Itoa(status)).Inc()
	m.latency.WithLabelValues(route).Observe(took.Seconds())
}

// Attempt implements svc.Observer: svc_webhook_attempts_total.
func (m *Metrics) Attempt(outcome string, attempt int) {
	m.deliveries.WithLabelValues(outcome, strconv.Itoa(attempt)).Inc()
}

// Store implements svc.Observer: it adds, once, what the store can tell at each scrape, its
// outbox's backlog (store.OutboxCounter) and how busy its connections and writer are
// (store.PoolReporter).
func (m *Metrics) Store(s store.Store) {
	m.storeOnce.Do(func() {
		if c, ok := s.(store.OutboxCounter); ok {
			m.reg.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "svc_webhook_outbox_backlog",
				Help: "Webhook deliveries waiting to be sent or being sent."}, func() float64 {
				ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
				defer cancel()
				n, err := c.PendingDeliveries(ctx)
				if err != nil && !errors.Is(err, store.ErrClosed) {
					return -1
				}
				return float64(n)
			}))
		}
		if r, ok := s.(store.PoolReporter); ok {
			m.reg.MustRegister(newPoolCollector(r))
		}
	})
}

// poolCollector reads a store's pool statistics once per scrape.
type poolCollector struct {
	r                                         store.PoolReporter
	conns, max, waits, waitTime, queuedWrites *prometheus.Desc
}

func newPoolCollector(r store.PoolReporter) *poolCollector {
	return &poolCollector{r: r,
		conns: prometheus.NewDesc("svc_store_connections",
			"Open connections of the store's pool, by state (in_use or idle).", []string{"state"}, nil),
		max: prometheus.NewDesc("svc_store_connections_max",
			"The most connections the store's pool opens.", nil, nil),
		waits: prometheus.NewDesc("svc_store_connection_waits_total",
			"Queries that waited for a free connection of the store's pool.", nil, nil),
		waitTime: prometheus.NewDesc("svc_store_connection_wait_seconds_total",
			"Time queries waited for a free connection of the store's pool.", nil, nil),
		queuedWrites: prometheus.NewDesc("svc_store_queued_writes",
			"Writes waiting for the store's writer (group commit).", nil, nil),
	}
}

// Describe implements prometheus.Collector.
func (c *poolCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{c.conns, c.max, c.waits, c.waitTime, c.queuedWrites} {
		ch <- d
	}
}

// Collect implements prometheus.Collector.
func (c *poolCollector) Collect(ch chan<- prometheus.Metric) {
	st := c.r.PoolStats()
	ch <- prometheus.MustNewConstMetric(c.conns, prometheus.GaugeValue, float64(st.InUse), "in_use")
	ch <- prometheus.MustNewConstMetric(c.conns, prometheus.GaugeValue, float64(st.Idle), "idle")
	ch <- prometheus.MustNewConstMetric(c.max, prometheus.GaugeValue, float64(st.MaxConns))
	ch <- prometheus.MustNewConstMetric(c.waits, prometheus.CounterValue, float64(st.Waits))
	ch <- prometheus.MustNewConstMetric(c.waitTime, prometheus.CounterValue, st.WaitTime.Seconds())
	ch <- prometheus.MustNewConstMetric(c.queuedWrites, prometheus.GaugeValue, float64(st.QueuedWrites))
}
