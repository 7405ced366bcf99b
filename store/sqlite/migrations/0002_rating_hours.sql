-- Scores per UTC hour (hours since the Unix epoch), so a time range's partial days are read
-- from hourly counts and only its partial hours from individual ratings.
CREATE TABLE rating_hours (
    survey_id   TEXT NOT NULL,
    question_id TEXT NOT NULL,
    hour        INTEGER NOT NULL,
    score       INTEGER NOT NULL,
    n           INTEGER NOT NULL,
    PRIMARY KEY (survey_id, question_id, hour, score)
) WITHOUT ROWID;

INSERT INTO rating_hours (survey_id, question_id, hour, score, n)
SELECT survey_id, question_id, created_at / 3600000, score, COUNT(*)
FROM ratings GROUP BY survey_id, question_id, created_at / 3600000, score;
