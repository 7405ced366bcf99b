package store

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"reflect"
	"strings"
	"time"

	"github.com/svc-feedback/svc/survey"
)

// Fixture is the import file format: teams with their keys, surveys and optional history.
// Importing the same fixture twice changes nothing.
type Fixture struct {
	Teams []FixtureTeam `json:"teams"`

	// Unknown lists the members of the file that DecodeFixture did not know and ignored, as
	// paths such as "teams[0].surveys[1].webhookSecert", so that the caller can warn about what is
	// likely a typo. It is not part of the file.
	Unknown []string `json:"-"`
}

// FixtureTeam is a team of a fixture, with keys given in plaintext.
type FixtureTeam struct {
	ID              string          `json:"id"`
	Name            string          `json:"name"`
	PublishableKeys []string        `json:"publishableKeys,omitempty"`
	SecretKeys      []string        `json:"secretKeys,omitempty"`
	Surveys         []FixtureSurvey `json:"surveys"`
}

// FixtureSurvey is a survey of a fixture: its definition members inline, plus history.
type FixtureSurvey struct {
	ID     string `json:"id"`
	Status Status `json:"status"`
	survey.Definition
	WebhookURL string `json:"webhookUrl,omitempty"`
	// WebhookWaitSeconds holds each response's delivery until it is finished or quiet for
	// this long (see Survey.WebhookWaitSeconds).
	WebhookWaitSeconds int               `json:"webhookWaitSeconds,omitempty"`
	WebhookSecret      string            `json:"webhookSecret,omitempty"`
	CreatedAt          *time.Time        `json:"createdAt,omitempty"`
	Responses          []FixtureResponse `json:"responses,omitempty"`
	Events             []FixtureEvent    `json:"events,omitempty"`
}

// FixtureResponse is an imported response.
type FixtureResponse struct {
	ID         string            `json:"id"`
	Respondent string            `json:"respondent"`
	Data       survey.Answers    `json:"data"`
	Metadata   map[string]string `json:"metadata"`
	CreatedAt  time.Time         `json:"createdAt"`
}

// FixtureEvent is an imported view or dismissal.
type FixtureEvent struct {
	Respondent string    `json:"respondent"`
	Type       EventType `json:"type"`
	CreatedAt  time.Time `json:"createdAt"`
}

// DecodeFixture reads a fixture file. Wrong types and trailing data are errors; members it does
// not know are ignored and listed in Fixture.Unknown. Refusing them would stop a server from
// starting over a member added by a newer tool or another exporter; ignoring them silently
// would let a misspelt member drop part of a survey unnoticed, so callers should report them.
func DecodeFixture(r io.Reader) (Fixture, error) {
	var raw json.RawMessage
	dec := json.NewDecoder(r)
	if err := dec.Decode(&raw); err != nil {
		return Fixture{}, fmt.Errorf("decode fixture: %w", err)
	}
	if dec.More() {
		return Fixture{}, errors.New("decode fixture: data after the JSON object")
	}
	var f Fixture
	if err := json.Unmarshal(raw, &f); err != nil {
		return Fixture{}, fmt.Errorf("decode fixture: %w", err)
	}
	w := memberWalker{dec: json.NewDecoder(bytes.NewReader(raw)), fields: make(map[reflect.Type]map[string]reflect.Type)}
	if err := w.walk("", reflect.TypeFor[Fixture]()); err != nil {
		return Fixture{}, fmt.Errorf("decode fixture: %w", err)
	}
	f.Unknown = w.unknown
	return f, nil
}

// memberWalker finds the members of a fixture that its types do not decode. fields holds
// each struct's members, worked out once rather than for every response and event of a
// long history.
type memberWalker struct {
	dec     *json.Decoder
	fields  map[reflect.Type]map[string]reflect.Type
	unknown []string
}

