package delivery

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"syscall"
	"time"

	"code.dny.dev/ssrf"
)

// ErrForbiddenAddress is the error of a delivery whose host resolves to an address webhooks
// may not reach: one of the IANA special-purpose addresses (loopback, private, link-local,
// multicast, reserved and the like).
var ErrForbiddenAddress = errors.New("webhook address is not public")

// allowPrivateHint names what lifts the refusal of a private address, for the messages that
// refuse one: the option, and the example server's flag that sets it.
const allowPrivateHint = "svc.Options.Webhooks.AllowPrivate (the example server's -allow-private-webhooks) allows loopback and private addresses"

// forbiddenAddress is the error of a connection refused to what: the address, and what would
// allow it. It is stored as the delivery's last error and logged.
func forbiddenAddress(what string) error {
	return fmt.Errorf("%w: %s; %s", ErrForbiddenAddress, what, allowPrivateHint)
}

// newTransport returns a transport that checks every connection's address after DNS
// resolution, so a host name cannot rebind to a private address, and that ignores proxy
// settings, which would hide the real address.
func newTransport(allowPrivate bool, timeout time.Duration) *http.Transport {
	dialer := &net.Dialer{Timeout: timeout, KeepAlive: 30 * time.Second}
	if !allowPrivate {
		dialer.Control = func(_, address string, _ syscall.RawConn) error {
			host, _, err := net.SplitHostPort(address)
			if err != nil {
				return forbiddenAddress(address)
			}
			ip, err := netip.ParseAddr(host)
			if err != nil || forbidden(ip) {
				return forbiddenAddress(host)
			}
			return nil
		}
	}
	return &http.Transport{
		Proxy:                 nil,
		DialContext:           dialer.DialContext,
		ForceAttemptHTTP2:     true,
		MaxIdleConns:          64,
		MaxIdleConnsPerHost:   4,
		IdleConnTimeout:       90 * time.Second,
		TLSHandshakeTimeout:   timeout,
		ExpectContinueTimeout: time.Second,
	}
}

// PrivateURL reports whether rawURL's host is, as written, one that webhooks may not reach by
// default: a loopback, private or otherwise non-public IP address, or localhost. Host names are
// not resolved: this tells what an operator wrote, while the dialer checks every address a
// delivery actually reaches.
func PrivateURL(rawURL string) bool {
	u, err := url.Parse(rawURL)
	if err != nil {
		return false
	}
	host := strings.ToLower(u.Hostname())
	if host == "localhost" || strings.HasSuffix(host, ".localhost") {
		return true
	}
	ip, err := netip.ParseAddr(host)
	return err == nil && forbidden(ip)
}

// specialPurpose classifies addresses against the IANA special-purpose address registries for
// IPv4 and IPv6 (loopback, private, shared, link-local, documentation, benchmarking, reserved,
// multicast and broadcast, 6to4, and every IPv6 address outside global unicast, NAT64 and
// IPv4-compatible ones included), as code.dny.dev/ssrf keeps them, generated from the
// registries. It holds no state: a value set up once, like a table.
var specialPurpose = ssrf.New(ssrf.WithAnyPort(), ssrf.WithAnyNetwork())

// forbidden reports whether webhooks may not reach ip by default. An IPv4 address written in
// IPv6 form (::ffff:a.b.c.d) is judged as the IPv4 address it is.
func forbidden(ip netip.Addr) bool {
	return specialPurpose.SafeAddr(ip.Unmap()) != nil
}
