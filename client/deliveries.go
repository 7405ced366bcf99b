package client

import (
	"context"
	"iter"
	"time"
)

// Webhook deliveries: their log, and a delivery sent again.

// WebhookDelivery is one webhook delivery's log.
type WebhookDelivery struct {
	ID            string     `json:"id"`
	ResponseID    string     `json:"responseId"`
	State         string     `json:"state"`
	Attempts      int        `json:"attempts"`
	LastStatus    *int       `json:"lastStatus"`
	LastError     *string    `json:"lastError"`
	NextAttemptAt *time.Time `json:"nextAttemptAt"`
	CreatedAt     time.Time  `json:"createdAt"`
	UpdatedAt     time.Time  `json:"updatedAt"`
	DeliveredAt   *time.Time `json:"deliveredAt"`
}

// ListWebhookDeliveries returns one page of a survey's webhook deliveries, newest first.
func (c *Client) ListWebhookDeliveries(ctx context.Context, surveyID string, opts *ListOptions) (*Page[WebhookDelivery], error) {
	var p Page[WebhookDelivery]
	if err := c.t.do(ctx, "GET", pathf("/v1/protected/surveys/%s/webhook-deliveries", surveyID), opts.values(), nil, &p, true); err != nil {
		return nil, err
	}
	return &p, nil
}

// WebhookDeliveries iterates over every webhook delivery of a survey.
func (c *Client) WebhookDeliveries(ctx context.Context, surveyID string, opts *ListOptions) iter.Seq2[WebhookDelivery, error] {
	return paginate(listOptions(opts), func(o ListOptions) (*Page[WebhookDelivery], error) {
		return c.ListWebhookDeliveries(ctx, surveyID, &o)
	})
}

// Redeliver sends a delivery again (typically a failed one). It is not retried: a POST.
func (c *Client) Redeliver(ctx context.Context, surveyID, deliveryID string) (*WebhookDelivery, error) {
	var out struct {
		Data WebhookDelivery `json:"data"`
	}
	if err := c.t.do(ctx, "POST", pathf("/v1/protected/surveys/%s/webhook-deliveries/%s/redeliver", surveyID, deliveryID), nil, nil, &out, false); err != nil {
		return nil, err
	}
	return &out.Data, nil
}
