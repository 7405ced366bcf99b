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
)

// ErrForbiddenAddress is the error of a delivery whose host resolves to an address webhooks
// may not reach (loopback, private, link-local, multicast, unspecified).
var ErrForbiddenAddress = errors.New("webhook address is not public")

// newTransport returns a transport that checks every connection's address after DNS
// resolution, so a host name cannot rebind to a private address, and that ignores proxy
// settings, which would hide the real address.
func newTransport(allowPrivate bool, timeout time.Duration) *http.Transport {
	dialer := &net.Dialer{Timeout: timeout, KeepAlive: 30 * time.Second}
	if !allowPrivate {
		dialer.Control = func(_, address string, _ syscall.RawConn) error {
			host, _, err := net.SplitHostPort(address)
			if err != nil {
				return fmt.Errorf("%w: %s", ErrForbiddenAddress, address)
			}
			ip, err := netip.ParseAddr(host)
			if err != nil || forbidden(ip) {
				return fmt.Errorf("%w: %s", ErrForbiddenAddress, host)
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

// cgnat is the shared address space of carrier-grade NAT (RFC 6598), private in practice.
var cgnat = netip.MustParsePrefix("100.64.0.0/10")

func forbidden(ip netip.Addr) bool {
	ip = ip.Unmap()
	return ip.IsLoopback() || ip.IsPrivate() || ip.IsLinkLocalUnicast() || ip.IsLinkLocalMulticast() ||
		ip.IsInterfaceLocalMulticast() || ip.IsMulticast() || ip.IsUnspecified() || cgnat.Contains(ip) ||
		(ip.Is4() && ip.As4()[0] == 0) // 0.0.0.0/8, "this network"
}
