-- svc's schema on PostgreSQL. Times are Unix milliseconds (bigint), as in the SQLite store, so
-- both keep exactly the same instants. Answers and metadata are kept as the JSON text they were
-- stored as, so lists splice them unchanged.
CREATE TABLE teams (
    id         text PRIMARY KEY,
    name       text NOT NULL,
    created_at bigint NOT NULL
);

CREATE TABLE api_keys (
    id         text PRIMARY KEY,
    team_id    text NOT NULL REFERENCES teams(id),
    kind       text NOT NULL CHECK (kind IN ('publishable', 'secret')),
    hash       bytea NOT NULL UNIQUE,
    hint       text NOT NULL,
    created_at bigint NOT NULL,
    revoked_at bigint
);
CREATE INDEX api_keys_team ON api_keys (team_id, created_at, id);

CREATE TABLE surveys (
    id                     text PRIMARY KEY,
    team_id                text NOT NULL REFERENCES teams(id),
    status                 text NOT NULL,
    definition             text NOT NULL,
    webhook_url            text NOT NULL DEFAULT '',
    webhook_secret         text NOT NULL DEFAULT '',
    previous_secret        text NOT NULL DEFAULT '',
    previous_secret_expiry bigint NOT NULL DEFAULT 0,
    created_at             bigint NOT NULL,
    updated_at             bigint NOT NULL
);
CREATE INDEX surveys_team ON surveys (team_id, created_at DESC, id DESC) WHERE status <> 'deleted';

CREATE TABLE responses (
    survey_id  text NOT NULL REFERENCES surveys(id),
    id         text NOT NULL,
    respondent text NOT NULL,
    data       text NOT NULL,
    metadata   text NOT NULL,
    telemetry  text,
    finished   boolean NOT NULL DEFAULT false,
    created_at bigint NOT NULL,
    updated_at bigint NOT NULL,
    PRIMARY KEY (survey_id, id)
);
CREATE INDEX responses_created ON responses (survey_id, created_at DESC, id DESC);
CREATE INDEX responses_respondent ON responses (survey_id, respondent, created_at DESC, id DESC);

-- Who ever responded, viewed or dismissed: a row's insert (ON CONFLICT DO NOTHING) tells a
-- first time, once, however many writes race, so the unique counters stay exact.
CREATE TABLE responders (survey_id text NOT NULL, respondent text NOT NULL, PRIMARY KEY (survey_id, respondent));
CREATE TABLE viewers (LIKE responders INCLUDING ALL);
CREATE TABLE dismissers (LIKE responders INCLUDING ALL);

-- A respondent's latest interactions.
CREATE TABLE respondents (
    survey_id         text NOT NULL REFERENCES surveys(id),
    respondent        text NOT NULL,
    last_responded_at bigint,
    last_viewed_at    bigint,
    last_dismissed_at bigint,
    PRIMARY KEY (survey_id, respondent)
);

CREATE TABLE events (
    survey_id  text NOT NULL REFERENCES surveys(id),
    respondent text NOT NULL,
    type       text NOT NULL CHECK (type IN ('view', 'dismiss')),
    created_at bigint NOT NULL,
    imported   boolean NOT NULL DEFAULT false
);
CREATE UNIQUE INDEX events_imported ON events (survey_id, respondent, type, created_at) WHERE imported;

-- A survey's counters, spread over a few rows per survey that writes pick at random, so
-- concurrent writes to one survey do not all wait for one row; Stats sums them.
CREATE TABLE survey_stats (
    survey_id         text NOT NULL REFERENCES surveys(id),
    shard             smallint NOT NULL,
    views             bigint NOT NULL DEFAULT 0,
    unique_viewers    bigint NOT NULL DEFAULT 0,
    dismissals        bigint NOT NULL DEFAULT 0,
    unique_dismissers bigint NOT NULL DEFAULT 0,
    responses         bigint NOT NULL DEFAULT 0,
    unique_responders bigint NOT NULL DEFAULT 0,
    finished          bigint NOT NULL DEFAULT 0,
    PRIMARY KEY (survey_id, shard)
);

CREATE TABLE deliveries (
    id              text PRIMARY KEY,
    survey_id       text NOT NULL REFERENCES surveys(id),
    response_id     text NOT NULL,
    state           text NOT NULL CHECK (state IN ('pending', 'delivering', 'succeeded', 'failed')),
    attempts        integer NOT NULL DEFAULT 0,
    round_attempts  integer NOT NULL DEFAULT 0,
    next_attempt_at bigint NOT NULL,
    lease_until     bigint NOT NULL DEFAULT 0,
    last_status     integer NOT NULL DEFAULT 0,
    last_error      text NOT NULL DEFAULT '',
    created_at      bigint NOT NULL,
    updated_at      bigint NOT NULL,
    delivered_at    bigint,
    UNIQUE (survey_id, response_id)
);
CREATE INDEX deliveries_due ON deliveries (next_attempt_at) WHERE state IN ('pending', 'delivering');
CREATE INDEX deliveries_survey ON deliveries (survey_id, created_at DESC, id DESC);

-- Rating counts kept on write, so a score distribution reads whole days, hours and minutes
-- rather than every response of its range (store/internal/rollup). Like the counters, each is
-- spread over a few rows picked at random by each write: a burst of the same score in one
-- minute does not queue on one row. Buckets are days, hours and minutes since the Unix epoch.
CREATE TABLE rating_totals (
    survey_id   text NOT NULL,
    question_id text NOT NULL,
    score       integer NOT NULL,
    shard       smallint NOT NULL,
    n           bigint NOT NULL,
    PRIMARY KEY (survey_id, question_id, score, shard)
);
CREATE TABLE rating_days (
    survey_id   text NOT NULL,
    question_id text NOT NULL,
    bucket      bigint NOT NULL,
    score       integer NOT NULL,
    shard       smallint NOT NULL,
    n           bigint NOT NULL,
    PRIMARY KEY (survey_id, question_id, bucket, score, shard)
);
CREATE TABLE rating_hours (LIKE rating_days INCLUDING ALL);
CREATE TABLE rating_minutes (LIKE rating_days INCLUDING ALL);
