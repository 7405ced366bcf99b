-- Translated surveys and link surveys (docs/languages-and-links.md).

-- The language a response was given in; '' when the writer did not say.
ALTER TABLE responses ADD COLUMN language TEXT NOT NULL DEFAULT '';

-- A team's secret for signing links to its surveys, and the one it replaced, valid until
-- previous_expires_at (Unix milliseconds).
CREATE TABLE link_secrets (
    team_id             TEXT PRIMARY KEY REFERENCES teams(id),
    secret              TEXT NOT NULL,
    previous_secret     TEXT NOT NULL DEFAULT '',
    previous_expires_at INTEGER NOT NULL DEFAULT 0
);
