-- The partial hours at the edges of a time range are now counted from the responses' stored
-- answers (json_extract), so writes no longer keep a row per rating.
DROP TABLE ratings;
