// Package hostguard keeps pages without a login of their own (the results pages, the console,
// a demo page) from answering under a host name they are not served at. A web site the operator
// visits could otherwise point its own name at 127.0.0.1 (DNS rebinding) and read the pages
// from the operator's browser, as same-origin: the browser sends that site's name as Host.
package hostguard

import (
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"strconv"
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

// ValidHost reports whether a request's Host can be used: without a port, or with one that is
// a number from 0 to 65535. A Host such as "example.com:abc", "[::1]:x" or "a:" is refused
// wherever pages answer, rather than taken into a URL or compared as a host.
func ValidHost(host string) bool {
	port := ""
	switch {
	case strings.HasPrefix(host, "["):
		end := strings.IndexByte(host, ']')
		if end < 0 {
			return false
		}
		rest := host[end+1:]
		if rest == "" {
			return true
		}
		if rest[0] != ':' {
			return false
		}
		port = rest[1:]
	case strings.Count(host, ":") > 1:
		_, err := netip.ParseAddr(host) // an IPv6 address without brackets, and so without a port
		return err == nil
	default:
		i := strings.IndexByte(host, ':')
		if i < 0 {
			return true
		}
		port = host[i+1:]
	}
	if port == "" || len(port) > 5 || strings.Trim(port, "0123456789") != "" {
		return false
	}
	n, err := strconv.Atoi(port)
	return err == nil && n <= 65535
}

// Allowed reports whether r came for an allowed host; never for a Host ValidHost refuses.
func (g *Guard) Allowed(r *http.Request) bool {
	if !ValidHost(r.Host) {
		return false
	}
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

// Wrap answers requests whose Host has a port that is not a number with a 400, those for
// another host with a 403 page saying how to allow it, and hands the rest to next.
func (g *Guard) Wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !g.Admit(w, r) {
			return
		}
		next.ServeHTTP(w, r)
	})
}

// Admit reports whether r may be served; when not, it has answered: 400 for a Host ValidHost
// refuses, 403 for a host not allowed.
func (g *Guard) Admit(w http.ResponseWriter, r *http.Request) bool {
	switch {
	case !ValidHost(r.Host):
		refuse(w, http.StatusBadRequest, "This page's address (its Host) has a port that is not a number.")
		return false
	case !g.Allowed(r):
		Refuse(w)
		return false
	}
	return true
}

// Refuse answers a request for a host that is not allowed.
func Refuse(w http.ResponseWriter) {
	refuse(w, http.StatusForbidden, "This page is not served under this host name. (Its operator can allow one with svc.Options.PageHosts.)")
}

func refuse(w http.ResponseWriter, status int, msg string) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	fmt.Fprintln(w, msg)
}
