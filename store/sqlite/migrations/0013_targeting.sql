-- What targeting needs (docs/api.md#display-rules).

-- A person's views of each survey, counted by the writes from here on, and counted now from the
-- events for what came before.
ALTER TABLE respondents ADD COLUMN views INTEGER NOT NULL DEFAULT 0;
-- Counted in one pass over the events (a count per respondents row would read each survey's
-- events once per respondent).
CREATE TEMP TABLE view_counts (
    survey_id  TEXT NOT NULL,
    respondent TEXT NOT NULL,
    n          INTEGER NOT NULL,
    PRIMARY KEY (survey_id, respondent)
) WITHOUT ROWID;
INSERT INTO view_counts SELECT survey_id, respondent, COUNT(*) FROM events WHERE type = 'view' GROUP BY 1, 2;
UPDATE respondents SET views = v.n FROM view_counts AS v
WHERE v.survey_id = respondents.survey_id AND v.respondent = respondents.respondent;
DROP TABLE view_counts;
-- A person's rows of every survey, read at once for a decision (and for the team's cooldown,
-- their last view of any survey). The entry is written when a person first meets a survey, not
-- on each later view.
CREATE INDEX respondents_person ON respondents(respondent, survey_id);

-- A team's settings; a team without a row has the defaults.
CREATE TABLE team_settings (
    team_id       TEXT PRIMARY KEY REFERENCES teams(id),
    cooldown_days INTEGER NOT NULL DEFAULT 0,
    updated_at    INTEGER NOT NULL
);

-- The attributes a team's backend stores for a person (a JSON object).
CREATE TABLE person_attributes (
    team_id    TEXT NOT NULL,
    respondent TEXT NOT NULL,
    attributes TEXT NOT NULL,
    PRIMARY KEY (team_id, respondent)
) WITHOUT ROWID;

-- Prompts not yet used up.
CREATE TABLE prompts (
    id         TEXT PRIMARY KEY,
    team_id    TEXT NOT NULL,
    survey_id  TEXT NOT NULL REFERENCES surveys(id),
    respondent TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    expires_at INTEGER
);
CREATE INDEX prompts_person ON prompts(team_id, respondent);
CREATE INDEX prompts_survey ON prompts(survey_id, respondent);
