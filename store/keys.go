package store

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"fmt"
	"strings"
	"time"

	"github.com/svc-feedback/svc/internal/cuid2"
)

// KeyKind says what a key opens.
type KeyKind string

// Key kinds: publishable keys open the public widget endpoints and are safe in client code;
// secret keys open the protected endpoints and must stay on servers.
const (
	Publishable KeyKind = "publishable"
	Secret      KeyKind = "secret"
)

// Key prefixes, which tell the kinds apart at a glance.
const (
	PublishablePrefix = "svc_pk_"
	SecretPrefix      = "svc_sk_"
)

// keyRandomChars is the length of a generated key's random part, in base62 characters
// (about 214 bits).
const keyRandomChars = 36

// minKeyRandomChars is the shortest random part a key may have.
const minKeyRandomChars = 32

// Key is a stored API key. Only its hash is kept; Hint is its last four characters, so people
// can tell keys apart.
type Key struct {
	ID        string
	TeamID    string
	Kind      KeyKind
	Hint      string
	CreatedAt time.Time
	RevokedAt *time.Time
}

// Prefix returns the plaintext prefix of keys of this kind.
func (k KeyKind) Prefix() string {
	if k == Secret {
		return SecretPrefix
	}
	return PublishablePrefix
}

// HashKey returns the SHA-256 hash under which a key is stored. Keys carry over 190 bits of
// entropy, so a fast unsalted hash is enough: nobody can search that space.
func HashKey(plaintext string) []byte {
	h := sha256.Sum256([]byte(plaintext))
	return h[:]
}

// ValidateKey checks a key's shape: its kind's prefix followed by at least 32 base62
// characters. Errors wrap ErrInvalid.
func ValidateKey(kind KeyKind, plaintext string) error {
	rest, ok := strings.CutPrefix(plaintext, kind.Prefix())
	if !ok {
		return invalid("a %s key must start with %s", kind, kind.Prefix())
	}
	if len(rest) < minKeyRandomChars {
		return invalid("a %s key needs at least %d characters after %s", kind, minKeyRandomChars, kind.Prefix())
	}
	for _, c := range rest {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
			return invalid("a %s key may hold only letters and digits after %s", kind, kind.Prefix())
		}
	}
	return nil
}

// NewKeyPlaintext returns a fresh random key of the kind.
func NewKeyPlaintext(kind KeyKind) string {
	const base62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
	var b strings.Builder
	b.WriteString(kind.Prefix())
	buf := make([]byte, keyRandomChars*2)
	for b.Len() < len(kind.Prefix())+keyRandomChars {
		_, _ = rand.Read(buf) // crypto/rand.Read never fails on supported platforms
		for _, c := range buf {
			// 248 = 4*62: rejecting bytes at or above it keeps every character equally likely.
			if c < 248 && b.Len() < len(kind.Prefix())+keyRandomChars {
				b.WriteByte(base62[c%62])
			}
		}
	}
	return b.String()
}

// CreateKey makes a new random key of the kind for the team, stores it, and returns its
// plaintext, which is never stored and cannot be shown again.
func CreateKey(ctx context.Context, s Store, teamID string, kind KeyKind, at time.Time) (string, Key, error) {
	plaintext := NewKeyPlaintext(kind)
	k := NewKey(teamID, kind, plaintext, at)
	if err := s.AddKey(ctx, k, plaintext); err != nil {
		return "", Key{}, fmt.Errorf("create %s key: %w", kind, err)
	}
	return plaintext, k, nil
}

// NewKey describes the key plaintext for AddKey, with a fresh id.
func NewKey(teamID string, kind KeyKind, plaintext string, at time.Time) Key {
	return Key{ID: "key_" + cuid2.NewGenerator().New(), TeamID: teamID, Kind: kind, Hint: keyHint(plaintext), CreatedAt: at}
}

// keyHint is the part of a key kept to tell keys apart: its last four characters.
func keyHint(plaintext string) string {
	if len(plaintext) > 4 {
		return plaintext[len(plaintext)-4:]
	}
	return plaintext
}
