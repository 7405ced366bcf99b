-- Lifetime score counts, so a range covering most of a survey's history is read as the totals
-- minus the little outside it.
CREATE TABLE rating_totals (
    survey_id   TEXT NOT NULL,
    question_id TEXT NOT NULL,
    score       INTEGER NOT NULL,
    n           INTEGER NOT NULL,
    PRIMARY KEY (survey_id, question_id, score)
) WITHOUT ROWID;

INSERT INTO rating_totals (survey_id, question_id, score, n)
SELECT survey_id, question_id, score, SUM(n) FROM rating_days GROUP BY survey_id, question_id, score;
