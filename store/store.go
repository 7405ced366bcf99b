package store

import (
	"bytes"
	"context"
	"encoding/json"
	"net/url"
	"strings"
	"time"

	"github.com/svc-feedback/svc/internal/cuid2"
	"github.com/svc-feedback/svc/survey"
)

// Store keeps svc's data. Implementations must be safe for concurrent use, scope every read by
// team where a team is given, and pass the conformance suite in store/storetest.
type Store interface {
	// CreateTeam adds a team; a zero CreatedAt means now. It returns ErrConflict if the id is
	// taken.
	CreateTeam(ctx context.Context, t Team) error
	// Team returns a team, or ErrNotFound.
	Team(ctx context.Context, id string) (Team, error)

	// AddKey stores the SHA-256 hash of plaintext as key k of k.TeamID. It returns ErrConflict
	// if the same key is already stored and ErrNotFound if the team does not exist.
	AddKey(ctx context.Context, k Key, plaintext string) error
	// LookupKey returns the unrevoked key whose plaintext is given, or ErrNotFound.
	LookupKey(ctx context.Context, plaintext string) (Key, error)
	// Keys lists a team's keys, revoked ones included, oldest first.
	Keys(ctx context.Context, teamID string) ([]Key, error)
	// RevokeKey revokes a key of the team at the given time; it fails with ErrNotFound for a
	// key the team does not hold. Revoking twice keeps the first time.
	RevokeKey(ctx context.Context, teamID, keyID string, at time.Time) error

	// CreateSurvey adds a survey after validating it (ErrInvalid); a zero CreatedAt means now,
	// and a zero UpdatedAt means CreatedAt. It returns ErrConflict if the id is taken and
	// ErrNotFound if the team does not exist.
	CreateSurvey(ctx context.Context, s Survey) error
	// UpdateSurvey replaces a survey's status, definition and webhook settings after
	// validating them and sets UpdatedAt (moving it forward by at least a millisecond, so
	// each version has its own); CreatedAt and TeamID never change. It returns ErrNotFound for
	// a survey the team does not hold.
	UpdateSurvey(ctx context.Context, s Survey) error
	// Survey returns a survey of the team in any status, or ErrNotFound. The definition
	// may be shared with a cache: replace its parts rather than editing them in place.
	Survey(ctx context.Context, teamID, id string) (Survey, error)
	// Surveys lists a team's surveys that are not deleted, newest first, limit at a time after
	// the cursor (nil for the first page). next is nil on the last page.
	Surveys(ctx context.Context, teamID string, after *Cursor, limit int) (page []Survey, next *Cursor, err error)

	// PutResponse creates the response, or replaces the answers, metadata and telemetry of the
	// survey's response with that id. created reports which. It returns ErrConflict when the id
	// is the survey's response of another respondent and ErrNotFound when the survey does not
	// exist. A created response whose survey has a webhook URL gets a pending delivery in the
	// same transaction, unless it is imported. An imported write never changes an existing
	// response.
	PutResponse(ctx context.Context, w ResponseWrite) (r Response, created bool, err error)
	// Responses lists a survey's responses, newest first, filtered by q. Listed responses
	// leave Telemetry nil; Response returns it.
	Responses(ctx context.Context, q ResponseQuery) (page []Response, next *Cursor, err error)
	// Response returns one response of a survey, or ErrNotFound.
	Response(ctx context.Context, surveyID, id string) (Response, error)
	// DeleteResponse deletes a survey's response for good: Stats, Counts and the
	// respondent's History become what they would be had it never been written, and its
	// deliveries are deleted (an attempt in flight finishes, but its outcome is not recorded).
	// It returns ErrNotFound when the survey has no such response.
	DeleteResponse(ctx context.Context, surveyID, id string) error
	// EraseRespondent deletes every response and event of a respondent in every survey of the
	// team, deleted surveys included, as DeleteResponse deletes a response (for the events too:
	// the counters and History become what they would be without them), and reports how many
	// it deleted. A respondent with nothing to erase gets zeros.
	EraseRespondent(ctx context.Context, teamID, respondent string) (Erased, error)

	// RecordEvent records a view or dismissal. An imported event identical to one imported
	// before is ignored. It returns ErrNotFound when the survey does not exist.
	RecordEvent(ctx context.Context, e Event) error
	// History returns a respondent's interaction history with a survey; an unknown respondent
	// has an empty History.
	History(ctx context.Context, surveyID, respondent string) (History, error)
	// Stats returns a survey's lifetime engagement totals; its cost does not grow with them.
	Stats(ctx context.Context, surveyID string) (Stats, error)
	// RangeStats returns a survey's engagement in [from, to): the views and dismissals recorded
	// and the responses created then (FinishedResponses: those of them finished by now), each
	// with its distinct respondents. Distinct counts cannot be summed from rollups: its cost grows
	// with the interactions in the range (read through indexes by time), not with the history.
	RangeStats(ctx context.Context, surveyID string, from, to time.Time) (Stats, error)
	// Counts returns, for each key asked, its counts over [from, to): for a rating
	// question's id, how many responses created then scored each score; for the summary's
	// keys (AnsweredKey, ReachedKey, FunnelKey, OptionKey), what ResponseCounts of those
	// responses adds up to; for EventsKey, the views (0) and dismissals (1) recorded then.
	// Numbers nobody counted are absent. A Store keeps these counts on write (PutResponse,
	// DeleteResponse, EraseRespondent and RecordEvent add or take out ResponseCounts and the
	// events), so that the cost of a range does not grow with the responses in it.
	Counts(ctx context.Context, surveyID string, keys []string, from, to time.Time) (map[string]map[int]int64, error)

	// ClaimDeliveries leases up to limit deliveries that are due at now (pending with a next
	// attempt time not after now, or delivering with an expired lease, left by a stopped
	// sender) until now+lease, marks them delivering and returns them. Concurrent callers, in
	// this process or another sharing the database, never claim the same delivery at once.
	ClaimDeliveries(ctx context.Context, now time.Time, lease time.Duration, limit int) ([]Delivery, error)
	// FinishDelivery records the outcome of a claimed delivery's attempts. It returns
	// ErrNotFound when the delivery is not claimed (any more).
	FinishDelivery(ctx context.Context, r DeliveryResult) error
	// Deliveries lists a survey's deliveries, newest first.
	Deliveries(ctx context.Context, surveyID string, after *Cursor, limit int) (page []Delivery, next *Cursor, err error)
	// Redeliver makes a delivery of the survey pending again from at, keeping its id and
	// Attempts and setting RoundAttempts to 0. It returns ErrNotFound for an unknown delivery
	// and ErrConflict while the delivery is being sent (claimed, with a lease not run out at at).
	Redeliver(ctx context.Context, surveyID, deliveryID string, at time.Time) (Delivery, error)

	// Close releases the Store's resources. Calls after Close fail with ErrClosed.
	Close() error
}

