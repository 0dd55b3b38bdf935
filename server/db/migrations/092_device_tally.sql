-- Device counts kept with the rows (issue 19): the product list's devices per product within the
-- caller's scope and the area list's devices per area counted a million devices on every page
-- view (1.3 s and 750 ms over 1,000,000 devices). device_tally holds, per product and
-- organisation (and its tenant, so that a tenant's scope is one equality as on device), how many
-- live devices (deleted_at IS NULL: the recycle bin is not counted, as the lists never counted it)
-- there are and how many of them are online. A list sums the few rows of its scope instead.
--
-- Statement-level triggers with transition tables keep it: every statement on device changes
-- each (product, organisation) row once, by the sum of what it added and removed, so a bulk
-- insert of a million devices (tests/support/growWorld.ts) is one upsert of a few hundred rows,
-- and an update that moves nothing (a device reporting) changes no row. Concurrent statements
-- add to a row (devices = devices + n) under its row lock, and take the rows in key order, so two
-- transactions adding devices of one product both count and never deadlock on the tally. A row
-- that falls to zero is removed, so the table holds exactly the non-empty combinations.
--
-- The development seed's reset (server/seed/seed.ts) restores tables in replica mode, where
-- ordinary triggers stay silent, and in no particular order; it also empties this table without
-- refilling it (it is not seeded). So the triggers fire ALWAYS, and emptying the tally from
-- outside a trigger (the reset's DELETE) counts it again from device: either order ends with the
-- counts of the restored devices.

CREATE TABLE device_tally (
  product_code text NOT NULL,
  tenant_code text NOT NULL,
  organization_code text NOT NULL,
  devices integer NOT NULL,
  online integer NOT NULL,
  PRIMARY KEY (product_code, tenant_code, organization_code)
);
-- The area list: the devices of one organisation, all products.
CREATE INDEX device_tally_organization_idx ON device_tally (organization_code);

CREATE FUNCTION device_tally_follow() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  changed integer := 0;
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO device_tally AS k (product_code, tenant_code, organization_code, devices, online)
    SELECT product_code, tenant_code, organization_code, count(*)::int, (count(*) FILTER (WHERE online_state = 'online'))::int
      FROM added WHERE deleted_at IS NULL
     GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
    ON CONFLICT (product_code, tenant_code, organization_code)
      DO UPDATE SET devices = k.devices + EXCLUDED.devices, online = k.online + EXCLUDED.online;
    RETURN NULL;
  ELSIF TG_OP = 'UPDATE' THEN
    INSERT INTO device_tally AS k (product_code, tenant_code, organization_code, devices, online)
    SELECT product_code, tenant_code, organization_code, sum(devices)::int, sum(online)::int
      FROM (SELECT product_code, tenant_code, organization_code, 1 AS devices, (online_state = 'online')::int AS online
              FROM added WHERE deleted_at IS NULL
            UNION ALL
            SELECT product_code, tenant_code, organization_code, -1, -((online_state = 'online')::int)
              FROM removed WHERE deleted_at IS NULL) moved
     GROUP BY 1, 2, 3 HAVING sum(devices) <> 0 OR sum(online) <> 0 ORDER BY 1, 2, 3
    ON CONFLICT (product_code, tenant_code, organization_code)
      DO UPDATE SET devices = k.devices + EXCLUDED.devices, online = k.online + EXCLUDED.online;
    GET DIAGNOSTICS changed = ROW_COUNT;
  ELSE
    INSERT INTO device_tally AS k (product_code, tenant_code, organization_code, devices, online)
    SELECT product_code, tenant_code, organization_code, -count(*)::int, -(count(*) FILTER (WHERE online_state = 'online'))::int
      FROM removed WHERE deleted_at IS NULL
     GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
    ON CONFLICT (product_code, tenant_code, organization_code)
      DO UPDATE SET devices = k.devices + EXCLUDED.devices, online = k.online + EXCLUDED.online;
    GET DIAGNOSTICS changed = ROW_COUNT;
  END IF;
  -- Rows the statement emptied (only where it removed live devices; they are locked already).
  IF changed > 0 THEN
    DELETE FROM device_tally k
     WHERE k.devices = 0
       AND EXISTS (SELECT 1 FROM removed r
                    WHERE r.deleted_at IS NULL AND r.product_code = k.product_code
                      AND r.tenant_code = k.tenant_code AND r.organization_code = k.organization_code);
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER device_tally_insert AFTER INSERT ON device REFERENCING NEW TABLE AS added
  FOR EACH STATEMENT EXECUTE FUNCTION device_tally_follow();
CREATE TRIGGER device_tally_update AFTER UPDATE ON device REFERENCING OLD TABLE AS removed NEW TABLE AS added
  FOR EACH STATEMENT EXECUTE FUNCTION device_tally_follow();
CREATE TRIGGER device_tally_delete AFTER DELETE ON device REFERENCING OLD TABLE AS removed
  FOR EACH STATEMENT EXECUTE FUNCTION device_tally_follow();

-- The whole tally counted again from device.
CREATE FUNCTION device_tally_recount() RETURNS void LANGUAGE sql AS $$
  DELETE FROM device_tally;
  INSERT INTO device_tally (product_code, tenant_code, organization_code, devices, online)
  SELECT product_code, tenant_code, organization_code, count(*)::int, (count(*) FILTER (WHERE online_state = 'online'))::int
    FROM device WHERE deleted_at IS NULL
   GROUP BY 1, 2, 3;
$$;

-- Rows deleted from outside the triggers (the seed reset's DELETE FROM device_tally): count again.
CREATE FUNCTION device_tally_restore() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF pg_trigger_depth() = 1 THEN
    PERFORM device_tally_recount();
  END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER device_tally_restore AFTER DELETE ON device_tally
  FOR EACH STATEMENT EXECUTE FUNCTION device_tally_restore();

-- TRUNCATE device fires no row trigger: the tally is emptied with it.
CREATE FUNCTION device_tally_clear() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM device_tally;
  RETURN NULL;
END
$$;
CREATE TRIGGER device_tally_truncate AFTER TRUNCATE ON device
  FOR EACH STATEMENT EXECUTE FUNCTION device_tally_clear();

ALTER TABLE device ENABLE ALWAYS TRIGGER device_tally_insert;
ALTER TABLE device ENABLE ALWAYS TRIGGER device_tally_update;
ALTER TABLE device ENABLE ALWAYS TRIGGER device_tally_delete;
ALTER TABLE device ENABLE ALWAYS TRIGGER device_tally_truncate;
ALTER TABLE device_tally ENABLE ALWAYS TRIGGER device_tally_restore;

INSERT INTO device_tally (product_code, tenant_code, organization_code, devices, online)
SELECT product_code, tenant_code, organization_code, count(*)::int, (count(*) FILTER (WHERE online_state = 'online'))::int
  FROM device WHERE deleted_at IS NULL
 GROUP BY 1, 2, 3;
