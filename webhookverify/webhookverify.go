// Package webhookverify is what a receiver of svc webhooks needs: verify a delivery's
// signature in constant time, refuse replays, and parse the response.created event into typed
// structs. svc signs its deliveries with this same package.
//
// A delivery carries two signature schemes when the survey has a webhook secret:
//
//   - X-Svc-Signature-256: "sha256=<hex HMAC-SHA256 of the raw body>", svc's own header;
//   - the Standard Webhooks headers webhook-id, webhook-timestamp and webhook-signature
//     ("v1,<base64 HMAC-SHA256 of id.timestamp.body>", several space-separated during a secret
//     rotation), which bind the signature to a time so old deliveries cannot be replayed.
//
// Verifier checks the Standard Webhooks headers, and refuses a delivery without them (so every
// accepted delivery is bound to a recent time) unless AllowUntimestamped is set, for senders that
// only sign X-Svc-Signature-256.
//
// A secret of the Standard Webhooks form, "whsec_" and the standard base64 of 24 to 64 bytes
// (NewSecret makes one of 32), keys webhook-signature with those decoded bytes, so Standard
// Webhooks' own libraries verify svc's deliveries unchanged; X-Svc-Signature-256 is keyed with
// the secret's text, as svc's webhook format says (docs/webhooks.md). Any other secret keys both with its text.
//
// An empty secret is refused everywhere a secret is taken to verify: an HMAC keyed with nothing
// is one anyone can compute, and an empty secret is most often an environment variable that was
// never set. NewVerifier and Handler return ErrEmptySecret (and ErrNoSecret for no secret at
// all) at once, when the receiver starts; Verify, VerifyStandard and Verifier.VerifyRequest
// return the same errors for every delivery rather than ErrNoMatchingSignature.
//
// The package depends only on the standard library and the survey model: it does not pull in
// the server or SQLite, and builds with CGO_ENABLED=0.
package webhookverify

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Header names of a delivery.
const (
	HeaderSignature256     = "X-Svc-Signature-256"
	HeaderEvent            = "X-Svc-Event"
	HeaderDelivery         = "X-Svc-Delivery"
	HeaderWebhookID        = "webhook-id"
	HeaderWebhookTimestamp = "webhook-timestamp"
	HeaderWebhookSignature = "webhook-signature"
)

// DefaultTolerance is how far a webhook-timestamp may be from the receiver's clock, either way.
const DefaultTolerance = 5 * time.Minute

// Errors of verification. Check them with errors.Is.
var (
	// ErrMissingSignature means the request carries no signature header of the scheme checked.
	ErrMissingSignature = errors.New("webhookverify: missing signature")
	// ErrNoMatchingSignature means no signature matches any of the secrets.
	ErrNoMatchingSignature = errors.New("webhookverify: no matching signature")
	// ErrInvalidHeaders means the signature headers are malformed.
	ErrInvalidHeaders = errors.New("webhookverify: invalid signature headers")
	// ErrMessageTooOld means webhook-timestamp is older than the tolerance: possibly a replay.
	ErrMessageTooOld = errors.New("webhookverify: message timestamp too old")
	// ErrMessageTooNew means webhook-timestamp is further in the future than the tolerance.
	ErrMessageTooNew = errors.New("webhookverify: message timestamp too new")
	// ErrNoSecret means the Verifier was given no secret.
	ErrNoSecret = errors.New("webhookverify: no secret configured")
	// ErrEmptySecret means a secret given is the empty string, such as an environment variable
	// that is not set: nothing signed with it could be trusted, so nothing is verified with it.
	ErrEmptySecret = errors.New("webhookverify: the webhook secret is empty (is its environment variable set?)")
)

// checkSecrets reports why secrets cannot verify a delivery: none given (ErrNoSecret), or one
// of them empty (ErrEmptySecret, naming its place when there are several).
func checkSecrets(secrets []string) error {
	if len(secrets) == 0 {
		return ErrNoSecret
	}
	for i, s := range secrets {
		if s == "" {
			if len(secrets) == 1 {
				return ErrEmptySecret
			}
			return fmt.Errorf("%w: secret %d of %d", ErrEmptySecret, i+1, len(secrets))
		}
	}
	return nil
}

// SecretPrefix starts a secret of the Standard Webhooks form.
const SecretPrefix = "whsec_"

