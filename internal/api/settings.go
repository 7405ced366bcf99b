package api

import (
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"strconv"

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
	CooldownDays int `json:"cooldownDays"`
}

// settingsETag is a version of a team's settings.
func settingsETag(st store.TeamSettings) string {
	sum := sha256.Sum256([]byte(strconv.Itoa(st.CooldownDays) + "/" + strconv.FormatInt(st.UpdatedAt.UnixNano(), 10)))
	return `"` + hex.EncodeToString(sum[:12]) + `"`
}

func (h *Handler) writeSettings(w http.ResponseWriter, st store.TeamSettings) {
	w.Header().Set("ETag", settingsETag(st))
	h.writeJSON(w, http.StatusOK, settingsBody{st.CooldownDays})
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
	h.writeSettings(w, st)
	return nil
}

// handleSettingsPatch serves "PATCH /v1/protected/settings": a JSON merge patch, If-Match
// honoured against the settings as stored.
func (h *Handler) handleSettingsPatch(w http.ResponseWriter, r *http.Request, teamID string) error {
	tg, err := h.targeter()
	if err != nil {
		return err
	}
	body, err := readBody(w, r, 4096)
	if err != nil {
		return err
	}
	var cooldown *int
	jr := newJSONReader(body)
	err = jr.body(8, func(name string) error {
		if name != "cooldownDays" {
			if err := exactName(name, "cooldownDays"); err != nil {
				return err
			}
			return unknownMember(name, "the settings have cooldownDays")
		}
		n, err := jr.wholeNumber("cooldownDays", "a whole number of days", 0, store.MaxCooldownDays)
		if err != nil {
			return err
		}
		cooldown = &n
		return nil
	})
	if err != nil {
		return err
	}
	st, err := tg.ModifySettings(r.Context(), teamID, func(st *store.TeamSettings) error {
		if match := headerValue(r.Header, "If-Match"); match != "" && !ifMatchHolds(match, settingsETag(*st)) {
			return &Error{Status: http.StatusPreconditionFailed, Code: CodePrecondition,
				Message: "the settings changed since their ETag was read (If-Match does not match): read them again"}
		}
		if cooldown != nil {
			st.CooldownDays = *cooldown
		}
		return nil
	})
	if err != nil {
		return err
	}
	h.dropRules(teamID)
	h.writeSettings(w, st)
	return nil
}
