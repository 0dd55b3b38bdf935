-- The authorisation generation: one counter that moves, in the same transaction, whenever
-- something a caller's rights are made of changes (the user's code, login name or status, its
-- roles and organisations, the organisation tree, roles, and the resources and grants that make
-- the button lists). The server keeps what it read of a user's rights under the generation it
-- read them at, and reads them again once the counter has moved; the session itself is read on
-- every request, so signing out or a revoked token still takes effect at once.
CREATE TABLE authorization_generation (
  id smallint PRIMARY KEY CHECK (id = 1),
  value bigint NOT NULL
);

CREATE FUNCTION advance_authorization_generation() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO authorization_generation (id, value) VALUES (1, 1)
    ON CONFLICT (id) DO UPDATE SET value = authorization_generation.value + 1;
  RETURN NULL;
END
$$;

CREATE TRIGGER app_user_authorization AFTER INSERT OR DELETE OR TRUNCATE OR UPDATE OF id, code, login_name, status ON app_user
  FOR EACH STATEMENT EXECUTE FUNCTION advance_authorization_generation();
CREATE TRIGGER user_role_authorization AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON user_role
  FOR EACH STATEMENT EXECUTE FUNCTION advance_authorization_generation();
CREATE TRIGGER user_organization_authorization AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON user_organization
  FOR EACH STATEMENT EXECUTE FUNCTION advance_authorization_generation();
CREATE TRIGGER organization_authorization AFTER INSERT OR DELETE OR TRUNCATE OR UPDATE OF code, parent_code, sort ON organization
  FOR EACH STATEMENT EXECUTE FUNCTION advance_authorization_generation();
CREATE TRIGGER role_authorization AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON role
  FOR EACH STATEMENT EXECUTE FUNCTION advance_authorization_generation();
CREATE TRIGGER resource_authorization AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON resource
  FOR EACH STATEMENT EXECUTE FUNCTION advance_authorization_generation();
CREATE TRIGGER role_resource_authorization AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON role_resource
  FOR EACH STATEMENT EXECUTE FUNCTION advance_authorization_generation();

-- The reset of the development seed restores tables with triggers set aside (replica mode):
-- these fire there too, so a restored user or grant moves the generation like any other change.
ALTER TABLE app_user ENABLE ALWAYS TRIGGER app_user_authorization;
ALTER TABLE user_role ENABLE ALWAYS TRIGGER user_role_authorization;
ALTER TABLE user_organization ENABLE ALWAYS TRIGGER user_organization_authorization;
ALTER TABLE organization ENABLE ALWAYS TRIGGER organization_authorization;
ALTER TABLE role ENABLE ALWAYS TRIGGER role_authorization;
ALTER TABLE resource ENABLE ALWAYS TRIGGER resource_authorization;
ALTER TABLE role_resource ENABLE ALWAYS TRIGGER role_resource_authorization;
