package api

import (
	"context"
	"errors"
	"net/http"
	"strings"

	"github.com/svc-feedback/svc/internal/linkauth"
	"github.com/svc-feedback/svc/store"
)

// Link surveys (docs/languages-and-links.md): the team's link secret, and the grant a link page
// hands its widget in place of a publishable key. The pages themselves are in linkpage.go.

// maxLinkToken bounds a link token's length: a survey id, an expiry, a signature and a
// respondent of at most 256 characters, encoded.
const maxLinkToken = 1536

// linker returns the handler's store as a store.Linker, or the error that says it has none.
func (h *Handler) linker() (store.Linker, error) {
	ln, ok := h.store.(store.Linker)
	if !ok {
		return nil, &Error{Status: http.StatusNotImplemented, Code: CodeNotImplemented,
			Message: "this server's store keeps no link surveys (store.Linker)"}
	}
	return ln, nil
}

// handleLinkSecretPost serves "POST /v1/protected/settings/link-secret": a new secret, shown
// this once; the one it replaces keeps working for store.SecretOverlap.
func (h *Handler) handleLinkSecretPost(w http.ResponseWriter, r *http.Request, teamID string) error {
	ln, err := h.linker()
	if err != nil {
		return err
	}
	secret := store.NewLinkSecret()
	if _, err := ln.RotateLinkSecret(r.Context(), teamID, secret, h.now().Add(store.SecretOverlap)); err != nil {
		return err
	}
	h.writeSecret(w, secret)
	return nil
}

// checkLink checks a signed link's exp and sig against the team's valid secrets.
func (h *Handler) checkLink(ctx context.Context, ln store.Linker, sv *store.Survey, respondent, exp, sig string) error {
	secrets, err := ln.LinkSecrets(ctx, sv.TeamID)
	if err != nil {
		return err
	}
	if err := store.ValidateRespondent(respondent); err != nil {
		return linkauth.ErrBadSignature
	}
	return linkauth.Check(secrets.Valid(h.now()), sv.ID, respondent, exp, sig, h.now())
}

type grantKey struct{}

// linkAccess checks a link page's token: its widget answers the one survey, as the link's
// person or as an anonymous browser, rate limited by the survey.
func (h *Handler) linkAccess(r *http.Request, token string) (access, error) {
	g, teamID, err := h.grant(r, token)
	if err != nil {
		return access{}, err
	}
	return access{r.WithContext(context.WithValue(r.Context(), grantKey{}, g)), teamID, "link:" + g.SurveyID}, nil
}

// grant checks a link page's token for the request: its survey, its signature, and the
// respondent and response the request's path names.
func (h *Handler) grant(r *http.Request, token string) (linkauth.Grant, string, error) {
	if len(token) > maxLinkToken {
		return linkauth.Grant{}, "", unauthorized("this link's token is not valid")
	}
	g, ok := linkauth.ParseToken(token)
	if !ok || g.SurveyID != r.PathValue("surveyId") {
		return g, "", unauthorized("this link's token answers only its own survey")
	}
	ln, err := h.linker()
	if err != nil {
		return g, "", err
	}
	sv, err := ln.LinkSurvey(r.Context(), g.SurveyID)
	if errors.Is(err, store.ErrNotFound) {
		return g, "", unauthorized("this link's token answers only its own survey")
	} else if err != nil {
		return g, "", err
	}
	if g.Anonymous() {
		if sv.Link == nil || !sv.Link.Anonymous {
			return g, "", unauthorized("this survey is answered only through signed links")
		}
	} else if err := h.checkLink(r.Context(), ln, &sv, g.Respondent, g.Exp, g.Sig); err != nil {
		if errors.Is(err, linkauth.ErrExpired) || errors.Is(err, linkauth.ErrBadSignature) {
			return g, "", unauthorized(err.Error())
		}
		return g, "", err
	}
	if p := r.PathValue("respondent"); p != "" && !grantAllows(g, p) {
		return g, "", unauthorized("this link answers as its own respondent only")
	}
	if id := r.PathValue("responseId"); id != "" && !g.Anonymous() && store.CanonicalResponseID(id) != linkauth.ResponseID(g.SurveyID, g.Respondent) {
		return g, "", unauthorized("a signed link has one response: its own")
	}
	return g, sv.TeamID, nil
}

// grantAllows reports whether a link's grant may answer as respondent: the signed link's
// person, or, on an anonymous page, any anonymous browser's.
func grantAllows(g linkauth.Grant, respondent string) bool {
	if g.Anonymous() {
		return strings.HasPrefix(respondent, linkauth.AnonymousPrefix)
	}
	return respondent == g.Respondent
}

// grantRespondentCheck refuses a write whose respondent the request's link grant, if any, does
// not allow.
func grantRespondentCheck(ctx context.Context, respondent string) error {
	g, ok := ctx.Value(grantKey{}).(linkauth.Grant)
	if ok && !grantAllows(g, respondent) {
		return unauthorized("this link answers as its own respondent only")
	}
	return nil
}
