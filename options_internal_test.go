package svc

import (
	"reflect"
	"testing"
	"time"

	"github.com/svc-feedback/svc/store"
)

// TestEveryWebhookOptionReachesTheSender: each field of WebhookOptions, set to a value of its
// own, arrives as it was set in the sender's options of the same name (Disabled aside, which
// decides whether a sender starts at all). A field added to one and not passed on fails here.
func TestEveryWebhookOptionReachesTheSender(t *testing.T) {
	w := WebhookOptions{AllowPrivate: true, Workers: 7, PollInterval: 3 * time.Second, AttemptTimeout: 4 * time.Second,
		RetryMax: 5, RetryWaitMin: 2 * time.Second, RetryAfterMax: 9 * time.Second, Lease: 40 * time.Second,
		MaxPerDestination: 2, Observe: func(store.DeliveryResult) {}}
	wv := reflect.ValueOf(w)
	for i := range wv.NumField() {
		if f := wv.Type().Field(i); f.Name != "Disabled" && wv.Field(i).IsZero() {
			t.Fatalf("the test sets no value of WebhookOptions.%s", f.Name)
		}
	}
	_, dc, err := (&Options{Webhooks: w}).build()
	if err != nil {
		t.Fatal(err)
	}
	dv := reflect.ValueOf(dc)
	for i := range wv.NumField() {
		name := wv.Type().Field(i).Name
		if name == "Disabled" {
			continue
		}
		got := dv.FieldByName(name)
		switch {
		case !got.IsValid():
			t.Errorf("the sender has no option %s", name)
		case got.Kind() == reflect.Func:
			if got.IsNil() {
				t.Errorf("%s does not reach the sender", name)
			}
		case !reflect.DeepEqual(got.Interface(), wv.Field(i).Interface()):
			t.Errorf("%s reaches the sender as %v, was %v", name, got.Interface(), wv.Field(i).Interface())
		}
	}
}
