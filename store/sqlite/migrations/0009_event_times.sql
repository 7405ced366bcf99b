-- Events by time: the summary's event counts read less than a minute of them at a range's edge.
CREATE INDEX events_created ON events(survey_id, created_at);
