-- The fleet's figures, one definition each (issue 34): 工作台, 设备看板, 品牌统计 and the big screen
-- counted the same devices three ways (online over all devices, over the activated ones, offline
-- read from the offline alarms still open), so the boards disagreed with each other and with the
-- lists. device_tally (migration 092) now holds every figure the boards show, per product and
-- organisation, of the live devices (deleted_at IS NULL, as the lists):
--   online / offline / inactive   online_state, as the device lists filter it (在线状态)
--   faulty                        health_state = 'faulty' (健康状态: 故障)
--   sleeping                      sleeping (休眠设备)
--   low_battery                   a battery-powered product's device at 0 < battery_level < 20, 电池管理's
--                                 低电量 (LOW_BATTERY_PERCENT in server/operations/devices/fleetRecords.ts;
--                                 0 is 已耗尽)
-- and device_state_day keeps, per product, organisation and business day, the tally's devices and
-- online states as the day's last change left them: the history (设备看板's 历史态势) is that row of
-- each day, carried forward over days without a change, and today is the tally itself, so the
-- history ends where the cards above it stand. Days are the session's (every connection is pinned
-- to the business time zone). A product and organisation's row of a day is written by the
-- transaction that changed its tally row, under that row's lock: two transactions never write one
-- day's row from two different counts, and nothing waits that did not wait on the tally already.

ALTER TABLE device_tally
  ADD COLUMN offline integer NOT NULL DEFAULT 0,
  ADD COLUMN inactive integer NOT NULL DEFAULT 0,
  ADD COLUMN faulty integer NOT NULL DEFAULT 0,
  ADD COLUMN sleeping integer NOT NULL DEFAULT 0,
  ADD COLUMN low_battery integer NOT NULL DEFAULT 0;

CREATE TABLE device_state_day (
  tenant_code text NOT NULL,
  organization_code text NOT NULL,
  product_code text NOT NULL,
  day date NOT NULL,
  devices integer NOT NULL,
  online integer NOT NULL,
  offline integer NOT NULL,
  inactive integer NOT NULL,
  PRIMARY KEY (tenant_code, organization_code, product_code, day)
);

-- What one statement changes in one row of the tally: its key and the change of each figure.
CREATE TYPE device_tally_move AS (
  product_code text, tenant_code text, organization_code text,
  devices integer, online integer, offline integer, inactive integer, faulty integer, sleeping integer, low_battery integer
);

