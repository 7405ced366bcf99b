package main

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/svc-feedback/svc/store"
	"github.com/svc-feedback/svc/survey"
)

// demoPageKeyPrefix marks the publishable key the demo page embeds.
const demoPageKeyPrefix = "key_demopage_"

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
	// No display rules: next-survey never picks a survey without them, so the demo page's
	// Svc.init does not pop it up unasked; the page opens it from a button instead.
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
