-- Declared segments: counts kept per value of each segment a team declares (docs/api.md#segments).

-- The team's segments (a JSON array of strings; '' for none) and their generation, which each
-- change of them moves forward.
ALTER TABLE team_settings ADD COLUMN segments TEXT NOT NULL DEFAULT '';
ALTER TABLE team_settings ADD COLUMN segments_gen INTEGER NOT NULL DEFAULT 0;

-- What a response was counted under in its team's segments: the generation (0: none) and the
-- bucket of each segment (store.EncodeMark).
ALTER TABLE responses ADD COLUMN seg_gen INTEGER NOT NULL DEFAULT 0;
ALTER TABLE responses ADD COLUMN seg_buckets TEXT NOT NULL DEFAULT '';

-- The values a survey counts by name per segment of a generation: the first
-- store.MaxSegmentValues seen.
CREATE TABLE segment_values (
    survey_id TEXT NOT NULL,
    gen       INTEGER NOT NULL,
    seg       INTEGER NOT NULL,
    value     TEXT NOT NULL,
    PRIMARY KEY (survey_id, gen, seg, value)
) WITHOUT ROWID;

-- The fill of a survey's segment counts for a generation: how far it has read (the responses in
-- (created_at, id) order), how many it has visited, and whether it is complete.
CREATE TABLE segment_fill (
    survey_id TEXT PRIMARY KEY,
    gen       INTEGER NOT NULL,
    after_at  INTEGER NOT NULL,
    after_id  TEXT NOT NULL,
    visited   INTEGER NOT NULL,
    complete  INTEGER NOT NULL
);
