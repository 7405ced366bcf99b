package store

import (
	"strings"
	"unicode/utf8"

	"github.com/svc-feedback/svc/internal/cuid2"
)

// Limits on a response write (docs/decisions.md#responses).
const (
	MaxRespondentChars    = 256
	MaxMetadataKeys       = 50
	MaxMetadataKeyChars   = 128
	MaxMetadataValueChars = 2048
	MaxTelemetryBytes     = 65536
)

// ValidResponseID reports whether id may name a response: a cuid2 or a canonical UUID.
func ValidResponseID(id string) bool {
	return cuid2.IsValid(id) || cuid2.IsUUID(id)
}

// CanonicalResponseID returns the form in which a response id is stored and compared: a UUID
// in lower case, since UUIDs are case-insensitive (RFC 9562) and one in another case must not
// make a second response; a cuid2 is already lower case. Callers normalize ids with it wherever
// an id enters, before any lookup or write.
func CanonicalResponseID(id string) string {
	if cuid2.IsUUID(id) {
		return strings.ToLower(id)
	}
	return id
}

// ValidateRespondent checks a respondent identifier: 1 to 256 characters of valid UTF-8, none
// of them U+0000, which PostgreSQL's text cannot hold. Errors wrap ErrInvalid.
func ValidateRespondent(r string) error {
	if r == "" || utf8.RuneCountInString(r) > MaxRespondentChars || !utf8.ValidString(r) {
		return invalid("respondent must be 1 to %d characters", MaxRespondentChars)
	}
	if strings.IndexByte(r, 0) >= 0 {
		return invalid("respondent must not contain U+0000")
	}
	if r == "." || r == ".." {
		// A path segment of its own (/respondent/{respondent}), which URLs take for a step
		// within the path: such a respondent could never be read or erased.
		return invalid(`respondent must not be "." or ".."`)
	}
	return nil
}

// Validate checks the write's shape (not its answers, which need the survey): the response
// id, the respondent, the metadata and telemetry limits. Errors wrap ErrInvalid.
func (w *ResponseWrite) Validate() error {
	if !ValidResponseID(w.ID) {
		return invalid("response id %q is not a cuid2 or a UUID", w.ID)
	}
	if err := ValidateRespondent(w.Respondent); err != nil {
		return err
	}
	if w.Data == nil {
		return invalid("data is required")
	}
	if len(w.Metadata) > MaxMetadataKeys {
		return invalid("metadata may hold at most %d keys", MaxMetadataKeys)
	}
	for k, v := range w.Metadata {
		if utf8.RuneCountInString(k) > MaxMetadataKeyChars {
			return invalid("metadata keys may be at most %d characters", MaxMetadataKeyChars)
		}
		if utf8.RuneCountInString(v) > MaxMetadataValueChars {
			return invalid("metadata value of %q is longer than %d characters", k, MaxMetadataValueChars)
		}
	}
	if w.Telemetry != nil && len(*w.Telemetry) > MaxTelemetryBytes {
		return invalid("telemetry may be at most %d bytes", MaxTelemetryBytes)
	}
	if w.Telemetry != nil && strings.IndexByte(*w.Telemetry, 0) >= 0 {
		return invalid("telemetry must not contain U+0000") // PostgreSQL's text cannot hold it
	}
	return nil
}
