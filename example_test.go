package svc_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/svc-feedback/svc"
	"github.com/svc-feedback/svc/store/fixture"
	"github.com/svc-feedback/svc/store/sqlite"
)

// A survey answered through the handler mounted in an application's own mux, under /feedback.
func ExampleNewHandler() {
	ctx := context.Background()
	dir, err := os.MkdirTemp("", "svc-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)

	st, err := sqlite.Open(ctx, filepath.Join(dir, "feedback.db"), nil)
	if err != nil {
		log.Fatal(err)
	}
	defer st.Close()

	// A team, its publishable key and a one-question survey, from a fixture. The Go API
	// (store.CreateKey, Store.CreateSurvey) does the same from code.
	const pk = "svc_pk_ExampleExampleExampleExampleExample1"
	fx, err := fixture.Decode(strings.NewReader(`{"teams": [{"id": "acme", "name": "Acme",
	  "publishableKeys": ["` + pk + `"],
	  "surveys": [{"id": "cexamplesurvey000000001", "status": "active", "title": "How are we doing?", "description": null,
	    "questions": [{"id": "nps", "title": "How likely are you to recommend us?", "description": null,
	      "position": 0, "required": true,
	      "properties": {"type": "rating", "buttonLabel": "Next", "shouldAutoProgress": true, "scale": 10, "display": "nps"},
	      "routingLogic": {"type": "always", "target": {"type": "end"}}}],
	    "confirmation": {"title": "Thank you!", "description": "", "buttonText": "Close"}}]}]}`))
	if err != nil {
		log.Fatal(err)
	}
	if err := fixture.Import(ctx, st, fx, time.Now()); err != nil {
		log.Fatal(err)
	}

	h, err := svc.NewHandler(st, &svc.Options{Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		log.Fatal(err)
	}
	defer h.Close(ctx)
	mux := http.NewServeMux()
	mux.Handle("/feedback/", http.StripPrefix("/feedback", h))
	app := httptest.NewServer(mux)
	defer app.Close()

	// What the browser widget sends when ann answers.
	survey := app.URL + "/feedback/v1/svc/cexamplesurvey000000001"
	req, err := http.NewRequestWithContext(ctx, http.MethodPut, survey+"/response/r1example",
		strings.NewReader(`{"respondent": "ann@example.com", "data": {"nps": 9}, "metadata": {"page": "/pricing"}}`))
	if err != nil {
		log.Fatal(err)
	}
	req.Header.Set("x-svc-pk", pk)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		log.Fatal(err)
	}
	resp.Body.Close()
	fmt.Println("PUT response:", resp.Status)

	// The widget asks whether ann has answered before showing the survey again.
	req, err = http.NewRequestWithContext(ctx, http.MethodGet, survey+"/respondent/ann@example.com", nil)
	if err != nil {
		log.Fatal(err)
	}
	req.Header.Set("x-svc-pk", pk)
	resp, err = http.DefaultClient.Do(req)
	if err != nil {
		log.Fatal(err)
	}
	defer resp.Body.Close()
	var history struct {
		LastRespondedAt *string `json:"lastRespondedAt"`
		LastViewedAt    *string `json:"lastViewedAt"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&history); err != nil {
		log.Fatal(err)
	}
	fmt.Println("responded:", history.LastRespondedAt != nil, "viewed:", history.LastViewedAt != nil)
	// Output:
	// PUT response: 200 OK
	// responded: true viewed: false
}
