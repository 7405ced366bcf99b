-- A survey may hold a response's delivery until the response is finished or quiet.
ALTER TABLE surveys ADD COLUMN webhook_wait_seconds INTEGER NOT NULL DEFAULT 0;
