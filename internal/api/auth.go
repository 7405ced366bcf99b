package api

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"time"

	"github.com/svc-feedback/svc/internal/linkauth"
	"github.com/svc-feedback/svc/store"
)

// teamHandler serves a request on behalf of the team that owns the request's key.
type teamHandler func(w http.ResponseWriter, r *http.Request, teamID string) error

// access is what a request's credential gives: the team it acts for, the id its rate limit is
// kept by ("" for none), and the request to serve (a link page's carries its grant).
type access struct {
	r               *http.Request
	teamID, limitID string
}

// public wraps a public endpoint: it requires a publishable key in x-svc-pk, or a link page's
// token there (links.go).
func (h *Handler) public(fn teamHandler) http.Handler {
	return h.authorized(fn, func(r *http.Request) (access, error) {
		key := headerValue(r.Header, headerPublishableKey)
		switch {
		case key == "":
			return access{}, unauthorized("missing publishable key: send it in the x-svc-pk header")
		case strings.HasPrefix(key, store.SecretPrefix):
			return access{}, unauthorized("x-svc-pk holds a secret key: use a publishable key (svc_pk_...) here, and never put secret keys in client code")
		case strings.HasPrefix(key, linkauth.TokenPrefix):
			return h.linkAccess(r, key)
		}
		k, err := h.keyFor(r.Context(), store.Publishable, key)
		return access{r, k.TeamID, k.ID}, err
	})
}

// protected wraps a protected endpoint: it requires a secret key as a bearer token, or the
// app's own login through Config.Authorize, which is asked first.
func (h *Handler) protected(fn teamHandler) http.Handler {
	return h.authorized(fn, func(r *http.Request) (access, error) {
		if h.opts.Authorize != nil {
			team, err := h.opts.Authorize(r)
			switch {
			case err != nil:
				return access{}, unauthorized(err.Error())
			case team != "":
				return access{r, team, ""}, nil
			}
		}
		auth := headerValue(r.Header, headerAuthorization)
		scheme, key, ok := strings.Cut(auth, " ")
		if auth == "" || !ok || !strings.EqualFold(scheme, "Bearer") || key == "" {
			return access{}, unauthorized("missing secret key: send it as Authorization: Bearer svc_sk_...")
		}
		if strings.HasPrefix(key, store.PublishablePrefix) {
			return access{}, unauthorized("the bearer token is a publishable key: protected endpoints need a secret key (svc_sk_...)")
		}
		k, err := h.keyFor(r.Context(), store.Secret, key)
		return access{r, k.TeamID, ""}, err
	})
}

// authorized serves fn for the team the request's credential gives, once authorize has checked
// it, rate limited by the credential's id.
func (h *Handler) authorized(fn teamHandler, authorize func(*http.Request) (access, error)) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w = endpointWriter(w)
		a, err := authorize(r)
		// Limited after the credential is known to be valid, by its id: an invalid one costs no
		// state, and no flood of made-up keys can fill the limiter.
		if err == nil && a.limitID != "" && h.limiter != nil {
			if ok, wait := h.limiter.allow(r, a.limitID); !ok {
				err = &retryAfterError{wait}
			}
		}
		if err == nil {
			err = fn(w, a.r, a.teamID)
		}
		if err != nil {
			var ra *retryAfterError
			if errors.As(err, &ra) {
				err = rateLimited(w, ra.wait)
			}
			h.writeError(w, r, err)
		}
	})
}

// retryAfterError is a refused request that may be retried after wait.
type retryAfterError struct{ wait time.Duration }

func (e *retryAfterError) Error() string { return "rate limited" }

// keyFor returns the unrevoked key of the kind whose plaintext is given.
func (h *Handler) keyFor(ctx context.Context, kind store.KeyKind, key string) (store.Key, error) {
	if len(key) > 256 {
		return store.Key{}, unauthorized("unknown or revoked " + string(kind) + " key")
	}
	k, err := h.store.LookupKey(ctx, key)
	if errors.Is(err, store.ErrNotFound) || err == nil && k.Kind != kind {
		return store.Key{}, unauthorized("unknown or revoked " + string(kind) + " key")
	}
	if err != nil {
		return store.Key{}, err
	}
	return k, nil
}
