// Package storetest is the conformance suite for store.Store implementations. A backend is
// done when Run passes against it:
//
//	func TestConformance(t *testing.T) {
//		storetest.Run(t, func(t *testing.T) store.Store { return openTestStore(t) })
//	}
package storetest

import (
	"errors"
	"testing"
	"time"

	"github.com/svc-feedback/svc/internal/cuid2"
	"github.com/svc-feedback/svc/store"
	"github.com/svc-feedback/svc/survey"
)

// Run runs every conformance test. newStore must return an empty Store; Run closes it.
func Run(t *testing.T, newStore func(t *testing.T) store.Store) {
	tests := []struct {
		name string
		fn   func(t *testing.T, s store.Store)
	}{
		{"Teams", testTeams},
		{"Keys", testKeys},
		{"Surveys", testSurveys},
		{"SurveyList", testSurveyList},
		{"ModifySurvey", testModifySurvey},
		{"DefinitionKeptWhole", testDefinitionKeptWhole},
		{"ResponseCreateUpdate", testResponseCreateUpdate},
		{"ResponseConcurrentCreate", testResponseConcurrentCreate},
		{"ResponseList", testResponseList},
		{"ResponseListMaxBytes", testResponseListMaxBytes},
		{"ResponseListOldest", testResponseListOldest},
		{"ResponseNarrow", testResponseNarrow},
		{"ResponseFinished", testResponseFinished},
		{"ResponseTexts", testResponseTexts},
		{"DeleteResponse", testDeleteResponse},
		{"EraseRespondent", testEraseRespondent},
		{"EventsHistoryStats", testEventsHistoryStats},
		{"Counts", testCounts},
		{"CountsAnyRange", testCountsAnyRange},
		{"PeriodCounts", testPeriodCounts},
		{"AnswerCounts", testAnswerCounts},
		{"CountsThroughBurst", testCountsThroughBurst},
		{"SegmentCounts", testSegmentCounts},
		{"SegmentFill", testSegmentFill},
		{"SegmentTeams", testSegmentTeams},
		{"Import", testImport},
		{"ImportConcurrent", testImportConcurrent},
		{"Outbox", testOutbox},
		{"OutboxConcurrentCreate", testOutboxConcurrentCreate},
		{"DeliveryLifecycle", testDeliveryLifecycle},
		{"RedeliverAfterExpiredLease", testRedeliverAfterExpiredLease},
		{"WebhookWait", testWebhookWait},
		{"Settings", testSettings},
		{"PersonAndPrompts", testPersonAndPrompts},
		{"PersonSeesEveryWrite", testPersonSeesEveryWrite},
		{"ActiveRules", testActiveRules},
		{"RulesVersion", testRulesVersion},
		{"Responded", testResponded},
		{"Links", testLinks},
		{"ResponseLanguage", testResponseLanguage},
		{"Closed", testClosed},
		{"ZeroTimes", testZeroTimes},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newStore(t)
			t.Cleanup(func() { _ = s.Close() })
			tt.fn(t, s)
		})
	}
}

// t0 is the suite's clock origin: a time with a millisecond part, in UTC.
var t0 = time.Date(2026, 3, 14, 9, 26, 53, 589_000_000, time.UTC)

var ids = cuid2.NewGenerator()

func mustTeam(t *testing.T, s store.Store, id string) {
	t.Helper()
	if err := s.CreateTeam(t.Context(), store.Team{ID: id, Name: "Team " + id, CreatedAt: t0}); err != nil {
		t.Fatalf("CreateTeam(%s): %v", id, err)
	}
}

func newSurvey(teamID string, at time.Time) store.Survey {
	return store.Survey{ID: ids.New(), TeamID: teamID, Status: store.StatusActive, Definition: survey.Sample(), CreatedAt: at, UpdatedAt: at}
}

func mustSurvey(t *testing.T, s store.Store, sv store.Survey) store.Survey {
	t.Helper()
	if err := s.CreateSurvey(t.Context(), sv); err != nil {
		t.Fatalf("CreateSurvey: %v", err)
	}
	return sv
}

func wantErr(t *testing.T, what string, err, want error) {
	t.Helper()
	if !errors.Is(err, want) {
		t.Fatalf("%s: error = %v, want %v", what, err, want)
	}
}
