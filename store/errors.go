package store

import (
	"errors"
	"fmt"
)

// Sentinel errors returned (wrapped) by Store methods. Check them with errors.Is.
var (
	// ErrNotFound means the record does not exist, or belongs to another team.
	ErrNotFound = errors.New("not found")
	// ErrConflict means the write collides with an existing record, such as a response id
	// already used by another respondent.
	ErrConflict = errors.New("conflict")
	// ErrInvalid means the record breaks a rule of the model; the message says which.
	ErrInvalid = errors.New("invalid")
	// ErrUnavailable means the store cannot take the call now, such as while another process
	// holds its database's write lock; the caller may retry it shortly.
	ErrUnavailable = errors.New("store unavailable")
	// ErrClosed means the Store was closed.
	ErrClosed = errors.New("store closed")
)

// Error is an error of the store whose Message is meant for whoever made the request: it says
// what in their input was wrong or in the way, and never holds internal detail, so the HTTP
// layer shows it as it is. Kind is the sentinel it wraps (ErrInvalid, ErrConflict or
// ErrNotFound); Err, when set, is the error it was made from, such as a survey definition's.
type Error struct {
	Kind    error
	Message string
	Err     error
}

// Error returns the sentinel's word and the message, as in "invalid: respondent must be ...".
func (e *Error) Error() string { return e.Kind.Error() + ": " + e.Message }

// Unwrap returns the sentinel and the error the Error was made from, for errors.Is and errors.As.
func (e *Error) Unwrap() []error {
	if e.Err == nil {
		return []error{e.Kind}
	}
	return []error{e.Kind, e.Err}
}

// Invalidf returns an *Error of kind ErrInvalid with a formatted message.
func Invalidf(format string, args ...any) error {
	return &Error{Kind: ErrInvalid, Message: fmt.Sprintf(format, args...)}
}

// Conflictf returns an *Error of kind ErrConflict with a formatted message.
func Conflictf(format string, args ...any) error {
	return &Error{Kind: ErrConflict, Message: fmt.Sprintf(format, args...)}
}

func invalid(format string, args ...any) error { return Invalidf(format, args...) }
