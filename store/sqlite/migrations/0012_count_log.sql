-- Count changes not yet folded into the rating rollups: one row per batch of writes and survey,
-- encoded by store/internal/countlog. The writer folds them into the rollups in bulk; reads add
-- the rows still here to what the rollups hold.
CREATE TABLE count_log (
    seq       INTEGER PRIMARY KEY,
    survey_id TEXT NOT NULL,
    changes   BLOB NOT NULL
);
