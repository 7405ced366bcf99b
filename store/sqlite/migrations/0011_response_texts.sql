-- Each response's short texts (store.SummaryTexts), which a summary reads without the rest of
-- the answers: a text beside a 10 MiB screenshot cost the screenshot. The page index holds
-- them, so reading them touches neither the row nor its overflow pages.
ALTER TABLE responses ADD COLUMN texts TEXT;
UPDATE responses SET texts = NULLIF((
    SELECT json_group_object(key, CASE type WHEN 'array' THEN json(value) ELSE substr(value, 1, 500) END)
    FROM json_each(responses.data) WHERE type IN ('text', 'array')), '{}');
DROP INDEX responses_page;
CREATE INDEX responses_page ON responses(survey_id, created_at DESC, id DESC, texts);
