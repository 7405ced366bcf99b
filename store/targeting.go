package store

import (
	"context"
	"time"

	"github.com/svc-feedback/svc/survey"
)

// Targeter is an optional interface of a Store that keeps what targeting needs
// (docs/api.md#display-rules): each team's settings, the attributes its backend stores for a
// person, its prompts, and a person's views of each survey. POST /v1/svc/next-survey and the endpoints that change
// these need it; both svc backends have it. RecordEvent of a view counts it in the person's
// history of the survey (Person) and uses up the person's prompts of that survey;
// EraseRespondent deletes their attributes and prompts with the rest.
type Targeter interface {
	// Settings returns a team's settings (the zero value until changed), or ErrNotFound for a
	// team that does not exist.
	Settings(ctx context.Context, teamID string) (TeamSettings, error)
	// ModifySettings calls fn with the team's settings as stored and stores what fn leaves in
	// them, with no other change in between, setting UpdatedAt (moved forward by at least a
	// millisecond). An error of fn is returned as it is. fn may run more than once.
	ModifySettings(ctx context.Context, teamID string, fn func(*TeamSettings) error) (TeamSettings, error)
	// SetAttributes replaces the attributes the team stores for a person (values are strings,
	// float64 and bools); nil or empty deletes them.
	SetAttributes(ctx context.Context, teamID, respondent string, attrs map[string]any) error
	// AddPrompt stores a prompt (its ID, TeamID, SurveyID, Respondent and CreatedAt set). It
	// returns ErrNotFound for a survey the team does not hold, ErrConflict for a taken id.
	AddPrompt(ctx context.Context, p Prompt) error
	// Prompts lists a survey's prompts not yet used up, oldest first, at most limit.
	Prompts(ctx context.Context, teamID, surveyID string, limit int) ([]Prompt, error)
	// DeletePrompt deletes a prompt of the survey, or returns ErrNotFound.
	DeletePrompt(ctx context.Context, teamID, surveyID, id string) error
	// Person returns what the team's targeting knows of a person, in one read, with whether
	// they responded to each of the surveys asked (Person.Responded).
	Person(ctx context.Context, teamID, respondent string, asked []string) (Person, error)
	// Responded reports whether a person has a response to a survey.
	Responded(ctx context.Context, surveyID, respondent string) (bool, error)
	// ActiveRules lists the team's active surveys with their display rules, in no particular
	// order: what targeting reads of every survey, without decoding their questions.
	ActiveRules(ctx context.Context, teamID string) ([]SurveyRules, error)
}

// RulesVersioner is an optional interface of a Targeter that tells cheaply whether a team's
// active surveys may have changed, so that their rules are read again (ActiveRules decodes every
// one) only when they did. Both svc backends have it.
type RulesVersioner interface {
	// RulesVersion returns a value that differs whenever a survey of the team became active or
	// stopped being so, or an active one changed, since an earlier call: it counts the team's
	// active surveys and sums and maxes their UpdatedAt, which every change moves forward.
	RulesVersion(ctx context.Context, teamID string) (string, error)
}

// SurveyRules is what targeting reads of an active survey.
type SurveyRules struct {
	ID                   string
	CreatedAt, UpdatedAt time.Time
	Display              *survey.Display // nil for a survey without display rules
}

// TeamSettings are a team's settings.
type TeamSettings struct {
	// CooldownDays keeps any survey of the team (but those that ignore it) from being picked for
	// a person within this many days of their last view of any; 0 for none.
	CooldownDays int
	// Segments are the team's declared segments (see SegmentCounter), in the order declared.
	Segments []string
	// SegmentsGeneration is set by the Store: ModifySettings moves it forward by one whenever
	// Segments change, starting a new generation of segment counts; 0 until segments are
	// first declared.
	SegmentsGeneration int64
	UpdatedAt          time.Time // zero until the settings are first changed
}

// MaxCooldownDays is the longest cooldown a team may set: ten years.
const MaxCooldownDays = 3650

// Prompt is the team's backend asking svc to show a survey to a person the next time they are
// eligible for it; a view of the survey uses it up.
type Prompt struct {
	ID, TeamID, SurveyID, Respondent string
	CreatedAt                        time.Time
	ExpiresAt                        *time.Time // nil: until used up
}

// Person is what a team's targeting knows of a person.
type Person struct {
	// Attributes are those the team's backend stored (SetAttributes); empty for none.
	Attributes map[string]any
	// Prompts are the person's prompts not yet used up, of every survey of the team.
	Prompts []Prompt
	// Surveys holds the person's views and dismissals of each survey of the team they have
	// seen, by survey id.
	Surveys map[string]Seen
	// Responded holds the surveys asked that the person has a response to.
	Responded map[string]bool
}

// Seen is a person's views and dismissals of one survey.
type Seen struct {
	Views                     int
	LastViewed, LastDismissed time.Time // zero for never
}

// LastViewed is the person's last view of any survey of the team; zero for never.
func (p Person) LastViewed() time.Time {
	var last time.Time
	for _, s := range p.Surveys {
		if s.LastViewed.After(last) {
			last = s.LastViewed
		}
	}
	return last
}
