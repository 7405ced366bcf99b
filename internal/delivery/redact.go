package delivery

import (
	"errors"
	"net/url"
)

// RedactURL returns a webhook URL fit for logs and stored errors: without its user
// information, query and fragment, where receivers often put a token. What does not parse is
// replaced whole.
func RedactURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "(a webhook URL that does not parse)"
	}
	u.User, u.RawQuery, u.ForceQuery, u.Fragment, u.RawFragment = nil, "", false, "", ""
	return u.String()
}

// redactErr returns err with the URL that net/http's errors carry (such as
// Post "https://...?token=...": dial tcp ...) redacted. It returns nil for nil.
func redactErr(err error) error {
	var ue *url.Error
	if err == nil || !errors.As(err, &ue) {
		return err
	}
	if ue.URL == RedactURL(ue.URL) {
		return err
	}
	return &url.Error{Op: ue.Op, URL: RedactURL(ue.URL), Err: ue.Err}
}
