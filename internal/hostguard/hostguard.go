// Package hostguard keeps pages without a login of their own (the results pages, the console,
// a demo page) from answering under a host name they are not served at. A web site the operator
// visits could otherwise point its own name at 127.0.0.1 (DNS rebinding) and read the pages
// from the operator's browser, as same-origin: the browser sends that site's name as Host.
package hostguard

import (
	"fmt"
	"net"
	"net/http"
	"strings"
)

// Guard tells the hosts a handler may answer under.
type Guard struct {
	// names are the allowed host names in lower case, without a port; ports are those allowed
	// with a name given with one ("" for any).
	names map[string][]string
	any   bool
}

// New returns a Guard of hosts: names or addresses, each with a port or without (any port),
// such as "admin.example.com" or "10.0.0.5:8443"; "*" allows any host. With none, it allows
// loopback only: "localhost", names under ".localhost", and loopback addresses.
func New(hosts []string) (*Guard, error) {
	g := &Guard{names: make(map[string][]string)}
	for _, h := range hosts {
		if h == "*" {
			g.any = true
			continue
		}
		name, port := h, "" // a name, or an address (an IPv6 one bare or in brackets)
		if n, p, err := net.SplitHostPort(h); err == nil {
			name, port = n, p
		}
		name = strings.ToLower(strings.Trim(name, "[]"))
		if name == "" || strings.ContainsAny(name, "/ ") || strings.Trim(port, "0123456789") != "" {
			return nil, fmt.Errorf("host %q is not a host name or address, with a port or without", h)
		}
		g.names[name] = append(g.names[name], port)
	}
	return g, nil
}

// Allowed reports whether r came for an allowed host.
func (g *Guard) Allowed(r *http.Request) bool {
	if g.any {
		return true
	}
	name, port := r.Host, ""
	if h, p, err := net.SplitHostPort(r.Host); err == nil {
		name, port = h, p
	}
	name = strings.ToLower(strings.TrimSuffix(strings.Trim(name, "[]"), "."))
	if len(g.names) == 0 {
		return loopback(name)
	}
	for _, p := range g.names[name] {
		if p == "" || p == port {
			return true
		}
	}
	return false
}

// loopback reports whether a host name is this machine's own by definition: localhost, a name
// under .localhost (RFC 6761 keeps them there), or a loopback address.
func loopback(name string) bool {
	if name == "localhost" || strings.HasSuffix(name, ".localhost") {
		return true
	}
	ip := net.ParseIP(name)
	return ip != nil && ip.IsLoopback()
}

// Wrap answers requests for another host with a 403 page saying how to allow it, and hands the
// rest to next.
func (g *Guard) Wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !g.Allowed(r) {
			Refuse(w)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// Refuse answers a request for a host that is not allowed.
func Refuse(w http.ResponseWriter) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusForbidden)
	fmt.Fprintln(w, "This page is not served under this host name. (Its operator can allow one with svc.Options.PageHosts.)")
}
