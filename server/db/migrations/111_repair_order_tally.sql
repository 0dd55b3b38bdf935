-- The repair summary kept with the rows (issue 19): 维修汇总 grouped every repair order of the
-- tenant on each view (76 ms of SQL over the bench's 1,000,000-device world, an index-only scan of
-- all its orders). repair_order_tally holds, per organisation, assignee, fault type, business month
-- of creation and state, how many repair orders there are, their cost and the seconds the completed
-- ones took; the summary groups these few rows. What depends on the hour (已超期) is still counted
-- from the open orders, through the partial index below.
--
-- Kept as device_tally is (migration 092): statement-level triggers with transition tables, fired
-- ALWAYS (the seed reset restores in replica mode), rows taken in key order, a row falling to zero
-- removed; emptying the tally from outside a trigger (the seed reset's DELETE) counts it again
-- from work_order, and TRUNCATE work_order empties it. Months are the session's: every connection
-- is pinned to the business time zone (server/db), as the summary's month grouping always was.

CREATE TABLE repair_order_tally (
  tenant_code text NOT NULL,
  organization_code text NOT NULL,
  -- 0: not assigned
  assignee_id integer NOT NULL,
  -- '': no fault type
  fault_type text NOT NULL,
  -- the business month of created_at, 'YYYY-MM'
  month text NOT NULL,
  state text NOT NULL,
  orders integer NOT NULL,
  cost numeric(14, 2) NOT NULL,
  -- completed_at - created_at summed over the orders with a completed_at, and how many they are
  done_seconds numeric NOT NULL,
  done_orders integer NOT NULL,
  PRIMARY KEY (tenant_code, organization_code, assignee_id, fault_type, month, state)
);

CREATE FUNCTION repair_order_tally_follow() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  changed integer := 0;
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO repair_order_tally AS k (tenant_code, organization_code, assignee_id, fault_type, month, state, orders, cost, done_seconds, done_orders)
    SELECT tenant_code, organization_code, coalesce(assignee_id, 0), coalesce(fault_type, ''), to_char(created_at, 'YYYY-MM'), state,
           count(*)::int, coalesce(sum(cost), 0), coalesce(sum(extract(epoch FROM completed_at - created_at)), 0), count(completed_at)::int
      FROM added WHERE type = 'repair'
     GROUP BY 1, 2, 3, 4, 5, 6 ORDER BY 1, 2, 3, 4, 5, 6
    ON CONFLICT (tenant_code, organization_code, assignee_id, fault_type, month, state) DO UPDATE
       SET orders = k.orders + EXCLUDED.orders, cost = k.cost + EXCLUDED.cost,
           done_seconds = k.done_seconds + EXCLUDED.done_seconds, done_orders = k.done_orders + EXCLUDED.done_orders;
    RETURN NULL;
  ELSIF TG_OP = 'UPDATE' THEN
    INSERT INTO repair_order_tally AS k (tenant_code, organization_code, assignee_id, fault_type, month, state, orders, cost, done_seconds, done_orders)
    SELECT tenant_code, organization_code, assignee_id, fault_type, month, state,
           sum(sign)::int, sum(sign * cost), sum(sign * seconds), sum(sign * done)::int
      FROM (SELECT tenant_code, organization_code, coalesce(assignee_id, 0) AS assignee_id, coalesce(fault_type, '') AS fault_type,
                   to_char(created_at, 'YYYY-MM') AS month, state, 1 AS sign, coalesce(cost, 0) AS cost,
                   coalesce(extract(epoch FROM completed_at - created_at), 0) AS seconds, (completed_at IS NOT NULL)::int AS done
              FROM added WHERE type = 'repair'
            UNION ALL
            SELECT tenant_code, organization_code, coalesce(assignee_id, 0), coalesce(fault_type, ''),
                   to_char(created_at, 'YYYY-MM'), state, -1, coalesce(cost, 0),
                   coalesce(extract(epoch FROM completed_at - created_at), 0), (completed_at IS NOT NULL)::int
              FROM removed WHERE type = 'repair') moved
     GROUP BY 1, 2, 3, 4, 5, 6
    HAVING sum(sign) <> 0 OR sum(sign * cost) <> 0 OR sum(sign * seconds) <> 0 OR sum(sign * done) <> 0
     ORDER BY 1, 2, 3, 4, 5, 6
    ON CONFLICT (tenant_code, organization_code, assignee_id, fault_type, month, state) DO UPDATE
       SET orders = k.orders + EXCLUDED.orders, cost = k.cost + EXCLUDED.cost,
           done_seconds = k.done_seconds + EXCLUDED.done_seconds, done_orders = k.done_orders + EXCLUDED.done_orders;
    GET DIAGNOSTICS changed = ROW_COUNT;
  ELSE
    INSERT INTO repair_order_tally AS k (tenant_code, organization_code, assignee_id, fault_type, month, state, orders, cost, done_seconds, done_orders)
    SELECT tenant_code, organization_code, coalesce(assignee_id, 0), coalesce(fault_type, ''), to_char(created_at, 'YYYY-MM'), state,
           -count(*)::int, -coalesce(sum(cost), 0), -coalesce(sum(extract(epoch FROM completed_at - created_at)), 0), -count(completed_at)::int
      FROM removed WHERE type = 'repair'
     GROUP BY 1, 2, 3, 4, 5, 6 ORDER BY 1, 2, 3, 4, 5, 6
    ON CONFLICT (tenant_code, organization_code, assignee_id, fault_type, month, state) DO UPDATE
       SET orders = k.orders + EXCLUDED.orders, cost = k.cost + EXCLUDED.cost,
           done_seconds = k.done_seconds + EXCLUDED.done_seconds, done_orders = k.done_orders + EXCLUDED.done_orders;
    GET DIAGNOSTICS changed = ROW_COUNT;
  END IF;
  IF changed > 0 THEN
    DELETE FROM repair_order_tally k
     WHERE k.orders = 0
       AND EXISTS (SELECT 1 FROM removed r
                    WHERE r.type = 'repair' AND r.tenant_code = k.tenant_code AND r.organization_code = k.organization_code
                      AND coalesce(r.assignee_id, 0) = k.assignee_id AND coalesce(r.fault_type, '') = k.fault_type
                      AND to_char(r.created_at, 'YYYY-MM') = k.month AND r.state = k.state);
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER repair_order_tally_insert AFTER INSERT ON work_order REFERENCING NEW TABLE AS added
  FOR EACH STATEMENT EXECUTE FUNCTION repair_order_tally_follow();
CREATE TRIGGER repair_order_tally_update AFTER UPDATE ON work_order REFERENCING OLD TABLE AS removed NEW TABLE AS added
  FOR EACH STATEMENT EXECUTE FUNCTION repair_order_tally_follow();
CREATE TRIGGER repair_order_tally_delete AFTER DELETE ON work_order REFERENCING OLD TABLE AS removed
  FOR EACH STATEMENT EXECUTE FUNCTION repair_order_tally_follow();

CREATE FUNCTION repair_order_tally_recount() RETURNS void LANGUAGE sql AS $$
  DELETE FROM repair_order_tally;
  INSERT INTO repair_order_tally (tenant_code, organization_code, assignee_id, fault_type, month, state, orders, cost, done_seconds, done_orders)
  SELECT tenant_code, organization_code, coalesce(assignee_id, 0), coalesce(fault_type, ''), to_char(created_at, 'YYYY-MM'), state,
         count(*)::int, coalesce(sum(cost), 0), coalesce(sum(extract(epoch FROM completed_at - created_at)), 0), count(completed_at)::int
    FROM work_order WHERE type = 'repair'
   GROUP BY 1, 2, 3, 4, 5, 6;
$$;

CREATE FUNCTION repair_order_tally_restore() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF pg_trigger_depth() = 1 THEN
    PERFORM repair_order_tally_recount();
  END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER repair_order_tally_restore AFTER DELETE ON repair_order_tally
  FOR EACH STATEMENT EXECUTE FUNCTION repair_order_tally_restore();

CREATE FUNCTION repair_order_tally_clear() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM repair_order_tally;
  RETURN NULL;
END
$$;
CREATE TRIGGER repair_order_tally_truncate AFTER TRUNCATE ON work_order
  FOR EACH STATEMENT EXECUTE FUNCTION repair_order_tally_clear();

ALTER TABLE work_order ENABLE ALWAYS TRIGGER repair_order_tally_insert;
ALTER TABLE work_order ENABLE ALWAYS TRIGGER repair_order_tally_update;
ALTER TABLE work_order ENABLE ALWAYS TRIGGER repair_order_tally_delete;
ALTER TABLE work_order ENABLE ALWAYS TRIGGER repair_order_tally_truncate;
ALTER TABLE repair_order_tally ENABLE ALWAYS TRIGGER repair_order_tally_restore;

-- 已超期: the open repair orders past their deadline, by tenant and deadline, holding what the
-- summary groups them by. The predicate is the summary's own, written out (server/operations/work/repairBatches.ts).
CREATE INDEX repair_order_open_deadline_idx ON work_order (tenant_code, deadline_at)
  INCLUDE (organization_code, assignee_id, fault_type, created_at)
  WHERE type = 'repair' AND state NOT IN ('completed', 'audited', 'closed');

INSERT INTO repair_order_tally (tenant_code, organization_code, assignee_id, fault_type, month, state, orders, cost, done_seconds, done_orders)
SELECT tenant_code, organization_code, coalesce(assignee_id, 0), coalesce(fault_type, ''), to_char(created_at, 'YYYY-MM'), state,
       count(*)::int, coalesce(sum(cost), 0), coalesce(sum(extract(epoch FROM completed_at - created_at)), 0), count(completed_at)::int
  FROM work_order WHERE type = 'repair'
 GROUP BY 1, 2, 3, 4, 5, 6;
