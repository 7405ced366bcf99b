package client

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"sync"
)

// WithHandler sends requests to h in this process, with no port and no network: for an app
// that embeds svc's handler and reads its own results, or for tests. The base URL given to New
// or NewPublic still names the handler's mount path (its host is not used: "http://svc" will
// do). A reply is streamed as h writes it, so an export holds no more in memory than over the
// network. It replaces any WithHTTPClient.
func WithHandler(h http.Handler) Option {
	return func(cfg *config) error {
		if h == nil {
			return errors.New("client: WithHandler needs a handler, not nil")
		}
		cfg.httpClient = &http.Client{Transport: handlerTransport{h}}
		return nil
	}
}

// handlerTransport is an http.RoundTripper that serves each request with a handler.
type handlerTransport struct{ h http.Handler }

// RoundTrip serves req with the handler in a goroutine of its own, and returns the reply once
// the handler has written its header: the body follows through a pipe.
func (t handlerTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	in := req.Clone(req.Context())
	if in.Body == nil {
		in.Body = http.NoBody
	}
	in.RequestURI = in.URL.RequestURI()
	in.RemoteAddr = "127.0.0.1:0" // in-process: the loopback address a rate limit keys on
	if in.Host == "" {
		in.Host = in.URL.Host
	}
	pr, pw := io.Pipe()
	w := &pipeResponse{req: req, header: make(http.Header), reader: pr, body: pw, ready: make(chan *http.Response, 1)}
	go func() {
		defer func() {
			if p := recover(); p != nil {
				// As net/http's server does with a panicking handler: the connection, here the
				// pipe, ends with an error, and no reply is made up.
				w.fail(fmt.Errorf("client: the handler panicked: %v", p))
				return
			}
			w.WriteHeader(http.StatusOK) // a handler that wrote nothing replied 200
			pw.Close()
		}()
		t.h.ServeHTTP(w, in)
	}()
	select {
	case resp := <-w.ready:
		if resp == nil {
			return nil, w.err
		}
		return resp, nil
	case <-req.Context().Done():
		pr.CloseWithError(req.Context().Err())
		return nil, req.Context().Err()
	}
}

// pipeResponse is the http.ResponseWriter a handler writes to in process: its header becomes
// the reply's when it is written, and its body goes through the pipe.
type pipeResponse struct {
	req    *http.Request
	header http.Header
	reader *io.PipeReader
	body   *io.PipeWriter
	ready  chan *http.Response // the reply, or nil when the handler failed before its header

	once sync.Once
	err  error
}

func (w *pipeResponse) Header() http.Header { return w.header }

func (w *pipeResponse) WriteHeader(status int) {
	w.once.Do(func() {
		resp := &http.Response{Status: strconv.Itoa(status) + " " + http.StatusText(status), StatusCode: status,
			Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1, Header: w.header.Clone(), Body: w.reader, Request: w.req, ContentLength: -1}
		if n, err := strconv.ParseInt(w.header.Get("Content-Length"), 10, 64); err == nil {
			resp.ContentLength = n
		}
		w.ready <- resp
	})
}

func (w *pipeResponse) Write(b []byte) (int, error) {
	w.WriteHeader(http.StatusOK)
	return w.body.Write(b)
}

// Flush lets a handler that flushes (a streamed export) do so: the pipe passes each write on.
func (w *pipeResponse) Flush() {}

func (w *pipeResponse) fail(err error) {
	w.once.Do(func() {
		w.err = err
		w.ready <- nil
	})
	w.body.CloseWithError(err)
}
