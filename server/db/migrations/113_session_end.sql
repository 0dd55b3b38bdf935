-- Issue 30: a session's end is announced to every instance (pg_notify 'session_end', at commit),
-- so that each closes the live streams (server/live/liveEvents.ts) the session opened. Told here,
-- where every way a session ends meets, rather than by each operation that ends one: a sign-out,
-- a refresh (the old pair), a password change or reset, a revocation of the user's sessions, an
-- access token made to expire, a session deleted with its user, and a user's status switched
-- (a disabled user's sessions stop authenticating, whether or not they were revoked).
-- The payload names the session and its user, or the user alone; a stream told of its session or
-- user asks the database again whether its token still holds, and ends if not.
CREATE FUNCTION announce_session_end() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME = 'app_user' THEN
    PERFORM pg_notify('session_end', json_build_object('userId', OLD.id)::text);
  ELSE
    PERFORM pg_notify('session_end', json_build_object('sessionId', OLD.id, 'userId', OLD.user_id)::text);
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER auth_session_ends AFTER UPDATE OF revoked_at, access_expires_at ON auth_session
  FOR EACH ROW WHEN (OLD.revoked_at IS NULL AND (NEW.revoked_at IS NOT NULL OR NEW.access_expires_at < OLD.access_expires_at))
  EXECUTE FUNCTION announce_session_end();
CREATE TRIGGER auth_session_deleted AFTER DELETE ON auth_session
  FOR EACH ROW WHEN (OLD.revoked_at IS NULL) EXECUTE FUNCTION announce_session_end();
CREATE TRIGGER app_user_status_ends_sessions AFTER UPDATE OF status ON app_user
  FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status) EXECUTE FUNCTION announce_session_end();
