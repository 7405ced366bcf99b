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

// public wraps a public endpoint: it requires a publishable key in x-svc-pk, or a link page's
// token there (links.go).
func (h *Handler) public(fn teamHandler) http.Handler {
	keyed := h.withKey(fn, store.Publishable, func(r *http.Request) (string, error) {
		key := headerValue(r.Header, headerPublishableKey)
		if key == "" {
			return "", unauthorized("missing publishable key: send it in the x-svc-pk header")
		}
		if strings.HasPrefix(key, store.SecretPrefix) {
			return "", unauthorized("x-svc-pk holds a secret key: use a publishable key (svc_pk_...) here, and never put secret keys in client code")
		}
		return key, nil
	})
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if key := headerValue(r.Header, headerPublishableKey); strings.HasPrefix(key, linkauth.TokenPrefix) {
			h.linked(fn, key).ServeHTTP(w, r)
			return
		}
		keyed.ServeHTTP(w, r)
	})
}

// protected wraps a protected endpoint: it requires a secret key as a bearer token.
func (h *Handler) protected(fn teamHandler) http.Handler {
	return h.withKey(fn, store.Secret, func(r *http.Request) (string, error) {
		auth := headerValue(r.Header, headerAuthorization)
		scheme, key, ok := strings.Cut(auth, " ")
		if auth == "" || !ok || !strings.EqualFold(scheme, "Bearer") || key == "" {
			return "", unauthorized("missing secret key: send it as Authorization: Bearer svc_sk_...")
		}
		if strings.HasPrefix(key, store.PublishablePrefix) {
			return "", unauthorized("the bearer token is a publishable key: protected endpoints need a secret key (svc_sk_...)")
		}
		return key, nil
	})
}

func (h *Handler) withKey(fn teamHandler, kind store.KeyKind, extract func(*http.Request) (string, error)) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w = endpointWriter(w)
		key, err := extract(r)
		var k store.Key
		if err == nil {
			k, err = h.keyFor(r.Context(), kind, key)
		}
		// Limited after the key is known to be valid, by its id: an invalid key costs no
		// state, and no flood of made-up keys can fill the limiter.
		if err == nil && kind == store.Publishable && h.limiter != nil {
			if ok, wait := h.limiter.allow(r, k.ID); !ok {
				err = &retryAfterError{wait}
			}
		}
		if err == nil {
			err = fn(w, r, k.TeamID)
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
