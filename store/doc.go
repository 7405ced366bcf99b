// Package store defines what svc keeps and how: the records (teams, keys, surveys, responses,
// events, webhook deliveries), the Store interface every backend implements, and the sentinel
// errors its methods return. The SQLite backend is store/sqlite; store/storetest is the
// conformance suite every backend must pass.
//
// A Store takes every time it records from its caller, so one injected clock in the handler
// drives all of svc.
package store
