package store

import (
	"context"
	"time"
)

// Linker is a Store that keeps what link surveys need (docs/languages-and-links.md): a survey found
// by its id alone, since a link names no team, and each team's secret for signing links. The
// handler's link pages need one; both of svc's stores are one.
type Linker interface {
	// LinkSurvey returns the survey with the id, of whichever team holds it, in any status, or
	// ErrNotFound. It may be shared with a cache: treat it as read-only.
	LinkSurvey(ctx context.Context, id string) (Survey, error)
	// LinkSecrets returns the team's link secrets: zero for a team that never made one.
	LinkSecrets(ctx context.Context, teamID string) (LinkSecrets, error)
	// RotateLinkSecret makes secret the team's link secret, keeping the one it replaces valid
	// until previousUntil. It returns ErrNotFound for an unknown team.
	RotateLinkSecret(ctx context.Context, teamID, secret string, previousUntil time.Time) (LinkSecrets, error)
}

// LinkSecrets are a team's secrets for signing links: the current one, and the one it replaced,
// valid until PreviousExpiresAt.
type LinkSecrets struct {
	Secret            string
	Previous          string
	PreviousExpiresAt time.Time
}

// Valid returns the secrets a link checked at now may be signed with: the current one first.
func (l LinkSecrets) Valid(now time.Time) []string {
	var out []string
	if l.Secret != "" {
		out = append(out, l.Secret)
	}
	if l.Previous != "" && now.Before(l.PreviousExpiresAt) {
		out = append(out, l.Previous)
	}
	return out
}
