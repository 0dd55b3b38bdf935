-- Issue 30: two ceilings on failures that were missing.
--
-- Wrong passwords per login name across every address (Keycloak's brute-force detection): 32 wrong
-- passwords spread over 8 addresses (4 each, under the per-address pair lock of migration 088) used
-- to be followed by a sign-in with the right one. Keyed by the name as typed, whether or not an
-- account has it, so it tells nothing about which names exist. From the 30th failure within 12 hours
-- the name waits (locked_until) a minute, then twice as long after each further failure, at most 15
-- minutes; a failure while it waits is not counted; a right password after the wait forgets them.
CREATE TABLE login_account_failure (
  login_name text PRIMARY KEY,
  failures integer NOT NULL,
  last_failed_at timestamptz NOT NULL,
  locked_until timestamptz
);
CREATE INDEX login_account_failure_last_failed_at ON login_account_failure (last_failed_at);

-- A new password lifts both locks of the account's login name (the owner's reset, an
-- administrator's reset, a change), as it lifted the per-address ones.
CREATE OR REPLACE FUNCTION clear_login_failures() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM login_failure WHERE login_name = NEW.login_name;
  DELETE FROM login_account_failure WHERE login_name = NEW.login_name;
  RETURN NULL;
END
$$;

-- Open-API calls refused for their signature past the failure limits (per access key, per
-- address): not written one row each (200 rows in a second, from anyone who knows an access key),
-- but counted on the audit row of the first refusal past the limit in the window.
ALTER TABLE open_api_call ADD COLUMN suppressed integer NOT NULL DEFAULT 0;
