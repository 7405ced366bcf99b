package store_test

import (
	"fmt"
	"log"
	"strings"

	"github.com/svc-feedback/svc/store"
)

// A fixture with a misspelt member still decodes; the member is listed so that the caller can
// warn about it before importing.
func ExampleDecodeFixture() {
	fx, err := store.DecodeFixture(strings.NewReader(`{"teams": [{"id": "acme", "name": "Acme",
	  "surveys": [{"id": "cexamplesurvey000000001", "title": "How are we doing?",
	    "webhookUrl": "https://example.com/hooks/svc", "webhookSecert": "s3cret"}]}]}`))
	if err != nil {
		log.Fatal(err)
	}
	// Report fx.Unknown, then store.Import(ctx, st, fx, time.Now()).
	sv := fx.Teams[0].Surveys[0]
	fmt.Println(sv.Title, sv.WebhookURL, sv.WebhookSecret == "")
	for _, m := range fx.Unknown {
		fmt.Println("unknown member:", m)
	}
	// Output:
	// How are we doing? https://example.com/hooks/svc true
	// unknown member: teams[0].surveys[0].webhookSecert
}