// Erased counts what EraseRespondent deleted.
type Erased struct {
	Responses int
	Events    int
}

// DeliveryState is where a webhook delivery stands.
type DeliveryState string

// Delivery states. A delivery is pending until a sender claims it (delivering), then
// succeeded, failed (after its last attempt), or pending again (when its sender stopped).
const (
	DeliveryPending    DeliveryState = "pending"
	DeliveryDelivering DeliveryState = "delivering"
	DeliverySucceeded  DeliveryState = "succeeded"
	DeliveryFailed     DeliveryState = "failed"
)

// Delivery is one response.created webhook delivery and its log.
type Delivery struct {
	ID         string
	SurveyID   string
	TeamID     string
	ResponseID string
	State      DeliveryState
	// Attempts counts HTTP attempts over the delivery's life, redeliveries included.
	Attempts int
	// RoundAttempts counts HTTP attempts since the delivery was created or last redelivered:
	// the sender's retries count against it.
	RoundAttempts int
	// LastStatus is the last attempt's HTTP status, or 0 when it got none.
	LastStatus int
	// LastError describes the last attempt's failure, or is empty.
	LastError     string
	NextAttemptAt time.Time
	CreatedAt     time.Time
	UpdatedAt     time.Time
	DeliveredAt   *time.Time
}

// DeliveryResult is the outcome of a claimed delivery's attempts.
type DeliveryResult struct {
	ID string
	// State is DeliverySucceeded, DeliveryFailed, or DeliveryPending to hand the delivery
	// back (as a stopping sender does), due again at NextAttemptAt.
	State DeliveryState
	// Attempts is how many attempts this claim made; it adds to the delivery's Attempts and
	// RoundAttempts.
	Attempts      int
	LastStatus    int
	LastError     string
	At            time.Time
	NextAttemptAt time.Time
}

