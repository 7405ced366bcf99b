package api

import (
	"errors"
	"net/http"
	"strings"

	"github.com/svc-feedback/svc/internal/wire"

	"github.com/svc-feedback/svc/store"
)

// deliveryJSON is a webhook delivery's log entry.
type deliveryJSON struct {
	ID            string     `json:"id"`
	ResponseID    string     `json:"responseId"`
	State         string     `json:"state"`
	Attempts      int        `json:"attempts"`
	LastStatus    *int       `json:"lastStatus"`
	LastError     *string    `json:"lastError"`
	NextAttemptAt *wire.Time `json:"nextAttemptAt"`
	CreatedAt     wire.Time  `json:"createdAt"`
	UpdatedAt     wire.Time  `json:"updatedAt"`
	DeliveredAt   *wire.Time `json:"deliveredAt"`
}

func toDeliveryJSON(d store.Delivery) deliveryJSON {
	out := deliveryJSON{ID: d.ID, ResponseID: d.ResponseID, State: string(d.State), Attempts: d.Attempts,
		CreatedAt: wire.Time(d.CreatedAt), UpdatedAt: wire.Time(d.UpdatedAt), DeliveredAt: wire.TimePtr(d.DeliveredAt)}
	if d.LastStatus != 0 {
		out.LastStatus = &d.LastStatus
	}
	if d.LastError != "" {
		out.LastError = &d.LastError
	}
	if d.State == store.DeliveryPending {
		out.NextAttemptAt = wire.TimePtr(&d.NextAttemptAt)
	}
	return out
}

// handleDeliveriesList serves "GET /v1/protected/surveys/{surveyId}/webhook-deliveries".
func (h *Handler) handleDeliveriesList(w http.ResponseWriter, r *http.Request, teamID string) error {
	q, err := queryValues(r)
	if err != nil {
		return err
	}
	limit, cursor, err := parsePage(q)
	if err != nil {
		return err
	}
	sv, err := h.surveyFor(r, teamID, notDeleted)
	if err != nil {
		return err
	}
	list, next, err := h.store.Deliveries(r.Context(), sv.ID, cursor, limit)
	if err != nil {
		return err
	}
	items := make([]deliveryJSON, len(list))
	for i, d := range list {
		items[i] = toDeliveryJSON(d)
	}
	nc := wire.EncodeCursor(next)
	h.writeJSON(w, http.StatusOK, page[deliveryJSON]{items, nc, limit, h.pageLinks(r, q, nc)})
	return nil
}

// handleRedeliverPost serves "POST /v1/protected/surveys/{surveyId}/webhook-deliveries/{deliveryId}/redeliver":
// the delivery becomes pending again and is sent at once.
func (h *Handler) handleRedeliverPost(w http.ResponseWriter, r *http.Request, teamID string) error {
	sv, err := h.surveyFor(r, teamID, notDeleted)
	if err != nil {
		return err
	}
	id := r.PathValue("deliveryId")
	if !strings.HasPrefix(id, "dlv_") || len(id) > 64 {
		return badRequest("deliveryId is not a delivery id (dlv_...)")
	}
	if sv.WebhookURL == "" {
		return &Error{Status: http.StatusConflict, Code: CodeConflict, Message: "the survey has no webhook URL to deliver to"}
	}
	d, err := h.store.Redeliver(r.Context(), sv.ID, id, h.now().UTC())
	if errors.Is(err, store.ErrNotFound) {
		return notFound("delivery not found")
	}
	if err != nil {
		return err
	}
	h.deliveryScheduled()
	h.writeJSON(w, http.StatusOK, struct {
		Data deliveryJSON `json:"data"`
	}{toDeliveryJSON(d)})
	return nil
}

func (h *Handler) deliveryScheduled() {
	if h.opts.OnDeliveryScheduled != nil {
		h.opts.OnDeliveryScheduled()
	}
}
