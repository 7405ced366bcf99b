-- Scores per UTC minute (minutes since the Unix epoch), so a time range's partial hours are read
-- from counts too and only its partial minutes from the responses' stored answers: the cost of
-- a score distribution then stays flat however many responses an hour holds.
CREATE TABLE rating_minutes (
    survey_id   TEXT NOT NULL,
    question_id TEXT NOT NULL,
    minute      INTEGER NOT NULL,
    score       INTEGER NOT NULL,
    n           INTEGER NOT NULL,
    PRIMARY KEY (survey_id, question_id, minute, score)
) WITHOUT ROWID;

-- The rating questions are those with lifetime totals; their scores are the integers stored
-- under their ids (the JSON path quotes the id as the store does). The minute is a floor
-- division, right for times before 1970 too.
INSERT INTO rating_minutes (survey_id, question_id, minute, score, n)
SELECT r.survey_id, q.question_id,
       (r.created_at - ((r.created_at % 60000) + 60000) % 60000) / 60000,
       json_extract(r.data, q.path), COUNT(*)
FROM (SELECT DISTINCT survey_id, question_id,
             '$."' || replace(replace(question_id, '\', '\\'), '"', '\"') || '"' AS path
      FROM rating_totals) AS q
JOIN responses AS r ON r.survey_id = q.survey_id
WHERE json_type(r.data, q.path) = 'integer'
GROUP BY 1, 2, 3, 4;
