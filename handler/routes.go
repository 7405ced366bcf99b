package handler

// routes registers every endpoint; each pattern appears here and nowhere else.
func (h *Handler) routes() {
	// Probes for load balancers and orchestrators, without a key.
	h.mux.HandleFunc("GET /healthz", h.handleHealthz)
	h.mux.HandleFunc("GET /readyz", h.handleReadyz)

	// Public widget endpoints (publishable key in x-svc-pk).
	h.mux.Handle("GET /v1/svc/{surveyId}", h.public(h.handleSurveyGet))
	h.mux.Handle("GET /v1/svc/{surveyId}/respondent/{respondent}", h.public(h.handleHistoryGet))
	h.mux.Handle("POST /v1/svc/{surveyId}/respondent/{respondent}/event", h.public(h.handleEventPost))
	h.mux.Handle("PUT /v1/svc/{surveyId}/response/{responseId}", h.public(h.handleResponsePut))

	// Protected endpoints (secret key as a bearer token).
	h.mux.Handle("GET /v1/protected/surveys", h.protected(h.handleSurveysList))
	h.mux.Handle("GET /v1/protected/surveys/{surveyId}", h.protected(h.handleProtectedSurveyGet))
	h.mux.Handle("GET /v1/protected/surveys/{surveyId}/responses", h.protected(h.handleResponsesList))
	h.mux.Handle("GET /v1/protected/surveys/{surveyId}/stats", h.protected(h.handleStatsGet))
	h.mux.Handle("GET /v1/protected/surveys/{surveyId}/score-distributions", h.protected(h.handleScoreDistributionsGet))
	h.mux.Handle("GET /v1/protected/surveys/{surveyId}/webhook-deliveries", h.protected(h.handleDeliveriesList))
	h.mux.Handle("POST /v1/protected/surveys/{surveyId}/webhook-deliveries/{deliveryId}/redeliver", h.protected(h.handleRedeliverPost))
}
