-- What targeting needs (docs/api.md#display-rules).

-- A person's views of each survey, counted by the writes from here on, and counted now from the
-- events for what came before, in one pass.
ALTER TABLE respondents ADD COLUMN IF NOT EXISTS views integer NOT NULL DEFAULT 0;
UPDATE respondents AS r SET views = v.n
FROM (SELECT survey_id, respondent, COUNT(*) AS n FROM events WHERE type = 'view' GROUP BY 1, 2) AS v
WHERE v.survey_id = r.survey_id AND v.respondent = r.respondent;
-- A person's rows of every survey, read at once for a decision.
CREATE INDEX IF NOT EXISTS respondents_person ON respondents (respondent, survey_id);

CREATE TABLE IF NOT EXISTS team_settings (
    team_id       text PRIMARY KEY REFERENCES teams(id),
    cooldown_days integer NOT NULL DEFAULT 0,
    updated_at    bigint NOT NULL
);

CREATE TABLE IF NOT EXISTS person_attributes (
    team_id    text NOT NULL,
    respondent text NOT NULL,
    attributes jsonb NOT NULL,
    PRIMARY KEY (team_id, respondent)
);

CREATE TABLE IF NOT EXISTS prompts (
    id         text PRIMARY KEY,
    team_id    text NOT NULL,
    survey_id  text NOT NULL REFERENCES surveys(id),
    respondent text NOT NULL,
    created_at bigint NOT NULL,
    expires_at bigint
);
CREATE INDEX IF NOT EXISTS prompts_person ON prompts (team_id, respondent);
CREATE INDEX IF NOT EXISTS prompts_survey ON prompts (survey_id, respondent);
