-- The telemetry history partitioned by time (issue 22): a year of readings of 100,000 devices is
-- billions of rows, kept as one partition per calendar month (UTC) so that a query of a time range
-- reads only its months and the retention (TELEMETRY_RETENTION_DAYS) drops a whole old month at once
-- instead of deleting rows. The table keeps its name and columns: everything that reads or writes
-- device_telemetry is unchanged. The server creates the months ahead and drops the old ones
-- (server/ingest/telemetryPartitions.ts, with the two functions below); a reading of a month that
-- has no partition yet lands in device_telemetry_default, and moves into its month's partition when
-- that one is created, so an insert never fails for want of a partition.

ALTER TABLE device_telemetry RENAME TO device_telemetry_before_108;
ALTER INDEX device_telemetry_pkey RENAME TO device_telemetry_before_108_pkey;

CREATE TABLE device_telemetry (
  device_id integer NOT NULL REFERENCES device (id) ON DELETE CASCADE,
  reported_at timestamptz NOT NULL,
  metrics jsonb NOT NULL DEFAULT '{}'::jsonb,
  battery_level smallint CHECK (battery_level BETWEEN 0 AND 100),
  signal_strength smallint CHECK (signal_strength BETWEEN 0 AND 31),
  temperature numeric(5, 1),
  PRIMARY KEY (device_id, reported_at)
) PARTITION BY RANGE (reported_at);

CREATE TABLE device_telemetry_default PARTITION OF device_telemetry DEFAULT;

-- The partition of the UTC month holding `at` (device_telemetry_pYYYYMM), created unless it exists;
-- the rows of that month waiting in the default partition move into it. Answers the partition's
-- name when it created it, NULL when it was there. Several instances take turns (an advisory lock).
CREATE FUNCTION device_telemetry_ensure_month(at timestamptz) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  low timestamptz := date_trunc('month', at AT TIME ZONE 'UTC') AT TIME ZONE 'UTC';
  high timestamptz := (date_trunc('month', at AT TIME ZONE 'UTC') + interval '1 month') AT TIME ZONE 'UTC';
  part text := 'device_telemetry_p' || to_char(at AT TIME ZONE 'UTC', 'YYYYMM');
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext('device_telemetry_partitions'));
  IF to_regclass(part) IS NOT NULL THEN
    RETURN NULL;
  END IF;
  EXECUTE format('CREATE TABLE %I (LIKE device_telemetry INCLUDING DEFAULTS INCLUDING CONSTRAINTS)', part);
  EXECUTE format('WITH moved AS (DELETE FROM device_telemetry_default WHERE reported_at >= %L AND reported_at < %L RETURNING *) INSERT INTO %I SELECT * FROM moved', low, high, part);
  -- Attaching builds the partition's primary key and foreign key from the parent's.
  EXECUTE format('ALTER TABLE device_telemetry ATTACH PARTITION %I FOR VALUES FROM (%L) TO (%L)', part, low, high);
  RETURN part;
END
$$;

-- Drops every monthly partition whose whole month is before `cutoff`, and deletes what the default
-- partition holds from before it; answers the partitions dropped.
CREATE FUNCTION device_telemetry_drop_before(cutoff timestamptz) RETURNS SETOF text LANGUAGE plpgsql AS $$
DECLARE
  part text;
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext('device_telemetry_partitions'));
  FOR part IN
    SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
     WHERE i.inhparent = 'device_telemetry'::regclass AND c.relname ~ '^device_telemetry_p[0-9]{6}$'
       AND (to_date(substr(c.relname, 19), 'YYYYMM')::timestamp AT TIME ZONE 'UTC') + interval '1 month' <= cutoff
     ORDER BY c.relname
  LOOP
    EXECUTE format('DROP TABLE %I', part);
    RETURN NEXT part;
  END LOOP;
  DELETE FROM device_telemetry_default WHERE reported_at < cutoff;
END
$$;

-- The months of the rows there are, and the month before, this one and the next two.
SELECT device_telemetry_ensure_month(month)
  FROM (SELECT DISTINCT date_trunc('month', reported_at AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' AS month FROM device_telemetry_before_108
        UNION SELECT now() + k * interval '1 month' FROM generate_series(-1, 2) AS k) AS months
 ORDER BY month;

INSERT INTO device_telemetry (device_id, reported_at, metrics, battery_level, signal_strength, temperature)
SELECT device_id, reported_at, metrics, battery_level, signal_strength, temperature FROM device_telemetry_before_108;

DROP TABLE device_telemetry_before_108;
