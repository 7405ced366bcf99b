package report

import (
	"encoding/json"
	"net/url"
	"slices"
	"strings"

	"github.com/svc-feedback/svc/store"
)

// The page filter: page=/pricing picks the responses written on that page, page=/docs/* those
// written on any page under /docs/. The page of a response is the path of the URL the widget
// puts in its metadata (the "url" key: the address of the page the survey was shown on), with
// its query and fragment left out, so that /pricing?plan=pro is the page /pricing.

// PageMetadataKey is the metadata key that holds the address of the page a response came from.
const PageMetadataKey = "url"

// PagePath is the path of the page a response's metadata names (see PageMetadataKey): the path
// of its URL, without query or fragment; "" when the metadata names no page or its address is
// not a URL.
func PagePath(meta map[string]string) string {
	raw, ok := meta[PageMetadataKey]
	if !ok || raw == "" {
		return ""
	}
	u, err := url.Parse(raw)
	if err != nil {
		return ""
	}
	switch {
	case u.Path != "":
		return u.Path
	case u.Host != "":
		return "/" // https://example.com is the site's root page
	}
	return "" // only a query or a fragment, or an opaque URL (mailto:): no page
}

// parsePage checks the values of page= (repeated: any of them): each a path starting with "/",
// without query or fragment, with at most one "*", at its end, for a prefix.
func parsePage(values []string) ([]string, error) {
	for _, v := range values {
		switch {
		case !strings.HasPrefix(v, "/"):
			return nil, store.Invalidf("page is a page's path, starting with /: /pricing, or /docs/* for every page under /docs/")
		case strings.ContainsAny(v, "?#"):
			return nil, store.Invalidf("page is a page's path without query or fragment: /pricing, not /pricing?plan=pro")
		case strings.Contains(strings.TrimSuffix(v, "*"), "*"):
			return nil, store.Invalidf("page takes one *, at its end, for every page under a path: /docs/*")
		}
	}
	return slices.Clone(values), nil
}

// pageMatches reports whether the page of a response (its path, "" for none) is one of the
// filter's pages: the same path, or, for a value ending in *, any path starting with what
// comes before it.
func pageMatches(pages []string, path string) bool {
	if path == "" {
		return false
	}
	return slices.ContainsFunc(pages, func(p string) bool {
		if prefix, ok := strings.CutSuffix(p, "*"); ok {
			return strings.HasPrefix(path, prefix)
		}
		return path == p
	})
}

// responseMetadata is a stored response's metadata as keys and values, as the metadata filter
// reads it: nil when it holds none, and, of an object with a value that is not a string (which
// svc never writes), its string values.
func responseMetadata(r store.Response) map[string]string {
	if len(r.Metadata) == 0 {
		return nil
	}
	var meta map[string]string
	_ = json.Unmarshal(r.Metadata, &meta)
	return meta
}
