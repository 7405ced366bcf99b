package api

import (
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/svc-feedback/svc/store"
)

// readyTimeout bounds the store check of a readiness probe, which load balancers call often
// and want answered quickly either way.
const readyTimeout = 2 * time.Second

// handleHealthz serves "GET /healthz": the process is up and serving. It needs no key and
// touches nothing, so a liveness probe never restarts a server for a slow database.
func (h *Handler) handleHealthz(w http.ResponseWriter, r *http.Request) {
	h.writeJSON(endpointWriter(w), http.StatusOK, struct {
		Status string `json:"status"`
	}{"ok"})
}

// handleReadyz serves "GET /readyz": the store answers, so the server can take traffic. A
// store that does not is a 503 with Retry-After, for a load balancer to route around.
func (h *Handler) handleReadyz(w http.ResponseWriter, r *http.Request) {
	w = endpointWriter(w)
	ctx, cancel := context.WithTimeout(r.Context(), readyTimeout)
	defer cancel()
	if err := h.ping(ctx); err != nil {
		h.writeError(w, r, &Error{Status: http.StatusServiceUnavailable, Code: CodeUnavailable, Message: "the store is not reachable"})
		h.log.WarnContext(r.Context(), "readiness check failed", "err", err)
		return
	}
	h.writeJSON(w, http.StatusOK, struct {
		Status string `json:"status"`
	}{"ready"})
}

// ping checks that the store answers: with its own Ping when it has one, else with a read of a
// team that cannot exist, which a reachable store answers with ErrNotFound.
func (h *Handler) ping(ctx context.Context) error {
	if p, ok := h.store.(store.Pinger); ok {
		return p.Ping(ctx)
	}
	_, err := h.store.Team(ctx, "\x00readyz")
	if errors.Is(err, store.ErrNotFound) {
		return nil
	}
	return err
}
