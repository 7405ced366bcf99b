package main

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"html/template"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/svc-feedback/svc/store"
	"github.com/svc-feedback/svc/survey"
)

// demoPageKeyPrefix marks the publishable key the demo page embeds.
const demoPageKeyPrefix = "key_demopage_"

// demoPage returns the page served at / when the server runs on its demo data: the widget
// showing the demo survey, embedded as the README shows.
func demoPage(ctx context.Context, s store.Store) (http.Handler, error) {
	sv, err := demoSurvey(ctx, s)
	if err != nil {
		return nil, err
	}
	key, err := demoPageKey(ctx, s, sv, time.Now().UTC())
	if err != nil {
		return nil, err
	}
	var b strings.Builder
	if err := demoTemplate.Execute(&b, struct{ SurveyID, Key string }{sv.ID, key}); err != nil {
		return nil, err
	}
	page := []byte(b.String())
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		w.Write(page)
	}), nil
}

// demoPageKey returns the publishable key the demo page embeds, adding it when it is not
// stored yet. Keys are stored hashed, so a start cannot read the key an earlier start made;
// instead every start, and every server sharing the database, derives the same key from the
// demo survey, and a page opened before a restart or served by another server keeps working.
// The key is made to be published (the page shows it to anyone who opens it), so that it can
// be derived from what the database holds is no loss. A key an operator revoked is not brought
// back: the next one in the series is used.
func demoPageKey(ctx context.Context, s store.Store, sv store.Survey, now time.Time) (string, error) {
	for gen := range 100 {
		plaintext := derivedPublishableKey(sv, gen)
		id := demoPageKeyPrefix + strconv.Itoa(gen)
		if k, err := s.LookupKey(ctx, plaintext); err == nil && k.TeamID == demoTeam {
			return plaintext, revokeOtherPageKeys(ctx, s, id, now)
		}
		k := store.NewKey(demoTeam, store.Publishable, plaintext, now)
		k.ID = id
		switch err := s.AddKey(ctx, k, plaintext); {
		case err == nil:
			return plaintext, revokeOtherPageKeys(ctx, s, id, now)
		case errors.Is(err, store.ErrConflict):
			// Another server added it just now (it is found on the next pass), or it was
			// revoked (the next key in the series is tried).
			if _, err := s.LookupKey(ctx, plaintext); err == nil {
				return plaintext, revokeOtherPageKeys(ctx, s, id, now)
			}
		default:
			return "", fmt.Errorf("add the demo page's key: %w", err)
		}
	}
	return "", errors.New("the demo page's keys were all revoked: start with a new database for the demo page")
}

// derivedPublishableKey is the gen-th demo page key of the survey: a publishable key whose
// random part is drawn from SHA-256 of the survey's id and creation time.
func derivedPublishableKey(sv store.Survey, gen int) string {
	const base62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
	var b strings.Builder
	b.WriteString(store.PublishablePrefix)
	for block := 0; b.Len() < len(store.PublishablePrefix)+36; block++ {
		sum := sha256.Sum256(fmt.Appendf(nil, "svc demo page key\x00%s\x00%d\x00%d\x00%d", sv.ID, sv.CreatedAt.UnixNano(), gen, block))
		for _, c := range sum {
			// 248 = 4*62: rejecting bytes at or above it keeps every character equally likely.
			if c < 248 && b.Len() < len(store.PublishablePrefix)+36 {
				b.WriteByte(base62[c%62])
			}
		}
	}
	return b.String()
}

// revokeOtherPageKeys revokes the demo page keys other than keep: those of earlier versions,
// which made a new one at each start, and earlier ones of the series.
func revokeOtherPageKeys(ctx context.Context, s store.Store, keep string, now time.Time) error {
	keys, err := s.Keys(ctx, demoTeam)
	if err != nil {
		return err
	}
	for _, k := range keys {
		if strings.HasPrefix(k.ID, demoPageKeyPrefix) && k.ID != keep && k.RevokedAt == nil {
			if err := s.RevokeKey(ctx, demoTeam, k.ID, now); err != nil {
				return fmt.Errorf("revoke the demo page's old key: %w", err)
			}
		}
	}
	return nil
}

// demoSurvey finds the demo survey: the demo team's oldest active survey, the one the first
// start made, whatever surveys were added to the team since.
func demoSurvey(ctx context.Context, s store.Store) (store.Survey, error) {
	var oldest *store.Survey
	var cursor *store.Cursor
	for range 100 { // at most 10,000 surveys looked at
		page, next, err := s.Surveys(ctx, demoTeam, cursor, 100)
		if err != nil {
			return store.Survey{}, err
		}
		for i := range page {
			if page[i].Status == store.StatusActive {
				oldest = &page[i]
			}
		}
		if next == nil {
			break
		}
		cursor = next
	}
	if oldest == nil {
		return store.Survey{}, fmt.Errorf("the demo team has no active survey for the demo page")
	}
	return *oldest, nil
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

// demoTeam is the id of the team the server creates on first start.
const demoTeam = "demo"

// ensureDemo creates the demo team, its keys and survey on first start, and prints how to use
// them. Keys are stored hashed, so later starts cannot print them again.
func ensureDemo(ctx context.Context, s store.Store, baseURL string, out io.Writer) error {
	if _, err := s.Team(ctx, demoTeam); err == nil {
		fmt.Fprintf(out, "demo team exists in this database; its keys were printed at first start "+
			"(a lost one is replaced with: server key create -team %s -kind secret)\n", demoTeam)
		return nil
	} else if !errors.Is(err, store.ErrNotFound) {
		return err
	}
	now := time.Now().UTC()
	if err := s.CreateTeam(ctx, store.Team{ID: demoTeam, Name: "Demo team", CreatedAt: now}); err != nil {
		return err
	}
	pk, _, err := store.CreateKey(ctx, s, demoTeam, store.Publishable, now)
	if err != nil {
		return err
	}
	sk, _, err := store.CreateKey(ctx, s, demoTeam, store.Secret, now)
	if err != nil {
		return err
	}
	sv := store.Survey{ID: store.NewSurveyID(), TeamID: demoTeam, Status: store.StatusActive,
		Definition: survey.Sample(), CreatedAt: now, UpdatedAt: now}
	if err := s.CreateSurvey(ctx, sv); err != nil {
		return err
	}
	fmt.Fprintf(out, `created the demo team, keys and survey (the keys are shown only this once):

export SVC_URL=%s
export SVC_PK=%s
export SVC_SK=%s
export SVC_SURVEY=%s

try:
curl -s -H "x-svc-pk: $SVC_PK" $SVC_URL/v1/svc/$SVC_SURVEY
`, baseURL, pk, sk, sv.ID)
	return nil
}
