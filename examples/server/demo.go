package main

import (
	"context"
	"fmt"
	"html/template"
	"net/http"
	"strings"
	"time"

	"github.com/svc-feedback/svc/store"
)

// demoPageKeyPrefix marks the publishable key the demo page embeds. Keys are stored hashed, so
// each start makes a fresh one for the page and revokes the page's older ones; the keys printed
// at first start are left alone.
const demoPageKeyPrefix = "key_demopage_"

// demoPage returns the page served at / when the server runs on its demo data: the widget
// showing the demo survey, embedded as the README shows.
func demoPage(ctx context.Context, s store.Store) (http.Handler, error) {
	sv, err := demoSurvey(ctx, s)
	if err != nil {
		return nil, err
	}
	now := time.Now().UTC()
	keys, err := s.Keys(ctx, demoTeam)
	if err != nil {
		return nil, err
	}
	for _, k := range keys {
		if strings.HasPrefix(k.ID, demoPageKeyPrefix) && k.RevokedAt == nil {
			if err := s.RevokeKey(ctx, demoTeam, k.ID, now); err != nil {
				return nil, fmt.Errorf("revoke the demo page's old key: %w", err)
			}
		}
	}
	plaintext := store.NewKeyPlaintext(store.Publishable)
	k := store.NewKey(demoTeam, store.Publishable, plaintext, now)
	k.ID = demoPageKeyPrefix + strings.TrimPrefix(k.ID, "key_")
	if err := s.AddKey(ctx, k, plaintext); err != nil {
		return nil, fmt.Errorf("create the demo page's key: %w", err)
	}
	var b strings.Builder
	if err := demoTemplate.Execute(&b, struct{ SurveyID, Key string }{sv.ID, plaintext}); err != nil {
		return nil, err
	}
	page := []byte(b.String())
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		w.Write(page)
	}), nil
}

// demoSurvey finds the demo team's first active survey.
func demoSurvey(ctx context.Context, s store.Store) (store.Survey, error) {
	page, _, err := s.Surveys(ctx, demoTeam, nil, 100)
	if err != nil {
		return store.Survey{}, err
	}
	for _, sv := range page {
		if sv.Status == store.StatusActive {
			return sv, nil
		}
	}
	return store.Survey{}, fmt.Errorf("the demo team has no active survey for the demo page")
}

// demoTemplate is the demo page. html/template escapes the id and key for the script they are in.
var demoTemplate = template.Must(template.New("demo").Parse(`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>svc demo</title>
<style>
  body { font: 16px/1.5 system-ui, sans-serif; margin: 0 auto; padding: 24px; max-width: 720px; color: #1b1f24; }
  code, pre { background: #f2f3f5; border-radius: 4px; padding: 1px 4px; }
  pre { padding: 12px; overflow: auto; }
  button { font: inherit; padding: 6px 12px; }
</style>
<script src="/v1/svc/widget.js" defer></script>
<script>
  // A new visitor id per browser, kept so the widget can skip someone who answered already.
  function visitor() {
    let id = localStorage.getItem("svc-demo-visitor");
    if (!id) localStorage.setItem("svc-demo-visitor", (id = "visitor-" + crypto.getRandomValues(new Uint32Array(1))[0]));
    return id;
  }
  async function showSurvey() {
    const out = document.querySelector("#outcome");
    out.textContent = "showing…";
    const result = await Svc.show({
      surveyId: {{.SurveyID}},
      publishableKey: {{.Key}},
      respondent: visitor(),
      metadata: { page: location.pathname },
    });
    out.textContent = JSON.stringify(result);
  }
  addEventListener("DOMContentLoaded", () => {
    showSurvey().catch((e) => (document.querySelector("#outcome").textContent = "error: " + e.message));
    document.querySelector("#again").addEventListener("click", () => {
      localStorage.removeItem("svc-demo-visitor");
      showSurvey();
    });
  });
</script>
</head>
<body>
<h1>svc demo</h1>
<p>This page embeds svc's widget for the demo survey: answer it in the corner. Each answer is
saved as you go; see them with the secret key printed at first start:</p>
<pre>curl -s -H "Authorization: Bearer $SVC_SK" "$SVC_URL/v1/protected/surveys/{{.SurveyID}}/responses"</pre>
<p>Svc.show resolved with: <output id="outcome"></output></p>
<p><button id="again" type="button">Show it again as a new visitor</button></p>
</body>
</html>
`))