// walk reads one JSON value from w.dec and appends to w.unknown the paths of the object members
// in it that a value of type t would not decode, following t's structs, slices and pointers
// down to the types that decode themselves (survey questions, answers, times) or are maps.
// It reads tokens rather than a decoded tree, so a fixture with a long history costs no
// memory beyond its decoded form.
func (w *memberWalker) walk(path string, t reflect.Type) error {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	tok, err := w.dec.Token()
	if err != nil {
		return err
	}
	delim, ok := tok.(json.Delim)
	if !ok {
		return nil // a scalar
	}
	walkable := !reflect.PointerTo(t).Implements(reflect.TypeFor[json.Unmarshaler]())
	switch {
	case delim == '[' && walkable && t.Kind() == reflect.Slice:
		for i := 0; w.dec.More(); i++ {
			if err := w.walk(fmt.Sprintf("%s[%d]", path, i), t.Elem()); err != nil {
				return err
			}
		}
	case delim == '{' && walkable && t.Kind() == reflect.Struct:
		if err := w.walkMembers(path, t); err != nil {
			return err
		}
	default: // a value t reads as a whole: skip to its end
		for depth := 1; depth > 1 || w.dec.More(); {
			tok, err := w.dec.Token()
			if err != nil {
				return err
			}
			switch tok {
			case json.Delim('{'), json.Delim('['):
				depth++
			case json.Delim('}'), json.Delim(']'):
				depth--
			}
		}
	}
	_, err = w.dec.Token() // the closing delimiter
	return err
}

// walkMembers walks the members of an object that decodes into the struct type t, up to its
// closing brace.
func (w *memberWalker) walkMembers(path string, t reflect.Type) error {
	fields, ok := w.fields[t]
	if !ok {
		fields = jsonFields(t)
		w.fields[t] = fields
	}
	for w.dec.More() {
		tok, err := w.dec.Token()
		if err != nil {
			return err
		}
		k, _ := tok.(string)
		name := k
		if path != "" {
			name = path + "." + k
		}
		ft, ok := fields[k]
		if !ok {
			// encoding/json matches member names without regard to case.
			for n, typ := range fields {
				if strings.EqualFold(n, k) {
					ft, ok = typ, true
					break
				}
			}
		}
		if !ok {
			w.unknown = append(w.unknown, name)
			ft = reflect.TypeFor[any]() // its value is skipped
		}
		if err := w.walk(name, ft); err != nil {
			return err
		}
	}
	return nil
}

// jsonFields maps the member names a struct decodes to their types, with the members of
// embedded structs inline, as encoding/json treats them.
func jsonFields(t reflect.Type) map[string]reflect.Type {
	fields := make(map[string]reflect.Type)
	for i := range t.NumField() {
		f := t.Field(i)
		tag, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		switch {
		case tag == "-" || (!f.IsExported() && !f.Anonymous):
		case f.Anonymous && tag == "" && f.Type.Kind() == reflect.Struct:
			maps.Copy(fields, jsonFields(f.Type))
		case tag != "":
			fields[tag] = f.Type
		default:
			fields[f.Name] = f.Type
		}
	}
	return fields
}

// Import writes a fixture into s: teams and keys that are missing, surveys that are missing or
// differ, and responses and events not imported before. now stamps the responses the fixture
// leaves undated; undated events take the survey's creation time. Imported responses schedule no webhook. Import stops at the first error, naming the
// record; what was written before it stays, and importing again after a fix completes it.
func Import(ctx context.Context, s Store, f Fixture, now time.Time) error {
	for _, ft := range f.Teams {
		if err := importTeam(ctx, s, ft, now); err != nil {
			return fmt.Errorf("import team %q: %w", ft.ID, err)
		}
	}
	return nil
}

func importTeam(ctx context.Context, s Store, ft FixtureTeam, now time.Time) error {
	if ft.ID == "" {
		return invalid("team id is required")
	}
	err := s.CreateTeam(ctx, Team{ID: ft.ID, Name: ft.Name, CreatedAt: now})
	if err != nil && !errors.Is(err, ErrConflict) {
		return err
	}
	for _, kk := range []struct {
		kind KeyKind
		keys []string
	}{{Publishable, ft.PublishableKeys}, {Secret, ft.SecretKeys}} {
		for _, plaintext := range kk.keys {
			if err := importKey(ctx, s, ft.ID, kk.kind, plaintext, now); err != nil {
				return err
			}
		}
	}
	for _, fs := range ft.Surveys {
		if err := importSurvey(ctx, s, ft.ID, fs, now); err != nil {
			return fmt.Errorf("survey %q: %w", fs.ID, err)
		}
	}
	return nil
}

func importKey(ctx context.Context, s Store, teamID string, kind KeyKind, plaintext string, now time.Time) error {
	if err := ValidateKey(kind, plaintext); err != nil {
		return err
	}
	err := s.AddKey(ctx, NewKey(teamID, kind, plaintext, now), plaintext)
	if !errors.Is(err, ErrConflict) {
		return err
	}
	k, lerr := s.LookupKey(ctx, plaintext)
	if lerr == nil && k.TeamID == teamID && k.Kind == kind {
		return nil // imported before
	}
	return fmt.Errorf("a %s key ending %q is already held by another team or was revoked: %w", kind, keyHint(plaintext), ErrConflict)
}

