-- Times are Unix milliseconds, UTC.

CREATE TABLE teams (
    id         TEXT PRIMARY KEY,
    name       TEXT NOT NULL,
    created_at INTEGER NOT NULL
);

CREATE TABLE api_keys (
    id         TEXT PRIMARY KEY,
    team_id    TEXT NOT NULL REFERENCES teams(id),
    kind       TEXT NOT NULL CHECK (kind IN ('publishable', 'secret')),
    hash       BLOB NOT NULL UNIQUE,
    hint       TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    revoked_at INTEGER
);
CREATE INDEX api_keys_team ON api_keys(team_id, created_at);

CREATE TABLE surveys (
    id                     TEXT PRIMARY KEY,
    team_id                TEXT NOT NULL REFERENCES teams(id),
    status                 TEXT NOT NULL CHECK (status IN ('active', 'inactive', 'deleted')),
    definition             TEXT NOT NULL,
    webhook_url            TEXT NOT NULL DEFAULT '',
    webhook_secret         TEXT NOT NULL DEFAULT '',
    previous_secret        TEXT NOT NULL DEFAULT '',
    previous_secret_expiry INTEGER NOT NULL DEFAULT 0,
    created_at             INTEGER NOT NULL,
    updated_at             INTEGER NOT NULL
);
-- The protected list: a team's surveys that are not deleted, newest first.
CREATE INDEX surveys_team_list ON surveys(team_id, created_at DESC, id DESC) WHERE status <> 'deleted';

CREATE TABLE responses (
    survey_id  TEXT NOT NULL REFERENCES surveys(id),
    id         TEXT NOT NULL,
    respondent TEXT NOT NULL,
    data       TEXT NOT NULL,
    metadata   TEXT NOT NULL,
    telemetry  TEXT,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    PRIMARY KEY (survey_id, id)
);
-- Keyset pages, newest first, overall and per respondent.
CREATE INDEX responses_page ON responses(survey_id, created_at DESC, id DESC);
CREATE INDEX responses_respondent_page ON responses(survey_id, respondent, created_at DESC, id DESC);

CREATE TABLE events (
    seq        INTEGER PRIMARY KEY,
    survey_id  TEXT NOT NULL REFERENCES surveys(id),
    respondent TEXT NOT NULL,
    type       TEXT NOT NULL CHECK (type IN ('view', 'dismiss')),
    created_at INTEGER NOT NULL,
    imported   INTEGER NOT NULL DEFAULT 0
);
-- Importing the same history twice records each event once.
CREATE UNIQUE INDEX events_imported ON events(survey_id, respondent, type, created_at) WHERE imported = 1;

-- One row per (survey, respondent): the history endpoint, and the first-time test behind the
-- unique counters.
CREATE TABLE respondents (
    survey_id         TEXT NOT NULL,
    respondent        TEXT NOT NULL,
    last_responded_at INTEGER,
    last_viewed_at    INTEGER,
    last_dismissed_at INTEGER,
    PRIMARY KEY (survey_id, respondent)
) WITHOUT ROWID;

-- Lifetime counters, kept in the same transaction as the writes they count.
CREATE TABLE survey_stats (
    survey_id         TEXT PRIMARY KEY REFERENCES surveys(id),
    views             INTEGER NOT NULL DEFAULT 0,
    unique_viewers    INTEGER NOT NULL DEFAULT 0,
    dismissals        INTEGER NOT NULL DEFAULT 0,
    unique_dismissers INTEGER NOT NULL DEFAULT 0,
    responses         INTEGER NOT NULL DEFAULT 0,
    unique_responders INTEGER NOT NULL DEFAULT 0
) WITHOUT ROWID;

-- Each response's rating scores, for the partial days at the edges of a time range.
CREATE TABLE ratings (
    survey_id   TEXT NOT NULL,
    response_id TEXT NOT NULL,
    question_id TEXT NOT NULL,
    score       INTEGER NOT NULL,
    created_at  INTEGER NOT NULL,
    PRIMARY KEY (survey_id, response_id, question_id)
) WITHOUT ROWID;
CREATE INDEX ratings_time ON ratings(survey_id, question_id, created_at, score);

-- Scores per UTC day (days since the Unix epoch), for the whole days of a time range.
CREATE TABLE rating_days (
    survey_id   TEXT NOT NULL,
    question_id TEXT NOT NULL,
    day         INTEGER NOT NULL,
    score       INTEGER NOT NULL,
    n           INTEGER NOT NULL,
    PRIMARY KEY (survey_id, question_id, day, score)
) WITHOUT ROWID;

-- The webhook outbox and delivery log.
CREATE TABLE deliveries (
    id              TEXT PRIMARY KEY,
    survey_id       TEXT NOT NULL REFERENCES surveys(id),
    response_id     TEXT NOT NULL,
    state           TEXT NOT NULL CHECK (state IN ('pending', 'delivering', 'succeeded', 'failed')),
    attempts        INTEGER NOT NULL DEFAULT 0,
    next_attempt_at INTEGER NOT NULL,
    lease_until     INTEGER NOT NULL DEFAULT 0,
    last_status     INTEGER NOT NULL DEFAULT 0,
    last_error      TEXT NOT NULL DEFAULT '',
    created_at      INTEGER NOT NULL,
    updated_at      INTEGER NOT NULL,
    delivered_at    INTEGER
);
CREATE UNIQUE INDEX deliveries_response ON deliveries(survey_id, response_id);
CREATE INDEX deliveries_due ON deliveries(next_attempt_at) WHERE state IN ('pending', 'delivering');
CREATE INDEX deliveries_survey ON deliveries(survey_id, created_at DESC, id DESC);
