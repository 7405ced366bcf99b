package client

import (
	"encoding/json"
	"iter"
	"net/url"
	"strconv"
)

// Pages of lists, and iterators over every item.

// ListOptions select a page.
type ListOptions struct {
	// Cursor is the previous page's NextCursor; empty for the first page.
	Cursor string
	// Limit is the page size, 1 to 100; zero means the server's default (50).
	Limit int
}

func (o *ListOptions) values() url.Values {
	q := url.Values{}
	if o == nil {
		return q
	}
	if o.Cursor != "" {
		q.Set("cursor", o.Cursor)
	}
	if o.Limit != 0 {
		q.Set("limit", strconv.Itoa(o.Limit))
	}
	return q
}

// Page is one page of a list.
type Page[T any] struct {
	Data []T
	// NextCursor fetches the next page; empty on the last page.
	NextCursor string
	Limit      int
	Links      Links
}

// UnmarshalJSON reads a page, whose nextCursor is null on the last page.
func (p *Page[T]) UnmarshalJSON(b []byte) error {
	var raw struct {
		Data       []T     `json:"data"`
		NextCursor *string `json:"nextCursor"`
		Limit      int     `json:"limit"`
		Links      Links   `json:"links"`
	}
	if err := json.Unmarshal(b, &raw); err != nil {
		return err
	}
	*p = Page[T]{Data: raw.Data, Limit: raw.Limit, Links: raw.Links}
	if raw.NextCursor != nil {
		p.NextCursor = *raw.NextCursor
	}
	if p.Data == nil {
		p.Data = []T{}
	}
	return nil
}

// Links are a page's own URL and the next page's.
type Links struct {
	Self string  `json:"self"`
	Next *string `json:"next"`
}

// listOptions copies the caller's options, so that a later change to them does not reach an
// iterator made from them.
func listOptions(opts *ListOptions) ListOptions {
	if opts == nil {
		return ListOptions{}
	}
	return *opts
}

// paginate walks pages from start's cursor on, yielding every item until the last page, the
// caller's break or an error. Each range starts again from start with its own copy, so one
// iterator can be ranged any number of times, from several goroutines at once.
func paginate[T any](start ListOptions, list func(ListOptions) (*Page[T], error)) iter.Seq2[T, error] {
	return func(yield func(T, error) bool) {
		o := start
		for {
			p, err := list(o)
			if err != nil {
				var zero T
				yield(zero, err)
				return
			}
			for _, item := range p.Data {
				if !yield(item, nil) {
					return
				}
			}
			if p.NextCursor == "" {
				return
			}
			o.Cursor = p.NextCursor
		}
	}
}
