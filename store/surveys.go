package store

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"fmt"
	"time"

	"github.com/svc-feedback/svc/internal/cuid2"
)

// RotateWebhookSecret gives a survey a new webhook secret while deliveries keep being signed
// with the old one too until now+overlap, so receivers can switch secrets without refusing a
// delivery.
func RotateWebhookSecret(ctx context.Context, s Store, teamID, surveyID, newSecret string, overlap time.Duration, now time.Time) error {
	_, err := ModifySurvey(ctx, s, teamID, surveyID, func(sv *Survey) error {
		sv.RotateWebhookSecret(newSecret, overlap, now)
		return nil
	})
	if err != nil {
		return fmt.Errorf("rotate webhook secret: %w", err)
	}
	return nil
}

// RotateWebhookSecret makes newSecret the survey's webhook secret at now, its old secret signing
// beside it until now+overlap.
func (sv *Survey) RotateWebhookSecret(newSecret string, overlap time.Duration, now time.Time) {
	sv.PreviousWebhookSecret, sv.PreviousSecretExpiresAt = sv.WebhookSecret, now.Add(overlap)
	sv.WebhookSecret, sv.UpdatedAt = newSecret, now
}

// ModifySurvey changes a survey with fn, atomically when s is a SurveyModifier (see it). With
// another Store it reads the survey, calls fn and updates the survey, and a change made by
// another process in between is lost.
func ModifySurvey(ctx context.Context, s Store, teamID, id string, fn func(*Survey) error) (Survey, error) {
	if m, ok := s.(SurveyModifier); ok {
		return m.ModifySurvey(ctx, teamID, id, fn)
	}
	sv, err := s.Survey(ctx, teamID, id)
	if err != nil {
		return Survey{}, err
	}
	if err := fn(&sv); err != nil {
		return Survey{}, err
	}
	if err := s.UpdateSurvey(ctx, sv); err != nil {
		return Survey{}, err
	}
	return s.Survey(ctx, teamID, id)
}

// SecretOverlap is how long a replaced secret (a survey's webhook secret, a team's link secret)
// keeps working beside the new one: a day, for receivers and backends to change over.
const SecretOverlap = 24 * time.Hour

// NewWebhookSecret returns a new webhook secret in the Standard Webhooks form: "whsec_" and the
// standard base64 of 32 random bytes.
func NewWebhookSecret() string {
	return "whsec_" + base64.StdEncoding.EncodeToString(randomBytes(32))
}

// NewLinkSecret returns a new secret for signing a team's links: "svc_ls_" and the URL-safe
// base64 of 32 random bytes, so that it goes into a shell command (openssl -hmac) as it is.
func NewLinkSecret() string {
	return "svc_ls_" + base64.RawURLEncoding.EncodeToString(randomBytes(32))
}

func randomBytes(n int) []byte {
	b := make([]byte, n)
	_, _ = rand.Read(b) // crypto/rand.Read never returns an error: it panics on a broken system
	return b
}

// SetSurveyStatus changes a survey's status (any status can become any other; StatusDeleted is
// a soft delete that hides the survey from every endpoint). It returns ErrNotFound for a survey
// the team does not hold and ErrInvalid for an unknown status.
func SetSurveyStatus(ctx context.Context, s Store, teamID, surveyID string, status Status, now time.Time) error {
	if !status.Valid() {
		return fmt.Errorf("set survey status: %w", invalid("status %q is not active, inactive or deleted", status))
	}
	_, err := ModifySurvey(ctx, s, teamID, surveyID, func(sv *Survey) error {
		sv.Status, sv.UpdatedAt = status, now
		return nil
	})
	if err != nil {
		return fmt.Errorf("set survey status: %w", err)
	}
	return nil
}

// NewSurveyID returns a fresh survey id: a cuid2 of 24 characters, as Survey.Validate requires.
func NewSurveyID() string { return cuid2.NewGenerator().New() }

// ValidSurveyID reports whether id may name a survey: a cuid2 of 2 to 32 characters.
func ValidSurveyID(id string) bool { return cuid2.IsValid(id) }