// Team owns surveys and keys.
type Team struct {
	ID        string
	Name      string
	CreatedAt time.Time
}

// Status is a survey's lifecycle state. Any status can change to any other.
type Status string

// Survey statuses. Deleted is a soft delete: the survey disappears from every endpoint.
const (
	StatusActive   Status = "active"
	StatusInactive Status = "inactive"
	StatusDeleted  Status = "deleted"
)

// Valid reports whether s is a known status.
func (s Status) Valid() bool {
	return s == StatusActive || s == StatusInactive || s == StatusDeleted
}

// Survey is a stored survey: its definition, owner, status and webhook settings.
type Survey struct {
	ID     string
	TeamID string
	Status Status
	survey.Definition
	// WebhookURL receives response.created deliveries when set; it must be http or https.
	WebhookURL string
	// WebhookSecret signs deliveries when set.
	WebhookSecret string
	// PreviousWebhookSecret is also used to sign deliveries until PreviousSecretExpiresAt, so
	// receivers can rotate secrets without dropping deliveries.
	PreviousWebhookSecret   string
	PreviousSecretExpiresAt time.Time
	// WebhookWaitSeconds delays a response's delivery until the response is finished or has
	// had no update for this many seconds, whichever comes first (0 to 86,400; 0 sends at once).
	WebhookWaitSeconds int
	CreatedAt          time.Time
	UpdatedAt          time.Time
}

// MaxWebhookWaitSeconds is the longest a survey may hold a delivery for its response: a day.
const MaxWebhookWaitSeconds = 86_400

// Validate checks the survey as it is saved: a cuid2 id, a team, a known status, a valid
// definition and an http or https webhook URL. Errors wrap ErrInvalid.
func (s *Survey) Validate() error {
	return s.validate(true)
}

// ValidateChange checks a change of a stored survey as Validate does, except that a definition
// left as it was stored (before is the stored definition's JSON, as json.Marshal writes it) is
// not checked again. A survey saved before a newer version of svc checked more (routing cases
// against their questions, say) can still be paused, deleted and given a new webhook secret;
// it is held to the new checks at the next change of its definition.
func (s *Survey) ValidateChange(before []byte) error {
	def, err := json.Marshal(s.Definition)
	return s.validate(err != nil || !bytes.Equal(def, before))
}

func (s *Survey) validate(definition bool) error {
	if !cuid2.IsValid(s.ID) {
		return invalid("survey id %q is not a cuid2", s.ID)
	}
	if s.TeamID == "" {
		return invalid("survey %s has no team", s.ID)
	}
	if !s.Status.Valid() {
		return invalid("survey status %q is not active, inactive or deleted", s.Status)
	}
	if definition {
		if err := s.Definition.Validate(); err != nil {
			// The definition's own message, without its sentinel's word, for whoever sent it.
			return &Error{Kind: ErrInvalid, Message: strings.TrimPrefix(err.Error(), survey.ErrInvalidDefinition.Error()+": "), Err: err}
		}
	}
	if s.WebhookURL != "" {
		if err := ValidateWebhookURL(s.WebhookURL); err != nil {
			return err
		}
	}
	if s.WebhookWaitSeconds < 0 || s.WebhookWaitSeconds > MaxWebhookWaitSeconds {
		return invalid("webhookWaitSeconds must be from 0 to %d", MaxWebhookWaitSeconds)
	}
	return nil
}

// DeliveryDue is when the delivery of a response written at is due: at once without a wait or
// once finished, else the survey's wait after this write.
func (s *Survey) DeliveryDue(at time.Time, finished bool) time.Time {
	if s.WebhookWaitSeconds <= 0 || finished {
		return at
	}
	return at.Add(time.Duration(s.WebhookWaitSeconds) * time.Second)
}

// ValidateWebhookURL checks that u is an absolute http or https URL with a host. Errors wrap
// ErrInvalid.
func ValidateWebhookURL(u string) error {
	p, err := url.Parse(u)
	if err != nil {
		return invalid("webhook URL: %v", err)
	}
	if (p.Scheme != "http" && p.Scheme != "https") || p.Host == "" {
		return invalid("webhook URL %q must be an absolute http or https URL", u)
	}
	return nil
}

