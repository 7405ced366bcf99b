package webhookverify_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"time"

	"github.com/svc-feedback/svc/survey"
	"github.com/svc-feedback/svc/webhookverify"
)

// Verify a delivery's X-Svc-Signature-256 header against its raw body.
func ExampleVerify() {
	body := []byte(`{"event":"response.created"}`)
	header := webhookverify.Sign("my-webhook-secret", body) // what svc sends

	fmt.Println(webhookverify.Verify(body, header, "my-webhook-secret"))
	fmt.Println(webhookverify.Verify([]byte(`{"event":"forged"}`), header, "my-webhook-secret"))
	// Output:
	// <nil>
	// webhookverify: no matching signature
}

// An empty secret, such as an environment variable that is not set, is refused when the
// receiver starts rather than at every delivery: an HMAC keyed with nothing proves nothing.
func ExampleNewVerifier() {
	_, err := webhookverify.NewVerifier(os.Getenv("SVC_EXAMPLE_UNSET_SECRET"))
	fmt.Println(errors.Is(err, webhookverify.ErrEmptySecret))
	fmt.Println(err)

	// The functions refuse it too, for every delivery, rather than saying no signature matched.
	body := []byte(`{"event":"response.created"}`)
	fmt.Println(webhookverify.Verify(body, webhookverify.Sign("", body), ""))
	// Output:
	// true
	// webhookverify: the webhook secret is empty (is its environment variable set?)
	// webhookverify: the webhook secret is empty (is its environment variable set?)
}

// Receive deliveries with replay protection: Handler verifies, parses and calls your func.
func ExampleHandler() {
	v, err := webhookverify.NewVerifier("my-webhook-secret") // os.Getenv("SVC_WEBHOOK_SECRET") in a real receiver
	if err != nil {
		log.Fatal(err) // before serving anything
	}
	h, err := webhookverify.Handler(v, nil, func(ctx context.Context, e *webhookverify.Event) error {
		for _, a := range e.Data.Response.Data {
			switch raw := a.Answer.Raw.(type) {
			case survey.Number:
				fmt.Printf("%s: scored %v\n", a.Question.Title, float64(raw))
			case survey.Text:
				fmt.Printf("%s: %q\n", a.Question.Title, string(raw))
			}
		}
		return nil // a returned error answers 500, and svc retries
	})
	if err != nil {
		log.Fatal(err)
	}

	// A signed test delivery, as svc would send it.
	body := []byte(`{"event":"response.created","timestamp":"2026-11-21T10:04:05.123Z","data":{"response":{"id":"r1",
		"respondent":"ann","metadata":{},"survey":{"id":"s1","title":"S","description":null,"team":{"id":"t","name":"T"}},
		"data":[{"question":{"id":"nps","title":"NPS"},"answer":{"raw":9,"stringified":"9"}},
		        {"question":{"id":"c","title":"Comments"},"answer":{"raw":"Love it","stringified":"\"Love it\""}}]}}}`)
	r := httptest.NewRequest("POST", "/webhooks/svc", strings.NewReader(string(body)))
	webhookverify.SignHeaders(r.Header, "dlv_1", time.Now(), body, "my-webhook-secret")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, r)
	fmt.Println(rec.Code == http.StatusNoContent)
	// Output:
	// NPS: scored 9
	// Comments: "Love it"
	// true
}