func importSurvey(ctx context.Context, s Store, teamID string, fs FixtureSurvey, now time.Time) error {
	fs.Definition.Normalize()
	want := Survey{
		ID: fs.ID, TeamID: teamID, Status: fs.Status, Definition: fs.Definition,
		WebhookURL: fs.WebhookURL, WebhookSecret: fs.WebhookSecret, WebhookWaitSeconds: fs.WebhookWaitSeconds, CreatedAt: now, UpdatedAt: now,
	}
	if want.Status == "" {
		want.Status = StatusActive
	}
	if fs.CreatedAt != nil {
		want.CreatedAt, want.UpdatedAt = *fs.CreatedAt, *fs.CreatedAt
	}
	have, err := s.Survey(ctx, teamID, fs.ID)
	switch {
	case errors.Is(err, ErrNotFound):
		err := s.CreateSurvey(ctx, want)
		switch {
		case errors.Is(err, ErrConflict):
			// Another import made it since the lookup, as replicas starting together with one
			// fixture do: it is this file's survey, so the import goes on with it.
			if have, err = s.Survey(ctx, teamID, fs.ID); err != nil {
				return fmt.Errorf("the survey id is taken: %w", errors.Join(ErrConflict, err))
			}
		case err != nil:
			return err
		default:
			have = want
		}
	case err != nil:
		return err
	case !sameSettings(have, want):
		want.CreatedAt, want.UpdatedAt = have.CreatedAt, now
		if err := s.UpdateSurvey(ctx, want); err != nil {
			return err
		}
		have = want
	}
	if err := importResponses(ctx, s, have, fs.Responses, now); err != nil {
		return err
	}
	return importEvents(ctx, s, have, fs.Events)
}

// importResponses writes a survey's imported responses, each validated against sv.
func importResponses(ctx context.Context, s Store, sv Survey, responses []FixtureResponse, now time.Time) error {
	for i, fr := range responses {
		if err := sv.Definition.ValidateAnswers(fr.Data); err != nil {
			return fmt.Errorf("responses[%d]: %w", i, &Error{Kind: ErrInvalid, Message: err.Error(), Err: err})
		}
		if fr.Metadata == nil {
			fr.Metadata = map[string]string{}
		}
		at := fr.CreatedAt
		if at.IsZero() {
			at = now
		}
		w := ResponseWrite{
			SurveyID: sv.ID, ID: CanonicalResponseID(fr.ID), Respondent: fr.Respondent, Data: fr.Data,
			Metadata: fr.Metadata, At: at, Imported: true,
		}
		if err := w.Validate(); err != nil {
			return fmt.Errorf("responses[%d]: %w", i, err)
		}
		if _, _, err := s.PutResponse(ctx, w); err != nil {
			return fmt.Errorf("responses[%d]: %w", i, err)
		}
	}
	return nil
}

// importEvents records a survey's imported views and dismissals.
func importEvents(ctx context.Context, s Store, sv Survey, events []FixtureEvent) error {
	for i, fe := range events {
		if fe.Type != EventView && fe.Type != EventDismiss {
			return fmt.Errorf("events[%d]: %w", i, invalid("type %q is not view or dismiss", fe.Type))
		}
		if err := ValidateRespondent(fe.Respondent); err != nil {
			return fmt.Errorf("events[%d]: %w", i, err)
		}
		at := fe.CreatedAt
		if at.IsZero() {
			// Unlike a response, an event has no id: its time is what makes importing it
			// again a no-op, so an undated one takes the survey's creation time, which every
			// import sees the same, rather than the time of the import.
			at = sv.CreatedAt
		}
		e := Event{SurveyID: sv.ID, Respondent: fe.Respondent, Type: fe.Type, At: at, Imported: true}
		if err := s.RecordEvent(ctx, e); err != nil {
			return fmt.Errorf("events[%d]: %w", i, err)
		}
	}
	return nil
}

// sameSettings reports whether two surveys have the same status, definition and webhook.
func sameSettings(a, b Survey) bool {
	if a.Status != b.Status || a.WebhookURL != b.WebhookURL || a.WebhookSecret != b.WebhookSecret || a.WebhookWaitSeconds != b.WebhookWaitSeconds {
		return false
	}
	ja, errA := json.Marshal(a.Definition)
	jb, errB := json.Marshal(b.Definition)
	return errA == nil && errB == nil && bytes.Equal(ja, jb)
}
