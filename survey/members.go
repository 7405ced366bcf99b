package survey

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// memberNames are the member names a survey definition's objects hold, at any depth, and the
// settings a survey is written with beside it.
var memberNames = []string{
	// The definition and its confirmation.
	"title", "description", "questions", "confirmation", "isBackNavigationAllowed", "backButtonLabel", "buttonText",
	// A question, its properties, options and editable text.
	"id", "position", "required", "properties", "routingLogic", "type", "buttonLabel", "shouldAutoProgress", "scale",
	"labels", "lower", "upper", "display", "options", "value", "editable", "label", "max", "placeholder", "buttonUrl",
	"enableScreenshot", "enableRecording", "detailsLabel", "detailsPlaceholder", "redactClasses",
	// Routing.
	"target", "cases", "default", "operator",
	// Display rules.
	"urls", "excludeUrls", "match", "attributes", "key", "events", "delaySeconds", "percentage",
	"recontact", "recontactDays", "maxDisplays", "startsAt", "endsAt", "responseLimit",
	"ignoreCooldown", "priority",
	// A survey's settings beside its definition.
	"status", "webhookUrl", "webhookSecret", "webhookWaitSeconds", "createdAt",
}

// CheckMembers reads one JSON value and refuses an object that names a member twice, or that
// names a member of a survey in other letter case ("TYPE" for "type"). encoding/json keeps the
// last of a repeated member and matches names regardless of case, so either would be stored
// silently, and differently from what a stricter reader of the same JSON (a browser, another
// language's library) understands. Errors wrap ErrInvalidDefinition and give the member's path.
func CheckMembers(b []byte) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if err := checkValue(dec, "", 0); err != nil {
		return err
	}
	if _, err := dec.Token(); err != io.EOF {
		return invalid("data after the JSON value")
	}
	return nil
}

// maxDepth bounds the nesting of a survey's JSON: a definition is a few levels deep, and a
// value nested a hundred thousand times would cost as much memory in paths.
const maxDepth = 32

// checkValue reads one value from dec, checking the objects in it; path names where it is,
// depth how deep.
func checkValue(dec *json.Decoder, path string, depth int) error {
	if depth > maxDepth {
		return invalid("%s: nested more than %d deep", path, maxDepth)
	}
	tok, err := dec.Token()
	if err != nil {
		return syntaxError(err)
	}
	switch tok {
	case json.Delim('{'):
		seen := make(map[string]bool)
		for dec.More() {
			tok, err := dec.Token()
			if err != nil {
				return syntaxError(err)
			}
			name := tok.(string) // the decoder allows only strings as names
			at := name
			if path != "" {
				at = path + "." + name
			}
			if seen[name] {
				return invalid("%s: the member appears twice", at)
			}
			seen[name] = true
			if err := exactMember(name, at); err != nil {
				return err
			}
			if err := checkValue(dec, at, depth+1); err != nil {
				return err
			}
		}
		_, err := dec.Token()
		return syntaxError(err)
	case json.Delim('['):
		for i := 0; dec.More(); i++ {
			if err := checkValue(dec, path+"["+strconv.Itoa(i)+"]", depth+1); err != nil {
				return err
			}
		}
		_, err := dec.Token()
		return syntaxError(err)
	}
	return nil
}

// exactMember refuses a name that is one of memberNames in other letter case.
func exactMember(name, at string) error {
	for _, k := range memberNames {
		if name != k && strings.EqualFold(name, k) {
			return invalid("%s: member names are case-sensitive: %q should be %q", at, name, k)
		}
	}
	return nil
}

func syntaxError(err error) error {
	if err == nil {
		return nil
	}
	if errors.Is(err, io.EOF) {
		return invalid("malformed JSON: it ends too early")
	}
	return fmt.Errorf("%w: malformed JSON: %v", ErrInvalidDefinition, err)
}