// NewSecret returns a fresh webhook secret of the Standard Webhooks form: "whsec_" and the
// standard base64 of 32 random bytes.
func NewSecret() string {
	var key [32]byte
	_, _ = rand.Read(key[:]) // crypto/rand.Read never fails on supported platforms
	return SecretPrefix + base64.StdEncoding.EncodeToString(key[:])
}

// standardKey returns the key of a secret's Standard Webhooks signature: the decoded bytes of a
// secret of the form "whsec_" + padded standard base64 of 24 to 64 bytes, else its text.
func standardKey(secret string) []byte {
	if b64, ok := strings.CutPrefix(secret, SecretPrefix); ok {
		if key, err := base64.StdEncoding.Strict().DecodeString(b64); err == nil && len(key) >= 24 && len(key) <= 64 {
			return key
		}
	}
	return []byte(secret)
}

func mac(secret string, parts ...[]byte) []byte {
	return macKey([]byte(secret), parts...)
}

func macKey(key []byte, parts ...[]byte) []byte {
	m := hmac.New(sha256.New, key)
	for _, p := range parts {
		m.Write(p)
	}
	return m.Sum(nil)
}

// Sign returns the X-Svc-Signature-256 value of body: "sha256=" and the lowercase hex
// HMAC-SHA256 of body keyed with secret.
func Sign(secret string, body []byte) string {
	return "sha256=" + hex.EncodeToString(mac(secret, body))
}

// SignStandard returns one Standard Webhooks signature, "v1,<base64>", of the message id sent at
// unix seconds ts with body, keyed as the package comment says.
func SignStandard(secret, id string, ts int64, body []byte) string {
	return "v1," + base64.StdEncoding.EncodeToString(standardMAC(secret, id, strconv.FormatInt(ts, 10), body))
}

// standardMAC is the HMAC-SHA256 of "id.timestamp.body" keyed with the secret's standard key.
func standardMAC(secret, id, ts string, body []byte) []byte {
	return macKey(standardKey(secret), []byte(id), []byte("."), []byte(ts), []byte("."), body)
}

// SignHeaders sets every signature header of a delivery of body with message id at time ts:
// X-Svc-Signature-256 with the first secret, and webhook-id, webhook-timestamp and a
// webhook-signature holding one signature per secret (the current one first). It is what svc's
// sender uses, and what receivers can use to sign test requests.
func SignHeaders(h http.Header, id string, ts time.Time, body []byte, secrets ...string) {
	if len(secrets) == 0 {
		return
	}
	h.Set(HeaderSignature256, Sign(secrets[0], body))
	unix := ts.Unix()
	sigs := make([]string, len(secrets))
	for i, s := range secrets {
		sigs[i] = SignStandard(s, id, unix, body)
	}
	h.Set(HeaderWebhookID, id)
	h.Set(HeaderWebhookTimestamp, strconv.FormatInt(unix, 10))
	h.Set(HeaderWebhookSignature, strings.Join(sigs, " "))
}

// Verify checks an X-Svc-Signature-256 header value against body with each secret, in
// constant time per comparison. It returns nil when one matches; ErrNoSecret without a secret
// and ErrEmptySecret when one is empty, whatever the delivery.
func Verify(body []byte, header string, secrets ...string) error {
	if err := checkSecrets(secrets); err != nil {
		return err
	}
	if header == "" {
		return ErrMissingSignature
	}
	hexSig, ok := strings.CutPrefix(header, "sha256=")
	if !ok {
		return fmt.Errorf("%w: %s must start with sha256=", ErrInvalidHeaders, HeaderSignature256)
	}
	got, err := hex.DecodeString(hexSig)
	if err != nil || len(got) != sha256.Size {
		return fmt.Errorf("%w: %s is not a hex SHA-256", ErrInvalidHeaders, HeaderSignature256)
	}
	for _, s := range secrets {
		if hmac.Equal(got, mac(s, body)) {
			return nil
		}
	}
	return ErrNoMatchingSignature
}

