package client

import (
	"context"
	"time"

	"github.com/svc-feedback/svc/internal/linkauth"
)

// SignLink returns the link to a survey's link page for one person (docs/languages-and-links.md):
// baseURL (where svc's handler is served, such as "https://app.example.com/feedback") +
// /s/{surveyId}?r={respondent}&exp={unix seconds}&sig={hex}, signed with the team's link
// secret (RotateLinkSecret) and valid until expires. Every link to the survey for the person
// continues one response. Append "&a.{questionId}=value" to answer the first question with the
// click (a score in an e-mail, say); that part is not signed.
func SignLink(secret, baseURL, surveyID, respondent string, expires time.Time) string {
	return linkauth.Link(secret, baseURL, surveyID, respondent, expires.Unix())
}

// RotateLinkSecret makes the team a new secret for signing links and returns it: it is shown
// only this once. Links signed with the previous one keep working for 24 hours.
func (c *Client) RotateLinkSecret(ctx context.Context) (string, error) {
	var out struct {
		Data struct {
			Secret string `json:"secret"`
		} `json:"data"`
	}
	if err := c.t.do(ctx, "POST", "/v1/protected/settings/link-secret", nil, nil, &out, false); err != nil {
		return "", err
	}
	return out.Data.Secret, nil
}
