-- 工作台's live figures (issue 34): readings per minute, the failed deliveries and the pending alarms,
-- without a count over the telemetry history, the outbox or the alarm history.
--
-- telemetry_minute counts the readings stored, per tenant, organisation and minute of storing (the
-- platform's clock: a device sending a backlog of old readings is counted when they arrive), kept by
-- a statement trigger with a transition table on device_telemetry (allowed on a partitioned table's
-- statement-level trigger; it sees the rows of every partition). Each database connection adds to a
-- row of its own (`shard`, its backend's pid): a connection runs one transaction at a time, so two
-- ingest transactions never wait for each other on this table. An hour of minutes is kept; each
-- statement removes older rows that no one else is removing (SKIP LOCKED), so pruning never waits
-- either. The figure reads the few rows of the last minutes of its scope.
CREATE TABLE telemetry_minute (
  tenant_code text NOT NULL,
  organization_code text NOT NULL,
  minute timestamptz NOT NULL,
  shard integer NOT NULL,
  readings integer NOT NULL,
  PRIMARY KEY (tenant_code, minute, organization_code, shard)
);
CREATE INDEX telemetry_minute_minute_idx ON telemetry_minute (minute);

CREATE FUNCTION telemetry_minute_follow() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO telemetry_minute AS m (tenant_code, organization_code, minute, shard, readings)
  SELECT d.tenant_code, d.organization_code, date_trunc('minute', now()), pg_backend_pid(), count(*)::int
    FROM added a JOIN device d ON d.id = a.device_id
   GROUP BY 1, 2 ORDER BY 1, 2
  ON CONFLICT (tenant_code, minute, organization_code, shard) DO UPDATE SET readings = m.readings + EXCLUDED.readings;
  DELETE FROM telemetry_minute m
   WHERE (m.tenant_code, m.minute, m.organization_code, m.shard) IN (
     SELECT o.tenant_code, o.minute, o.organization_code, o.shard FROM telemetry_minute o
      WHERE o.minute < date_trunc('minute', now()) - interval '1 hour'
      LIMIT 1000 FOR UPDATE SKIP LOCKED);
  RETURN NULL;
END
$$;

CREATE TRIGGER telemetry_minute_insert AFTER INSERT ON device_telemetry REFERENCING NEW TABLE AS added
  FOR EACH STATEMENT EXECUTE FUNCTION telemetry_minute_follow();
-- The seed reset restores tables in replica mode: readings it puts back are not counted again, as
-- they arrived long ago (the trigger stays an ordinary one).

-- 投递失败: the channel messages given up after their last attempt (投递日志's 状态 = 投递失败), by tenant.
CREATE INDEX outbox_failed_idx ON outbox (tenant_code) WHERE delivery_state = 'failed' AND code = '';

-- 待处理告警 by level (告警记录's 告警状态 = 待处理): the open alarms alone, however long the history.
CREATE INDEX alarm_record_pending_level_idx ON alarm_record (tenant_code, source, level) INCLUDE (organization_code) WHERE state = 'pending';
