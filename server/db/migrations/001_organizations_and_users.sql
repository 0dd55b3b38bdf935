-- Organisations (types of the organization_type dictionary: 1 平台, 2 租户, 3 项目, 4 区域,
-- 5 虚拟组织, 6 部门), roles and users.
CREATE TABLE organization (
  id serial PRIMARY KEY,
  code text NOT NULL UNIQUE,
  name text NOT NULL,
  type smallint NOT NULL CHECK (type BETWEEN 1 AND 6),
  parent_code text REFERENCES organization (code),
  sort integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX organization_parent_idx ON organization (parent_code);

CREATE TABLE role (
  code text PRIMARY KEY,
  name text NOT NULL,
  scope text NOT NULL CHECK (scope IN ('platform', 'tenant')),
  sort integer NOT NULL DEFAULT 0
);

CREATE TABLE app_user (
  id serial PRIMARY KEY,
  code text NOT NULL UNIQUE,
  login_name text NOT NULL UNIQUE,
  user_name text NOT NULL,
  password_hash text NOT NULL,
  phone text UNIQUE,
  mail text UNIQUE,
  avatar text NOT NULL DEFAULT '',
  status smallint NOT NULL DEFAULT 1 CHECK (status IN (0, 1)),
  need_modify_password boolean NOT NULL DEFAULT false,
  failed_login_count integer NOT NULL DEFAULT 0,
  locked_until timestamptz,
  wechat_open_id text UNIQUE,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE user_organization (
  user_id integer NOT NULL REFERENCES app_user (id) ON DELETE CASCADE,
  organization_code text NOT NULL REFERENCES organization (code),
  sort integer NOT NULL DEFAULT 0,
  PRIMARY KEY (user_id, organization_code)
);

CREATE TABLE user_role (
  user_id integer NOT NULL REFERENCES app_user (id) ON DELETE CASCADE,
  role_code text NOT NULL REFERENCES role (code),
  PRIMARY KEY (user_id, role_code)
);
