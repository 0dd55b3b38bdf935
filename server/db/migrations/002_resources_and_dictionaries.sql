-- Menu and button resources (seeded from schemas/menus.json), their grants, and dictionaries.
CREATE TABLE resource (
  code text PRIMARY KEY,
  parent_code text REFERENCES resource (code),
  kind text NOT NULL CHECK (kind IN ('menu', 'button')),
  name text NOT NULL,
  url text NOT NULL DEFAULT '',
  view text NOT NULL DEFAULT '',
  icon text NOT NULL DEFAULT '',
  classification text NOT NULL DEFAULT '',
  shown boolean NOT NULL DEFAULT true,
  cached boolean NOT NULL DEFAULT false,
  client_type smallint NOT NULL DEFAULT 1,
  sort integer NOT NULL
);
CREATE INDEX resource_parent_idx ON resource (parent_code);

CREATE TABLE role_resource (
  role_code text NOT NULL REFERENCES role (code) ON DELETE CASCADE,
  resource_code text NOT NULL REFERENCES resource (code) ON DELETE CASCADE,
  PRIMARY KEY (role_code, resource_code)
);

CREATE TABLE dict_type (
  type text PRIMARY KEY,
  name text NOT NULL,
  sort integer NOT NULL DEFAULT 0
);

CREATE TABLE dict_item (
  type text NOT NULL REFERENCES dict_type (type) ON DELETE CASCADE,
  value text NOT NULL,
  label text NOT NULL,
  sort integer NOT NULL DEFAULT 0,
  PRIMARY KEY (type, value)
);
