package delivery

import (
	"net/url"
	"strings"
	"time"

	"github.com/svc-feedback/svc/store"
)

// Destinations: each host gets at most MaxPerDestination attempts at once; its other claimed
// deliveries wait for them in memory, within their leases, holding no worker.

// What takeHost did with a delivery.
const (
	hostTaken   = iota // an attempt slot of its host: send it
	hostWaiting        // waiting for the host's next free slot
	hostFull           // neither: too many wait already
)

// takeHost counts an attempt to host in unless it already has MaxPerDestination in flight; then
// p waits for a slot, unless maxWaitingPerSlot per slot wait already. A delivery that waits too
// long for its lease is handed back by sweep.
func (d *Dispatcher) takeHost(host string, p prepared) int {
	d.hostsMu.Lock()
	defer d.hostsMu.Unlock()
	switch {
	case d.perHost[host] < d.o.MaxPerDestination:
		d.perHost[host]++
		return hostTaken
	case len(d.waiting[host]) < maxWaitingPerSlot*d.o.MaxPerDestination:
		d.waiting[host] = append(d.waiting[host], p)
		return hostWaiting
	}
	return hostFull
}

// maxWaitingPerSlot bounds the deliveries waiting for one attempt slot of a host: their memory.
const maxWaitingPerSlot = 64

// releaseHost ends an attempt to host: the slot goes to the host's first waiting delivery,
// returned for the caller to send, or is freed.
func (d *Dispatcher) releaseHost(host string) (prepared, bool) {
	d.hostsMu.Lock()
	defer d.hostsMu.Unlock()
	if w := d.waiting[host]; len(w) > 0 {
		next := w[0]
		if len(w) == 1 {
			delete(d.waiting, host)
		} else {
			d.waiting[host] = w[1:]
		}
		return next, true
	}
	if d.perHost[host]--; d.perHost[host] <= 0 {
		delete(d.perHost, host)
	}
	return prepared{}, false
}

// sweep hands back to the outbox the waiting deliveries that could no longer be sent within
// their leases (their destination is slow): while its lease holds, no other sender takes a
// delivery, so a delivery that waited past it could be sent twice. Run at every poll, well
// within the lease's margin over an attempt.
func (d *Dispatcher) sweep() {
	deadline := d.o.Now().Add(d.o.AttemptTimeout + d.o.PollInterval)
	var late []prepared
	d.hostsMu.Lock()
	for host, w := range d.waiting {
		kept := w[:0]
		for _, p := range w {
			if p.leased.Before(deadline) {
				late = append(late, p)
			} else {
				kept = append(kept, p)
			}
		}
		if len(kept) == 0 {
			delete(d.waiting, host)
		} else {
			d.waiting[host] = kept
		}
	}
	d.hostsMu.Unlock()
	for _, p := range late {
		d.handBack(p.del, 0)
	}
}

// handBack returns a claimed delivery to the outbox unsent, due again after wait, keeping what
// its last attempt said.
func (d *Dispatcher) handBack(del store.Delivery, wait time.Duration) {
	now := d.o.Now()
	d.record(store.DeliveryResult{ID: del.ID, State: store.DeliveryPending, LastStatus: del.LastStatus, LastError: del.LastError,
		At: now, NextAttemptAt: now.Add(wait)})
}

// hostOf is the destination a webhook URL's attempts are counted against: its host, port
// included.
func hostOf(target string) string {
	if u, err := url.Parse(target); err == nil {
		return strings.ToLower(u.Host)
	}
	return target
}