-- Applies a statement's moves (one per key, the keys distinct): adds them to the tally in key order,
-- writes today's states of the rows changed, and drops the rows that fell to zero.
CREATE FUNCTION device_tally_apply(moves device_tally_move[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  WITH kept AS (
    INSERT INTO device_tally AS k (product_code, tenant_code, organization_code, devices, online, offline, inactive, faulty, sleeping, low_battery)
    SELECT m.product_code, m.tenant_code, m.organization_code, m.devices, m.online, m.offline, m.inactive, m.faulty, m.sleeping, m.low_battery
      FROM unnest(moves) m ORDER BY 1, 2, 3
    ON CONFLICT (product_code, tenant_code, organization_code) DO UPDATE
       SET devices = k.devices + EXCLUDED.devices, online = k.online + EXCLUDED.online, offline = k.offline + EXCLUDED.offline,
           inactive = k.inactive + EXCLUDED.inactive, faulty = k.faulty + EXCLUDED.faulty, sleeping = k.sleeping + EXCLUDED.sleeping,
           low_battery = k.low_battery + EXCLUDED.low_battery
    RETURNING k.product_code, k.tenant_code, k.organization_code, k.devices, k.online, k.offline, k.inactive
  )
  INSERT INTO device_state_day AS s (tenant_code, organization_code, product_code, day, devices, online, offline, inactive)
  SELECT tenant_code, organization_code, product_code, current_date, devices, online, offline, inactive FROM kept ORDER BY 1, 2, 3
  ON CONFLICT (tenant_code, organization_code, product_code, day) DO UPDATE
     SET devices = EXCLUDED.devices, online = EXCLUDED.online, offline = EXCLUDED.offline, inactive = EXCLUDED.inactive
   WHERE (s.devices, s.online, s.offline, s.inactive) IS DISTINCT FROM (EXCLUDED.devices, EXCLUDED.online, EXCLUDED.offline, EXCLUDED.inactive);
  -- Rows the statement emptied (only where it removed devices; they are locked already).
  IF EXISTS (SELECT 1 FROM unnest(moves) m WHERE m.devices < 0) THEN
    DELETE FROM device_tally k
     USING unnest(moves) m
     WHERE m.devices < 0 AND k.devices = 0
       AND k.product_code = m.product_code AND k.tenant_code = m.tenant_code AND k.organization_code = m.organization_code;
  END IF;
END
$$;

-- The moves of the rows a statement added and removed (live devices only), summed per key; keys
-- that come out unchanged (a device reporting, renamed …) are left out, so they lock nothing. Each
-- branch names only the transition tables its event has.
CREATE OR REPLACE FUNCTION device_tally_follow() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  moves device_tally_move[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT array_agg(ROW(product_code, tenant_code, organization_code, devices, online, offline, inactive, faulty, sleeping, low_battery)::device_tally_move)
      INTO moves
      FROM (SELECT product_code, tenant_code, organization_code, sum(s)::int AS devices,
                   sum(s * (online_state = 'online')::int)::int AS online, sum(s * (online_state = 'offline')::int)::int AS offline,
                   sum(s * (online_state = 'inactive')::int)::int AS inactive, sum(s * (health_state = 'faulty')::int)::int AS faulty,
                   sum(s * sleeping::int)::int AS sleeping, sum(s * coalesce(battery_powered AND battery_level > 0 AND battery_level < 20, false)::int)::int AS low_battery
              FROM (SELECT 1 AS s, a.product_code, a.tenant_code, a.organization_code, a.online_state, a.health_state, a.sleeping, a.battery_level, p.battery_powered
                      FROM added a LEFT JOIN product p ON p.code = a.product_code WHERE a.deleted_at IS NULL) r
             GROUP BY 1, 2, 3) m
     WHERE (devices, online, offline, inactive, faulty, sleeping, low_battery) <> (0, 0, 0, 0, 0, 0, 0);
  ELSIF TG_OP = 'UPDATE' THEN
    SELECT array_agg(ROW(product_code, tenant_code, organization_code, devices, online, offline, inactive, faulty, sleeping, low_battery)::device_tally_move)
      INTO moves
      FROM (SELECT product_code, tenant_code, organization_code, sum(s)::int AS devices,
                   sum(s * (online_state = 'online')::int)::int AS online, sum(s * (online_state = 'offline')::int)::int AS offline,
                   sum(s * (online_state = 'inactive')::int)::int AS inactive, sum(s * (health_state = 'faulty')::int)::int AS faulty,
                   sum(s * sleeping::int)::int AS sleeping, sum(s * coalesce(battery_powered AND battery_level > 0 AND battery_level < 20, false)::int)::int AS low_battery
              FROM (SELECT 1 AS s, a.product_code, a.tenant_code, a.organization_code, a.online_state, a.health_state, a.sleeping, a.battery_level, p.battery_powered
                      FROM added a LEFT JOIN product p ON p.code = a.product_code WHERE a.deleted_at IS NULL
                    UNION ALL
                    SELECT -1 AS s, r.product_code, r.tenant_code, r.organization_code, r.online_state, r.health_state, r.sleeping, r.battery_level, p.battery_powered
                      FROM removed r LEFT JOIN product p ON p.code = r.product_code WHERE r.deleted_at IS NULL) r
             GROUP BY 1, 2, 3) m
     WHERE (devices, online, offline, inactive, faulty, sleeping, low_battery) <> (0, 0, 0, 0, 0, 0, 0);
  ELSE
    SELECT array_agg(ROW(product_code, tenant_code, organization_code, devices, online, offline, inactive, faulty, sleeping, low_battery)::device_tally_move)
      INTO moves
      FROM (SELECT product_code, tenant_code, organization_code, sum(s)::int AS devices,
                   sum(s * (online_state = 'online')::int)::int AS online, sum(s * (online_state = 'offline')::int)::int AS offline,
                   sum(s * (online_state = 'inactive')::int)::int AS inactive, sum(s * (health_state = 'faulty')::int)::int AS faulty,
                   sum(s * sleeping::int)::int AS sleeping, sum(s * coalesce(battery_powered AND battery_level > 0 AND battery_level < 20, false)::int)::int AS low_battery
              FROM (SELECT -1 AS s, r.product_code, r.tenant_code, r.organization_code, r.online_state, r.health_state, r.sleeping, r.battery_level, p.battery_powered
                      FROM removed r LEFT JOIN product p ON p.code = r.product_code WHERE r.deleted_at IS NULL) r
             GROUP BY 1, 2, 3) m
     WHERE (devices, online, offline, inactive, faulty, sleeping, low_battery) <> (0, 0, 0, 0, 0, 0, 0);
  END IF;
  IF moves IS NOT NULL THEN
    PERFORM device_tally_apply(moves);
  END IF;
  RETURN NULL;
END
$$;

-- The whole tally counted again from device (the seed reset's DELETE FROM device_tally, TRUNCATE).
CREATE OR REPLACE FUNCTION device_tally_recount() RETURNS void LANGUAGE sql AS $$
  DELETE FROM device_tally;
  INSERT INTO device_tally (product_code, tenant_code, organization_code, devices, online, offline, inactive, faulty, sleeping, low_battery)
  SELECT d.product_code, d.tenant_code, d.organization_code, count(*)::int,
         (count(*) FILTER (WHERE d.online_state = 'online'))::int, (count(*) FILTER (WHERE d.online_state = 'offline'))::int,
         (count(*) FILTER (WHERE d.online_state = 'inactive'))::int, (count(*) FILTER (WHERE d.health_state = 'faulty'))::int,
         (count(*) FILTER (WHERE d.sleeping))::int, (count(*) FILTER (WHERE p.battery_powered AND d.battery_level > 0 AND d.battery_level < 20))::int
    FROM device d LEFT JOIN product p ON p.code = d.product_code WHERE d.deleted_at IS NULL
   GROUP BY 1, 2, 3;
$$;

-- 低电量 is of battery-powered products' devices: a product changing its power supply (rare) counts
-- the tally again, and so does the seed reset putting products back (in replica mode, in no
-- particular order with the devices: whichever comes last, the counts are the restored world's).
-- Otherwise a product added or removed has no live devices to count.
CREATE FUNCTION device_tally_product_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' OR current_setting('session_replication_role') = 'replica' THEN
    PERFORM device_tally_recount();
  END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER device_tally_product AFTER UPDATE OF battery_powered ON product
  FOR EACH STATEMENT EXECUTE FUNCTION device_tally_product_changed();
CREATE TRIGGER device_tally_product_restore AFTER INSERT OR DELETE ON product
  FOR EACH STATEMENT EXECUTE FUNCTION device_tally_product_changed();
ALTER TABLE product ENABLE ALWAYS TRIGGER device_tally_product;
ALTER TABLE product ENABLE ALWAYS TRIGGER device_tally_product_restore;

-- Emptied from outside a trigger, the tally is counted again (device_tally_restore, migration 092).
DELETE FROM device_tally;

-- The history starts today on a database that has none.
INSERT INTO device_state_day (tenant_code, organization_code, product_code, day, devices, online, offline, inactive)
SELECT tenant_code, organization_code, product_code, current_date, devices, online, offline, inactive FROM device_tally;
