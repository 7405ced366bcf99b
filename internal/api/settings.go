package api

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/svc-feedback/svc/store"
)

// The team's settings and what its backend tells svc about people, for targeting
// (docs/api.md#display-rules): the cooldown, stored attributes and prompts. Each needs a
// store.Targeter.

// targeter returns the handler's store as a store.Targeter, or the error that says it has none.
func (h *Handler) targeter() (store.Targeter, error) {
	tg, ok := h.store.(store.Targeter)
	if !ok {
		return nil, &Error{Status: http.StatusNotImplemented, Code: CodeNotImplemented,
			Message: "this server's store keeps no targeting (store.Targeter)"}
	}
	return tg, nil
}

// settingsBody is the settings as the API shows them.
type settingsBody struct {
	CooldownDays int      `json:"cooldownDays"`
	Segments     []string `json:"segments"`
	// SegmentsFill is the progress of the count of the responses stored before the segments
	// last changed (docs/api.md#segments).
	SegmentsFill segmentsFillBody `json:"segmentsFill"`
}

type segmentsFillBody struct {
	State string `json:"state"`
	Done  int64  `json:"done"`
	Total int64  `json:"total"`
}

// settingsETag is a version of a team's settings.
func settingsETag(st store.TeamSettings) string {
	sum := sha256.Sum256([]byte(strconv.Itoa(st.CooldownDays) + "/" + strconv.FormatInt(st.UpdatedAt.UnixNano(), 10)))
	return `"` + hex.EncodeToString(sum[:12]) + `"`
}

// writeSettings writes a team's settings with the progress of its segments' fill, and has a
// fill not complete run (again, after a restart say).
func (h *Handler) writeSettings(w http.ResponseWriter, r *http.Request, teamID string, st store.TeamSettings) error {
	body := settingsBody{CooldownDays: st.CooldownDays, Segments: st.Segments, SegmentsFill: segmentsFillBody{State: store.FillNone}}
	if body.Segments == nil {
		body.Segments = []string{}
	}
	if sc, ok := h.store.(store.SegmentCounter); ok {
		p, err := sc.SegmentsProgress(r.Context(), teamID)
		if err != nil {
			return err
		}
		body.SegmentsFill = segmentsFillBody{p.State, p.Done, p.Total}
		if p.State == store.FillFilling && h.opts.OnSegmentsChanged != nil {
			h.opts.OnSegmentsChanged(teamID)
		}
	}
	w.Header().Set("ETag", settingsETag(st))
	h.writeJSON(w, http.StatusOK, body)
	return nil
}

// handleSettingsGet serves "GET /v1/protected/settings".
func (h *Handler) handleSettingsGet(w http.ResponseWriter, r *http.Request, teamID string) error {
	tg, err := h.targeter()
	if err != nil {
		return err
	}
	st, err := tg.Settings(r.Context(), teamID)
	if err != nil {
		return err
	}
	return h.writeSettings(w, r, teamID, st)
}

// settingsPatch is what a PATCH of the settings changes: nil members are left as they are.
type settingsPatch struct {
	cooldown *int
	segments *[]string
}

// handleSettingsPatch serves "PATCH /v1/protected/settings": a JSON merge patch, If-Match
// honoured against the settings as stored.
func (h *Handler) handleSettingsPatch(w http.ResponseWriter, r *http.Request, teamID string) error {
	tg, err := h.targeter()
	if err != nil {
		return err
	}
	body, err := readBody(w, r, 16<<10)
	if err != nil {
		return err
	}
	patch, err := readSettingsPatch(body)
	if err != nil {
		return err
	}
	if _, ok := h.store.(store.SegmentCounter); !ok && patch.segments != nil && len(*patch.segments) > 0 {
		return &Error{Status: http.StatusNotImplemented, Code: CodeNotImplemented,
			Message: "this server's store keeps no segment counts (store.SegmentCounter)"}
	}
	st, err := tg.ModifySettings(r.Context(), teamID, func(st *store.TeamSettings) error {
		if match := headerValue(r.Header, "If-Match"); match != "" && !ifMatchHolds(match, settingsETag(*st)) {
			return &Error{Status: http.StatusPreconditionFailed, Code: CodePrecondition,
				Message: "the settings changed since their ETag was read (If-Match does not match): read them again"}
		}
		if patch.cooldown != nil {
			st.CooldownDays = *patch.cooldown
		}
		if patch.segments != nil {
			st.Segments = *patch.segments
		}
		return nil
	})
	if err != nil {
		return err
	}
	h.dropRules(teamID)
	return h.writeSettings(w, r, teamID, st)
}

// readSettingsPatch reads a PATCH body of the settings: cooldownDays, and segments (an array
// of strings, or null for none), checked whole (store.ValidateSegments).
func readSettingsPatch(body []byte) (settingsPatch, error) {
	var p settingsPatch
	jr := newJSONReader(body)
	err := jr.body(8, func(name string) error {
		switch name {
		case "cooldownDays":
			n, err := jr.wholeNumber("cooldownDays", "a whole number of days", 0, store.MaxCooldownDays)
			p.cooldown = &n
			return err
		case "segments":
			segments, err := jr.segments()
			p.segments = &segments
			return err
		}
		if err := exactName(name, "cooldownDays", "segments"); err != nil {
			return err
		}
		return unknownMember(name, "the settings have cooldownDays and segments")
	})
	if err != nil {
		return settingsPatch{}, err
	}
	if p.segments != nil {
		if err := store.ValidateSegments(*p.segments); err != nil {
			return settingsPatch{}, badRequest(strings.TrimPrefix(err.Error(), store.ErrInvalid.Error()+": "))
		}
	}
	return p, nil
}

// segments reads the segments member: an array of strings (at most one more than
// store.MaxSegments is read before the body is refused), or null for none.
func (jr *jsonReader) segments() ([]string, error) {
	t, err := jr.token()
	if err != nil {
		return nil, err
	}
	switch t.Kind() {
	case 'n':
		return []string{}, nil
	case '[':
	default:
		return nil, badRequest(fmt.Sprintf("segments must be an array of strings, not %s", tokenKind(t)))
	}
	segments := []string{}
	for jr.more() {
		if len(segments) == store.MaxSegments {
			return nil, badRequest(fmt.Sprintf("segments: at most %d segments", store.MaxSegments))
		}
		t, err := jr.token()
		if err != nil {
			return nil, err
		}
		if t.Kind() != '"' {
			return nil, badRequest(fmt.Sprintf("segments[%d] must be a string, not %s", len(segments), tokenKind(t)))
		}
		segments = append(segments, t.String())
	}
	if _, err := jr.token(); err != nil { // the closing bracket
		return nil, err
	}
	return segments, nil
}
