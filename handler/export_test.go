package handler_test

import (
	"net/http"

	"github.com/svc-feedback/svc/handler"
)

func newHandlerWithBase(e *env, base string) http.Handler {
	return handler.New(e.store, handler.Config{Now: e.clock.Now, BaseURL: base})
}
