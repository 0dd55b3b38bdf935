-- The office and catalogue areas of the work side (issue 6): project areas, corporate office
-- requests with their audit, message and work-order text templates, per-tenant settings and the
-- materials (spare parts) repair and maintenance use. The sub-brand pages (品牌专区) read the
-- existing work orders, patrol tasks, users and devices and keep nothing of their own.

-- 项目区域: the details of an area (an organisation of type 4 below a project, type 3). The area
-- itself is the organisation row, so devices, cameras and orders placed there keep referring to
-- it; removing the area removes its details.
CREATE TABLE project_area (
  organization_code text PRIMARY KEY REFERENCES organization (code) ON DELETE CASCADE,
  -- project_area_type dictionary
  area_type text NOT NULL CHECK (area_type IN ('district', 'station', 'plant', 'building')),
  manager_name text NOT NULL DEFAULT '',
  manager_phone text NOT NULL DEFAULT '',
  address text NOT NULL DEFAULT '',
  longitude double precision CHECK (longitude BETWEEN -180 AND 180),
  latitude double precision CHECK (latitude BETWEEN -90 AND 90),
  -- 面积（平方米）
  acreage numeric(12, 2) CHECK (acreage >= 0),
  remark text NOT NULL DEFAULT '',
  created_by text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- 企业办公: a request an employee files (用章申请, 费用报销, 采购申请, 出差申请, 用车申请). It moves
-- draft → submitted → approved | rejected; a rejected one is edited and submitted again. Only
-- drafts and rejected requests are edited or deleted. The tenant admin audits.
CREATE TABLE office_request (
  id serial PRIMARY KEY,
  code text NOT NULL UNIQUE,
  tenant_code text NOT NULL REFERENCES organization (code),
  -- the applicant's organisation when filed
  organization_code text NOT NULL REFERENCES organization (code),
  applicant_id integer NOT NULL REFERENCES app_user (id) ON DELETE CASCADE,
  -- office_request_type dictionary
  type text NOT NULL CHECK (type IN ('seal', 'expense', 'purchase', 'travel', 'vehicle')),
  title text NOT NULL,
  content text NOT NULL DEFAULT '',
  -- office_seal_type dictionary (用章申请)
  seal_type text CHECK (seal_type IN ('official', 'contract', 'finance', 'legal')),
  -- 金额（元） of 费用报销 and 采购申请
  amount numeric(12, 2) CHECK (amount > 0),
  -- 出差 and 用车: where to and when
  destination text NOT NULL DEFAULT '',
  start_at timestamptz,
  end_at timestamptz,
  -- office_request_state dictionary
  state text NOT NULL CHECK (state IN ('draft', 'submitted', 'approved', 'rejected')),
  submitted_at timestamptz,
  auditor_id integer REFERENCES app_user (id) ON DELETE SET NULL,
  audited_at timestamptz,
  audit_opinion text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CHECK (end_at IS NULL OR start_at IS NULL OR end_at > start_at)
);
CREATE INDEX office_request_applicant_idx ON office_request (applicant_id, created_at);
CREATE INDEX office_request_tenant_idx ON office_request (tenant_code, state);

-- Every step of a request (office_request_action dictionary), shown on its detail page.
CREATE TABLE office_request_history (
  id serial PRIMARY KEY,
  request_id integer NOT NULL REFERENCES office_request (id) ON DELETE CASCADE,
  action text NOT NULL CHECK (action IN ('create', 'modify', 'submit', 'approve', 'reject')),
  from_state text,
  to_state text NOT NULL,
  operator_id integer REFERENCES app_user (id) ON DELETE SET NULL,
  remark text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX office_request_history_request_idx ON office_request_history (request_id, created_at);

-- 模板管理: message and work-order text templates with ${变量} placeholders. A null tenant is the
-- platform's template, offered to every tenant; a tenant's own is seen by that tenant only.
CREATE TABLE text_template (
  id serial PRIMARY KEY,
  tenant_code text REFERENCES organization (code),
  -- template_type dictionary
  type text NOT NULL CHECK (type IN ('message', 'work_order')),
  name text NOT NULL,
  content text NOT NULL,
  enabled boolean NOT NULL DEFAULT true,
  remark text NOT NULL DEFAULT '',
  created_by text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX text_template_name_idx ON text_template (COALESCE(tenant_code, ''), type, name);

-- 租户配置: a tenant's settings that differ from the defaults (server/domain/tenantSettings.ts);
-- a setting without a row reads as its default, and resetting deletes the row.
CREATE TABLE tenant_setting (
  tenant_code text NOT NULL REFERENCES organization (code) ON DELETE CASCADE,
  key text NOT NULL,
  value jsonb NOT NULL,
  updated_by text NOT NULL DEFAULT '',
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_code, key)
);

-- 物料管理: spare parts and materials of a tenant (code unique within the tenant), their stock
-- and the level below which the stock warns.
CREATE TABLE material (
  id serial PRIMARY KEY,
  tenant_code text NOT NULL REFERENCES organization (code),
  code text NOT NULL,
  name text NOT NULL,
  -- material_type dictionary
  type text NOT NULL CHECK (type IN ('device', 'accessory', 'consumable', 'tool')),
  specification text NOT NULL DEFAULT '',
  unit text NOT NULL,
  stock numeric(12, 2) NOT NULL DEFAULT 0 CHECK (stock >= 0),
  warning_level numeric(12, 2) NOT NULL DEFAULT 0 CHECK (warning_level >= 0),
  unit_price numeric(12, 2) CHECK (unit_price >= 0),
  supplier text NOT NULL DEFAULT '',
  location text NOT NULL DEFAULT '',
  remark text NOT NULL DEFAULT '',
  created_by text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (tenant_code, code)
);
CREATE INDEX material_tenant_idx ON material (tenant_code, type);
