// Package handler describes svc's HTTP API for an app that embeds it: the route of every
// endpoint, and the OpenAPI document that GET /v1/openapi.json serves. The API itself is served
// by the http.Handler that svc.NewHandler returns, the one way in, which also sends the
// webhooks; its implementation is internal.
//
// The routes are Go http.ServeMux patterns, such as "GET /v1/svc/{surveyId}"; an app that
// mounts svc under a prefix serves them under it.
package handler

import "github.com/svc-feedback/svc/internal/api"

// Routes returns the pattern of every route svc serves, in the order svc registers them:
// health probes, the OpenAPI document, the widget's files, the public widget endpoints and the
// protected ones.
func Routes() []string { return api.New(nil, api.Config{}).Patterns() }

// OpenAPI returns the OpenAPI 3.1 document of every endpoint, to generate a client in another
// language from.
func OpenAPI() []byte { return api.OpenAPI() }
