package api

import (
	_ "embed"
	"net/http"
)

// openAPIDocument describes every route of routes.go: an OpenAPI 3.1 document kept by hand
// beside the code, and held to it by the handler's tests, which validate every request they
// make and every reply they get against it (validate_test.go).
//
//go:embed openapi/openapi.json
var openAPIDocument []byte

// OpenAPI returns the OpenAPI 3.1 document of the API, as GET /v1/openapi.json serves it.
func OpenAPI() []byte { return append([]byte(nil), openAPIDocument...) }

// handleOpenAPI serves "GET /v1/openapi.json": the API's OpenAPI document, to generate clients
// in other languages from. It needs no key.
func (h *Handler) handleOpenAPI(w http.ResponseWriter, r *http.Request) {
	w = endpointWriter(w)
	setHeader(w.Header(), headerCacheControl, "public, max-age=300")
	writeBody(w, http.StatusOK, openAPIDocument)
}
