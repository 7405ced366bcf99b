-- A response the respondent finished (the widget's PUT of the last answer says so), and the
-- count of finished responses among a survey's counters.
ALTER TABLE responses ADD COLUMN finished INTEGER NOT NULL DEFAULT 0;
ALTER TABLE survey_stats ADD COLUMN finished INTEGER NOT NULL DEFAULT 0;
