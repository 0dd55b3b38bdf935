-- Card counts kept with the rows (issue 19): the charge standards' list (资费标准) showed each
-- standard's 使用卡数 by counting its cards on every page view, 500,000 index entries for ten
-- standards (123 ms over the bench's 1,000,000-device world). sim_card_package_tally holds, per
-- charge standard, how many cards carry it; the list reads one row per standard.
--
-- Kept as device_tally is (migration 092): statement-level triggers with transition tables, fired
-- ALWAYS (the seed reset restores in replica mode), rows taken in key order, a row falling to
-- zero removed; emptying the tally from outside a trigger (the seed reset's DELETE) counts it
-- again from sim_card, and TRUNCATE sim_card empties it.

CREATE TABLE sim_card_package_tally (
  package_code text PRIMARY KEY,
  cards integer NOT NULL
);

CREATE FUNCTION sim_card_package_tally_follow() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  changed integer := 0;
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO sim_card_package_tally AS k (package_code, cards)
    SELECT package_code, count(*)::int FROM added WHERE package_code IS NOT NULL
     GROUP BY 1 ORDER BY 1
    ON CONFLICT (package_code) DO UPDATE SET cards = k.cards + EXCLUDED.cards;
    RETURN NULL;
  ELSIF TG_OP = 'UPDATE' THEN
    INSERT INTO sim_card_package_tally AS k (package_code, cards)
    SELECT package_code, sum(cards)::int
      FROM (SELECT package_code, 1 AS cards FROM added WHERE package_code IS NOT NULL
            UNION ALL
            SELECT package_code, -1 FROM removed WHERE package_code IS NOT NULL) moved
     GROUP BY 1 HAVING sum(cards) <> 0 ORDER BY 1
    ON CONFLICT (package_code) DO UPDATE SET cards = k.cards + EXCLUDED.cards;
    GET DIAGNOSTICS changed = ROW_COUNT;
  ELSE
    INSERT INTO sim_card_package_tally AS k (package_code, cards)
    SELECT package_code, -count(*)::int FROM removed WHERE package_code IS NOT NULL
     GROUP BY 1 ORDER BY 1
    ON CONFLICT (package_code) DO UPDATE SET cards = k.cards + EXCLUDED.cards;
    GET DIAGNOSTICS changed = ROW_COUNT;
  END IF;
  IF changed > 0 THEN
    DELETE FROM sim_card_package_tally k
     WHERE k.cards = 0 AND EXISTS (SELECT 1 FROM removed r WHERE r.package_code = k.package_code);
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER sim_card_package_tally_insert AFTER INSERT ON sim_card REFERENCING NEW TABLE AS added
  FOR EACH STATEMENT EXECUTE FUNCTION sim_card_package_tally_follow();
CREATE TRIGGER sim_card_package_tally_update AFTER UPDATE ON sim_card REFERENCING OLD TABLE AS removed NEW TABLE AS added
  FOR EACH STATEMENT EXECUTE FUNCTION sim_card_package_tally_follow();
CREATE TRIGGER sim_card_package_tally_delete AFTER DELETE ON sim_card REFERENCING OLD TABLE AS removed
  FOR EACH STATEMENT EXECUTE FUNCTION sim_card_package_tally_follow();

CREATE FUNCTION sim_card_package_tally_recount() RETURNS void LANGUAGE sql AS $$
  DELETE FROM sim_card_package_tally;
  INSERT INTO sim_card_package_tally (package_code, cards)
  SELECT package_code, count(*)::int FROM sim_card WHERE package_code IS NOT NULL GROUP BY 1;
$$;

CREATE FUNCTION sim_card_package_tally_restore() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF pg_trigger_depth() = 1 THEN
    PERFORM sim_card_package_tally_recount();
  END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER sim_card_package_tally_restore AFTER DELETE ON sim_card_package_tally
  FOR EACH STATEMENT EXECUTE FUNCTION sim_card_package_tally_restore();

CREATE FUNCTION sim_card_package_tally_clear() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM sim_card_package_tally;
  RETURN NULL;
END
$$;
CREATE TRIGGER sim_card_package_tally_truncate AFTER TRUNCATE ON sim_card
  FOR EACH STATEMENT EXECUTE FUNCTION sim_card_package_tally_clear();

ALTER TABLE sim_card ENABLE ALWAYS TRIGGER sim_card_package_tally_insert;
ALTER TABLE sim_card ENABLE ALWAYS TRIGGER sim_card_package_tally_update;
ALTER TABLE sim_card ENABLE ALWAYS TRIGGER sim_card_package_tally_delete;
ALTER TABLE sim_card ENABLE ALWAYS TRIGGER sim_card_package_tally_truncate;
ALTER TABLE sim_card_package_tally ENABLE ALWAYS TRIGGER sim_card_package_tally_restore;

INSERT INTO sim_card_package_tally (package_code, cards)
SELECT package_code, count(*)::int FROM sim_card WHERE package_code IS NOT NULL GROUP BY 1;
