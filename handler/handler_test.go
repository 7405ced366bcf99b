package handler_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/svc-feedback/svc/handler"
)

// TestRoutesAreDocumented: every route svc serves is a path of the OpenAPI document, with its
// method, and the probes and the widget's files come first.
func TestRoutesAreDocumented(t *testing.T) {
	var doc struct {
		Paths map[string]map[string]any `json:"paths"`
	}
	if err := json.Unmarshal(handler.OpenAPI(), &doc); err != nil {
		t.Fatal(err)
	}
	routes := handler.Routes()
	if len(routes) < 20 || routes[0] != "GET /healthz" {
		t.Fatalf("routes: %q", routes)
	}
	for _, r := range routes {
		method, path, _ := strings.Cut(r, " ")
		if _, ok := doc.Paths[path][strings.ToLower(method)]; !ok {
			t.Errorf("%s is not in the OpenAPI document", r)
		}
	}
}
