package api_test

import (
	"net/http"

	"github.com/svc-feedback/svc/internal/api"
)

func newHandlerWithBase(e *env, base string) http.Handler {
	return api.New(e.store, api.Config{Now: e.clock.Now, BaseURL: base})
}
