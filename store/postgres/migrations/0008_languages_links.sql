-- Translated surveys and link surveys (docs/languages-and-links.md).

-- The language a response was given in; '' when the writer did not say.
ALTER TABLE responses ADD COLUMN IF NOT EXISTS language text NOT NULL DEFAULT '';

-- A team's secret for signing links to its surveys, and the one it replaced, valid until
-- previous_expires_at (Unix milliseconds).
CREATE TABLE IF NOT EXISTS link_secrets (
    team_id             text PRIMARY KEY REFERENCES teams(id),
    secret              text NOT NULL,
    previous_secret     text NOT NULL DEFAULT '',
    previous_expires_at bigint NOT NULL DEFAULT 0
);
