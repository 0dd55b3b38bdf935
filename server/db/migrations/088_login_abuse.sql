-- Login abuse and anonymous codes (issue 18). Everything here is shared by every instance: the
-- counters live in the database and each is moved by one statement.

-- Wrong passwords per (login name as typed, client address). Keyed by the name whether or not an
-- account has it, so a lock tells nothing about which names exist; keyed by the address too, so
-- nobody can lock an account for everyone else. Failures are forgotten 15 minutes after the last
-- one; the sixth attempt within that time is refused until the fifth failure is 15 minutes old.
CREATE TABLE login_failure (
  login_name text NOT NULL,
  address text NOT NULL,
  failures integer NOT NULL,
  last_failed_at timestamptz NOT NULL,
  PRIMARY KEY (login_name, address)
);
CREATE INDEX login_failure_last_failed_at ON login_failure (last_failed_at);

-- Fixed-window counters (scope, key): failed logins per address, captchas per address, codes per
-- WeChat bind key.
CREATE TABLE rate_counter (
  scope text NOT NULL,
  key text NOT NULL,
  hits integer NOT NULL,
  window_ends_at timestamptz NOT NULL,
  PRIMARY KEY (scope, key)
);
CREATE INDEX rate_counter_window_ends_at ON rate_counter (window_ends_at);

-- Image captchas that an anonymous caller solves before a code is sent (forgot password). One
-- try each: the answer is spent by the first request that names the captcha, right or wrong.
CREATE TABLE captcha (
  uuid text PRIMARY KEY,
  answer text NOT NULL,
  expires_at timestamptz NOT NULL,
  used_at timestamptz,
  created_at timestamptz NOT NULL
);
CREATE INDEX captcha_expires_at ON captcha (expires_at);

-- A new password (the owner's reset by code or WeChat, an administrator's reset, a change) lifts
-- the locks on the account's login name from every address.
CREATE FUNCTION clear_login_failures() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM login_failure WHERE login_name = NEW.login_name;
  RETURN NULL;
END
$$;

CREATE TRIGGER app_user_password_clears_login_failures AFTER UPDATE OF password_hash ON app_user
  FOR EACH ROW WHEN (OLD.password_hash IS DISTINCT FROM NEW.password_hash) EXECUTE FUNCTION clear_login_failures();
