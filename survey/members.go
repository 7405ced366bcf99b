package survey

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
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
	"rows", "columns", "min", "url", "dismissLabel", "fields",
	// Routing.
	"target", "cases", "default", "operator",
	// Display rules.
	"urls", "excludeUrls", "match", "attributes", "key", "events", "delaySeconds", "percentage",
	"recontact", "recontactDays", "maxDisplays", "startsAt", "endsAt", "responseLimit",
	"ignoreCooldown", "priority",
	// Translations and links.
	"languages", "translations", "editableLabel", "anonymous", "link",
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
	if err := checkValue(dec, "", "", 0); err != nil {
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

// dataMaps are the objects of a definition whose member names are data, not svc's names (a
// translation's language tags, question ids and option values), as shape paths: each data name
// on the way written "*".
var dataMaps = []string{"languages.translations", "languages.translations.*.questions", "languages.translations.*.questions.*.options",
	"languages.translations.*.questions.*.rows", "languages.translations.*.questions.*.columns"}

// checkValue reads one value from dec, checking the objects in it; path names where it is,
// shape the same with data names as "*", depth how deep.
func checkValue(dec *json.Decoder, path, shape string, depth int) error {
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
		data := slices.Contains(dataMaps, shape)
		for dec.More() {
			tok, err := dec.Token()
			if err != nil {
				return syntaxError(err)
			}
			name := tok.(string) // the decoder allows only strings as names
			at, in := join(path, name), join(shape, name)
			if seen[name] {
				return invalid("%s: the member appears twice", at)
			}
			seen[name] = true
			if data {
				in = join(shape, "*")
			} else if err := exactMember(name, at); err != nil {
				return err
			}
			if err := checkValue(dec, at, in, depth+1); err != nil {
				return err
			}
		}
		_, err := dec.Token()
		return syntaxError(err)
	case json.Delim('['):
		for i := 0; dec.More(); i++ {
			if err := checkValue(dec, path+"["+strconv.Itoa(i)+"]", shape+"[]", depth+1); err != nil {
				return err
			}
		}
		_, err := dec.Token()
		return syntaxError(err)
	}
	return nil
}

func join(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
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