// VerifyStandard checks the Standard Webhooks headers of a delivery: a webhook-timestamp within
// tolerance of now (either way), and a webhook-signature entry that matches one of the secrets.
// Like Verify, it returns ErrNoSecret without a secret and ErrEmptySecret when one is empty.
func VerifyStandard(body []byte, h http.Header, now time.Time, tolerance time.Duration, secrets ...string) error {
	if err := checkSecrets(secrets); err != nil {
		return err
	}
	id, tsText, sigHeader := h.Get(HeaderWebhookID), h.Get(HeaderWebhookTimestamp), h.Get(HeaderWebhookSignature)
	if sigHeader == "" {
		return ErrMissingSignature
	}
	if id == "" || tsText == "" {
		return fmt.Errorf("%w: webhook-id and webhook-timestamp are required", ErrInvalidHeaders)
	}
	ts, err := strconv.ParseInt(tsText, 10, 64)
	if err != nil {
		return fmt.Errorf("%w: webhook-timestamp is not Unix seconds", ErrInvalidHeaders)
	}
	if tolerance <= 0 {
		tolerance = DefaultTolerance
	}
	sent := time.Unix(ts, 0)
	switch {
	case now.Sub(sent) > tolerance:
		return fmt.Errorf("%w: sent %v before now, beyond the tolerance of %v (Verifier.Tolerance)", ErrMessageTooOld, now.Sub(sent).Round(time.Second), tolerance)
	case sent.Sub(now) > tolerance:
		return fmt.Errorf("%w: sent %v after now, beyond the tolerance of %v (Verifier.Tolerance)", ErrMessageTooNew, sent.Sub(now).Round(time.Second), tolerance)
	}
	for _, s := range secrets {
		want := standardMAC(s, id, tsText, body)
		for _, entry := range strings.Fields(sigHeader) {
			b64, ok := strings.CutPrefix(entry, "v1,")
			if !ok {
				continue // another version: not ours to judge
			}
			got, err := base64.StdEncoding.DecodeString(b64)
			if err == nil && hmac.Equal(got, want) {
				return nil
			}
		}
	}
	return ErrNoMatchingSignature
}

// Verifier verifies deliveries with a set of secrets (more than one while rotating). Make one
// with NewVerifier, which refuses an empty secret at once; a Verifier written as a literal
// refuses every delivery with ErrEmptySecret instead.
type Verifier struct {
	// Secrets are the webhook secrets to accept; the first is the current one.
	Secrets []string
	// Tolerance bounds the webhook-timestamp skew; zero means DefaultTolerance.
	Tolerance time.Duration
	// AllowUntimestamped accepts a delivery that carries only X-Svc-Signature-256, without
	// the Standard Webhooks headers, for senders that sign with svc's own header alone. Such a
	// delivery is not bound to a time, so a captured one can be replayed: leave it off when
	// svc sends to you, as its deliveries always carry both.
	AllowUntimestamped bool
	// Now is the clock; nil means time.Now.
	Now func() time.Time
}

// NewVerifier returns a Verifier of secrets, the current one first, with the default tolerance.
// It returns ErrNoSecret for none and ErrEmptySecret when one is empty (an unset environment
// variable), so that a receiver misconfigured so fails when it starts, not at each delivery.
func NewVerifier(secrets ...string) (*Verifier, error) {
	if err := checkSecrets(secrets); err != nil {
		return nil, err
	}
	return &Verifier{Secrets: append([]string(nil), secrets...)}, nil
}

// check reports whether v can verify deliveries: nil, or why not (ErrNoSecret, ErrEmptySecret).
func (v *Verifier) check() error {
	if v == nil {
		return errors.New("webhookverify: no Verifier given")
	}
	return checkSecrets(v.Secrets)
}

// VerifyRequest checks a delivery's headers and raw body: the Standard Webhooks headers, or,
// only with AllowUntimestamped and when they are absent, X-Svc-Signature-256.
func (v *Verifier) VerifyRequest(h http.Header, body []byte) error {
	if h.Get(HeaderWebhookSignature) != "" || !v.AllowUntimestamped {
		now := time.Now()
		if v.Now != nil {
			now = v.Now()
		}
		err := VerifyStandard(body, h, now, v.Tolerance, v.Secrets...)
		if errors.Is(err, ErrMissingSignature) && h.Get(HeaderSignature256) != "" {
			return fmt.Errorf("%w: the delivery carries %s but no %s, which is refused unless Verifier.AllowUntimestamped is set",
				ErrMissingSignature, HeaderSignature256, HeaderWebhookSignature)
		}
		return err
	}
	return Verify(body, h.Get(HeaderSignature256), v.Secrets...)
}
