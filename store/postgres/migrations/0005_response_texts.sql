-- Each response's short texts (store.SummaryTexts), which a summary reads without the rest of
-- the answers: a text beside a 10 MiB screenshot cost the screenshot, detoasted. The column is
-- read without touching data's TOAST.
ALTER TABLE responses ADD COLUMN IF NOT EXISTS texts text;
UPDATE responses SET texts = (
    SELECT jsonb_object_agg(key, CASE WHEN jsonb_typeof(value) = 'string' THEN to_jsonb(left(value #>> '{}', 500)) ELSE value END)
    FROM jsonb_each(data::jsonb) WHERE jsonb_typeof(value) IN ('string', 'array'))::text;
