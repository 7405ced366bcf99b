package api

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"strings"
)

// NormalizeOrigins checks a list of allowed browser origins and returns them as a set in their
// normal form (see normalizeOrigin). An empty list, or one holding "*", means any origin and
// gives a nil set. An entry that is not an origin (a path, a query, no scheme or host) is an
// error naming it.
func NormalizeOrigins(list []string) (map[string]bool, error) {
	if len(list) == 0 {
		return nil, nil
	}
	set := make(map[string]bool, len(list))
	var errs []error
	anyOrigin := false
	for _, o := range list {
		if strings.TrimSpace(o) == "*" {
			anyOrigin = true
			continue
		}
		n, err := parseOrigin(o)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		set[n] = true
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	if anyOrigin {
		return nil, nil
	}
	return set, nil
}

// parseOrigin checks one configured origin and returns its normal form.
func parseOrigin(o string) (string, error) {
	u, err := url.Parse(strings.TrimSpace(o))
	if err != nil || u.Scheme == "" || u.Host == "" || u.User != nil || u.RawQuery != "" || u.Fragment != "" ||
		(u.Path != "" && u.Path != "/") {
		return "", fmt.Errorf("%q is not an origin such as https://app.example.com", o)
	}
	return normalizeOrigin(u.Scheme + "://" + u.Host), nil
}

// normalizeOrigin returns an origin as browsers send it in the Origin header: scheme and host
// in lower case, no default port (80 for http, 443 for https) and no trailing slash. What does
// not parse is returned as it is, and so matches no configured origin.
func normalizeOrigin(o string) string {
	u, err := url.Parse(strings.TrimSuffix(o, "/"))
	if err != nil || u.Scheme == "" || u.Host == "" {
		return o
	}
	scheme, host, port := strings.ToLower(u.Scheme), strings.ToLower(u.Hostname()), u.Port()
	if (scheme == "http" && port == "80") || (scheme == "https" && port == "443") {
		port = ""
	}
	if port != "" {
		host = net.JoinHostPort(host, port)
	} else if strings.Contains(host, ":") {
		host = "[" + host + "]"
	}
	return scheme + "://" + host
}
