// Package store defines what svc keeps and how: the records (teams, keys, surveys, responses,
// events, webhook deliveries), the Store interface every backend implements, and the sentinel
// errors its methods return. The backends are store/sqlite and store/postgres; store/storetest
// is the conformance suite every backend must pass.
//
// # For an app that embeds svc
//
// An app opens a backend (sqlite.Open, postgres.Open), hands it to svc.NewHandler, and closes it
// when it stops. On its first start svc.Bootstrap makes its team and first keys; surveys are
// best written through the API (the client package, in process with client.WithHandler), which
// fills in defaults and reads them strictly. The few calls of this package an app may make
// itself:
//
//   - Store.Team, Store.CreateTeam, Store.Keys, CreateKey and Store.RevokeKey: teams and keys
//     beyond the first;
//   - Store.Survey, Store.Surveys, Store.CreateSurvey with NewSurveyID, ModifySurvey,
//     SetSurveyStatus and RotateWebhookSecret: surveys from Go, each checked as the API checks
//     one (Survey.Validate);
//   - Store.EraseRespondent: a person's right to be forgotten, as the API's DELETE does;
//   - the errors ErrNotFound, ErrConflict and ErrInvalid, to tell a refusal from a failure.
//
// Everything else here is for backends: the records and queries the handler reads through
// (ResponseWrite, ResponseQuery, Narrowing, Count and its keys, Delivery), and the optional
// interfaces a backend may implement to be faster or to offer more (SurveyModifier, Targeter,
// RulesVersioner, Linker, TextReader, PeriodCounter, DeliveryWatcher, SharedSurveyReader,
// OutboxCounter, PoolReporter, Pinger). svc asks for each with a type assertion and does
// without what a backend lacks, saying so where a feature needs it.
//
// # For a backend
//
// A Store takes every time it records from its caller, so one injected clock in the handler
// drives all of svc. Run storetest.Run against it: it is what svc relies on.
package store
