package api

import "net/http"

// routes registers every endpoint; each pattern appears here and nowhere else.
func (h *Handler) routes() {
	// Probes for load balancers and orchestrators, without a key.
	h.handle("GET /healthz", h.handleHealthz)
	h.handle("GET /readyz", h.handleReadyz)
	h.handle("GET /v1/openapi.json", h.handleOpenAPI)

	// The browser widget's script and the code it loads when needed, without a key.
	h.handle("GET /v1/svc/widget.js", h.handleWidgetScript)
	h.handle("GET /v1/svc/widget/{file}", h.handleWidgetFile)

	// Public widget endpoints (publishable key in x-svc-pk).
	h.handle("GET /v1/svc/{surveyId}", h.public(h.handleSurveyGet))
	h.handle("GET /v1/svc/{surveyId}/respondent/{respondent}", h.public(h.handleHistoryGet))
	h.handle("POST /v1/svc/{surveyId}/respondent/{respondent}/event", h.public(h.handleEventPost))
	h.handle("PUT /v1/svc/{surveyId}/response/{responseId}", h.public(h.handleResponsePut))
	h.handle("POST /v1/svc/next-survey", h.public(h.handleNextSurvey))

	// Protected endpoints (secret key as a bearer token).
	h.handle("GET /v1/protected/surveys", h.protected(h.handleSurveysList))
	h.handle("GET /v1/protected/surveys/{surveyId}", h.protected(h.handleProtectedSurveyGet))
	h.handle("GET /v1/protected/surveys/{surveyId}/responses", h.protected(h.handleResponsesList))
	h.handle("GET /v1/protected/surveys/{surveyId}/stats", h.protected(h.handleStatsGet))
	h.handle("GET /v1/protected/surveys/{surveyId}/score-distributions", h.protected(h.handleScoreDistributionsGet))
	h.handle("GET /v1/protected/surveys/{surveyId}/summary", h.protected(h.handleSummaryGet))
	h.handle("GET /v1/protected/surveys/{surveyId}/trends", h.protected(h.handleTrendsGet))
	h.handle("GET /v1/protected/surveys/{surveyId}/webhook-deliveries", h.protected(h.handleDeliveriesList))

	// The management API (secret key): surveys, webhook secrets, single responses, exports.
	h.handle("POST /v1/protected/surveys", h.protected(h.handleSurveyCreate))
	h.handle("PATCH /v1/protected/surveys/{surveyId}", h.protected(h.handleSurveyPatch))
	h.handle("DELETE /v1/protected/surveys/{surveyId}", h.protected(h.handleSurveyDelete))
	h.handle("POST /v1/protected/surveys/{surveyId}/webhook-secret", h.protected(h.handleWebhookSecretPost))
	h.handle("GET /v1/protected/surveys/{surveyId}/responses/export", h.protected(h.handleExport))
	h.handle("GET /v1/protected/surveys/{surveyId}/responses/{responseId}", h.protected(h.handleResponseGet))
	h.handle("DELETE /v1/protected/surveys/{surveyId}/responses/{responseId}", h.protected(h.handleResponseDelete))
	h.handle("DELETE /v1/protected/respondents/{respondent}", h.protected(h.handleRespondentErase))
	h.handle("POST /v1/protected/surveys/{surveyId}/webhook-deliveries/{deliveryId}/redeliver", h.protected(h.handleRedeliverPost))

	// Targeting (secret key): the team's settings, what it stores of people, its prompts.
	h.handle("GET /v1/protected/settings", h.protected(h.handleSettingsGet))
	h.handle("PATCH /v1/protected/settings", h.protected(h.handleSettingsPatch))
	h.handle("PUT /v1/protected/respondents/{respondent}/attributes", h.protected(h.handleAttributesPut))
	h.handle("POST /v1/protected/surveys/{surveyId}/prompts", h.protected(h.handlePromptPost))
	h.handle("GET /v1/protected/surveys/{surveyId}/prompts", h.protected(h.handlePromptsList))
	h.handle("DELETE /v1/protected/surveys/{surveyId}/prompts/{promptId}", h.protected(h.handlePromptDelete))

	// Link surveys: the team's link secret (secret key), and the pages links open (no key).
	h.handle("POST /v1/protected/settings/link-secret", h.protected(h.handleLinkSecretPost))
	h.handle("GET /s/{surveyId}", h.handleLinkPage)
	h.handle("GET /s/link.css", h.handleLinkFile)
	h.handle("GET /s/link.js", h.handleLinkFile)
}

// handle registers one route, and keeps its pattern for Patterns.
func (h *Handler) handle(pattern string, handler any) {
	switch fn := handler.(type) {
	case http.Handler:
		h.mux.Handle(pattern, fn)
	case func(http.ResponseWriter, *http.Request):
		h.mux.HandleFunc(pattern, fn)
	default:
		panic("handler: route " + pattern + " has no handler") // a build defect, caught by every test
	}
	h.patterns = append(h.patterns, pattern)
}

// Patterns returns the pattern of every route, in the order routes registers them, such as
// "GET /v1/svc/{surveyId}".
func (h *Handler) Patterns() []string { return append([]string(nil), h.patterns...) }
