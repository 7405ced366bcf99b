-- Count changes not yet folded into the rating rollups: one row per batch of writes and survey,
-- encoded by store/internal/countlog. One instance at a time folds them into the rollups in
-- bulk; reads add the rows still here to what the rollups hold, in one snapshot. The writers
-- then never touch the rollups' rows, which several instances used to queue on.
CREATE TABLE IF NOT EXISTS count_log (
    seq       bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    survey_id text NOT NULL,
    changes   bytea NOT NULL
);
CREATE INDEX IF NOT EXISTS count_log_survey ON count_log (survey_id);
