-- Attempts since a delivery was created or last sent again: retries are scheduled in the outbox
-- one attempt at a time, and count against this, while attempts counts them over its life.
ALTER TABLE deliveries ADD COLUMN round_attempts INTEGER NOT NULL DEFAULT 0;
