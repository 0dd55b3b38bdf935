-- A login line carries the tenant of its user at sign-in (issue 19): a tenant admin's 登录日志 is
-- then an index range of (tenant_code, created_at DESC, id DESC), where it was an EXISTS over the
-- user's organisations for every line before the page (1,000,000 lines: 3 ms a page on PostgreSQL,
-- a second under load on PGlite). A user who later moves to another tenant leaves his earlier
-- sign-ins with the tenant they happened in. Null for an unknown login name and for platform staff.

-- The tenant at or above any of the user's organisations (the smallest code if they span several).
CREATE FUNCTION tenant_of_user(user_id integer) RETURNS text LANGUAGE sql STABLE AS $$
  WITH RECURSIVE line (code, parent_code, type) AS (
    SELECT o.code, o.parent_code, o.type FROM user_organization uo JOIN organization o ON o.code = uo.organization_code WHERE uo.user_id = $1
    UNION
    SELECT p.code, p.parent_code, p.type FROM organization p JOIN line ON p.code = line.parent_code WHERE line.type <> 2
  )
  SELECT min(code) FROM line WHERE type = 2
$$;

ALTER TABLE login_log ADD COLUMN tenant_code text;

UPDATE login_log l SET tenant_code = u.tenant_code
  FROM (SELECT id, tenant_of_user(id) AS tenant_code FROM app_user) u
 WHERE u.id = l.user_id AND u.tenant_code IS NOT NULL;

-- Every writer (the sign-in, the seed, a bulk load) gets the column filled without naming it.
CREATE FUNCTION fill_login_log_tenant() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.tenant_code := tenant_of_user(NEW.user_id);
  RETURN NEW;
END
$$;
CREATE TRIGGER login_log_tenant BEFORE INSERT ON login_log
  FOR EACH ROW WHEN (NEW.tenant_code IS NULL AND NEW.user_id IS NOT NULL) EXECUTE FUNCTION fill_login_log_tenant();

CREATE INDEX login_log_tenant_order_idx ON login_log (tenant_code, created_at DESC, id DESC);

-- Without statistics on the new column the planner guesses, and guessed a scan of the whole log.
ANALYZE login_log;