// Response is a stored response. Data and Metadata are kept as the JSON they were stored as
// (an answers object and a string map), so lists can be written without decoding them.
type Response struct {
	ID         string
	SurveyID   string
	Respondent string
	Data       json.RawMessage
	Metadata   json.RawMessage
	Telemetry  *string
	// Language is the language the answers were given in ("" when the writer did not say).
	Language string
	// Finished tells that the respondent finished the survey: a write said so, and it stays so.
	Finished  bool
	CreatedAt time.Time
	UpdatedAt time.Time
}

// Answers decodes the response's data.
func (r *Response) Answers() (survey.Answers, error) {
	var a survey.Answers
	err := json.Unmarshal(r.Data, &a)
	return a, err
}

// ResponseWrite is a PutResponse request. The caller validates Data against the survey.
type ResponseWrite struct {
	SurveyID   string
	ID         string
	Respondent string
	Data       survey.Answers
	Metadata   map[string]string
	Telemetry  *string
	// Language is the canonical language tag the answers were given in, or "": each write
	// replaces it, as it replaces the metadata.
	Language string
	// Finished marks the response finished (the widget's last answer); false leaves it as it
	// was, since a finished response stays finished.
	Finished bool
	// At is the time of the write: the new response's CreatedAt, or an update's UpdatedAt.
	At time.Time
	// Imported marks history brought in from elsewhere: it creates a response only if the id
	// is free, never changes one, and never schedules a webhook.
	Imported bool
}

// ResponseQuery selects a page of a survey's responses. Zero fields do not filter.
type ResponseQuery struct {
	SurveyID   string
	Respondent string
	// After and Before bound CreatedAt, both inclusive.
	After  time.Time
	Before time.Time
	Cursor *Cursor
	Limit  int
	// Oldest lists oldest first, for exports; the cursor then marks the last item of an
	// oldest-first page.
	Oldest bool
	// MaxBytes, when positive, bounds a page by size as well as by count: the page ends after
	// the first response whose data and metadata take its total to MaxBytes or more, with a
	// cursor to the rest. A page always holds at least one response, so a single response
	// larger than MaxBytes still comes, alone.
	MaxBytes int
	// Narrow, when set, is the part of a caller's filter that a Store may test in its own
	// query, so that the responses failing it are left out before they are read. It is a
	// hint: a Store may test all of it, part of it or none, and the caller tests every
	// response it gets. A Store must never leave out a response that passes it (see
	// Narrowing.Passes). Limit, MaxBytes and the cursor count the responses returned.
	Narrow *Narrowing
}

// Narrowing is what a filter asks of responses in terms a Store can test in its query
// (ResponseQuery.Narrow). A response passes when it passes every term.
type Narrowing struct {
	// Finished, when set, is the response's Finished.
	Finished *bool
	// Scores: the answer to each question is a JSON number within the bounds.
	Scores []ScoreBound
	// Choices: the answer to each question is one of the values, or a list holding one.
	Choices []ChoiceTerm
}

// ScoreBound asks that the answer to QuestionID be a number within [Min, Max].
type ScoreBound struct {
	QuestionID string
	Min, Max   float64
}

// ChoiceTerm asks that the answer to QuestionID be one of Values, or a list of strings holding
// one of them.
type ChoiceTerm struct {
	QuestionID string
	Values     []string
}

// Cursor marks the last item of a page in (CreatedAt, ID) order: newest first, unless the
// query asked for the oldest first.
type Cursor struct {
	CreatedAt time.Time
	ID        string
}

// EventType is the kind of a respondent event.
type EventType string

// Event types.
const (
	EventView    EventType = "view"
	EventDismiss EventType = "dismiss"
)

// Event is a view or dismissal of a survey by a respondent.
type Event struct {
	SurveyID   string
	Respondent string
	Type       EventType
	At         time.Time
	// Imported marks history brought in from elsewhere; importing the same event twice
	// records it once.
	Imported bool
}

// History is a respondent's latest interactions with a survey; nil means never.
type History struct {
	LastRespondedAt *time.Time
	LastViewedAt    *time.Time
	LastDismissedAt *time.Time
}

// Stats are a survey's lifetime engagement totals. Totals count rows; uniques count distinct
// respondents.
type Stats struct {
	TotalViews       int64
	UniqueViewers    int64
	TotalDismissals  int64
	UniqueDismissers int64
	TotalResponses   int64
	UniqueResponders int64
	// FinishedResponses counts the responses finished.
	FinishedResponses int64
}
