-- Declared segments: counts kept per value of each segment a team declares (docs/api.md#segments).

-- The team's segments (a JSON array of strings; '' for none) and their generation, which each
-- change of them moves forward.
ALTER TABLE team_settings ADD COLUMN IF NOT EXISTS segments text NOT NULL DEFAULT '';
ALTER TABLE team_settings ADD COLUMN IF NOT EXISTS segments_gen bigint NOT NULL DEFAULT 0;

-- What a response was counted under in its team's segments: the generation (0: none) and the
-- bucket of each segment (store.EncodeMark).
ALTER TABLE responses ADD COLUMN IF NOT EXISTS seg_gen bigint NOT NULL DEFAULT 0;
ALTER TABLE responses ADD COLUMN IF NOT EXISTS seg_buckets text NOT NULL DEFAULT '';

-- The values a survey counts by name per segment of a generation: the first
-- store.MaxSegmentValues seen.
CREATE TABLE IF NOT EXISTS segment_values (
    survey_id text NOT NULL,
    gen       bigint NOT NULL,
    seg       integer NOT NULL,
    value     text NOT NULL,
    PRIMARY KEY (survey_id, gen, seg, value)
);

-- The fill of a survey's segment counts for a generation: how far it has read (the responses in
-- (created_at, id) order), how many it has visited, and whether it is complete. A filler holds
-- the survey's row locked while it works on it, so two instances never fill the same survey at
-- once.
CREATE TABLE IF NOT EXISTS segment_fill (
    survey_id text PRIMARY KEY,
    gen       bigint NOT NULL,
    after_at  bigint NOT NULL,
    after_id  text NOT NULL,
    visited   bigint NOT NULL,
    complete  boolean NOT NULL
);
