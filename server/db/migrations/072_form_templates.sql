-- Dynamic form templates (issue 6): what the survey (kind 1), construction (kind 2) and
-- operations (kind 3, maintenance orders) work orders fill in on site. A template belongs to one
-- tenant and one kind and lives in versions: a draft is edited freely; publishing it freezes it
-- (the previous published version becomes superseded); editing a published template starts a new
-- draft. At most one draft and one published version per template. A work order keeps the
-- template and the version it was filled with, so a later version never changes a filled form.
CREATE TABLE form_template (
  id serial PRIMARY KEY,
  tenant_code text NOT NULL REFERENCES organization (code),
  -- dynamic_form_type dictionary: 1 survey, 2 construction, 3 operations
  kind smallint NOT NULL CHECK (kind IN (1, 2, 3)),
  name text NOT NULL,
  description text NOT NULL DEFAULT '',
  creator_id integer REFERENCES app_user (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX form_template_name_idx ON form_template (tenant_code, kind, name);

CREATE TABLE form_template_version (
  template_id integer NOT NULL REFERENCES form_template (id) ON DELETE CASCADE,
  version integer NOT NULL CHECK (version >= 1),
  -- form_template_state dictionary (draft, published, superseded)
  state text NOT NULL CHECK (state IN ('draft', 'published', 'superseded')),
  -- the fields, in order: [{key, label, type, required, placeholder, help, options, min, max, …}]
  fields jsonb NOT NULL CHECK (jsonb_typeof(fields) = 'array'),
  editor_id integer REFERENCES app_user (id) ON DELETE SET NULL,
  publisher_id integer REFERENCES app_user (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  published_at timestamptz,
  PRIMARY KEY (template_id, version),
  CHECK ((state = 'draft') = (published_at IS NULL))
);
CREATE UNIQUE INDEX form_template_version_draft_idx ON form_template_version (template_id) WHERE state = 'draft';
CREATE UNIQUE INDEX form_template_version_published_idx ON form_template_version (template_id) WHERE state = 'published';

-- The version a work order was given (form_template_id names the template). A version an order
-- uses cannot be deleted. Orders written before templates existed named none that can be found:
-- they are detached (their values meant nothing without a template).
ALTER TABLE work_order ADD COLUMN form_template_version integer;
UPDATE work_order SET form_template_id = NULL, form_data = NULL WHERE form_template_id IS NOT NULL;
ALTER TABLE work_order ADD CONSTRAINT work_order_form_template_pair CHECK ((form_template_id IS NULL) = (form_template_version IS NULL) AND (form_data IS NULL OR form_template_id IS NOT NULL));
ALTER TABLE work_order
  ADD CONSTRAINT work_order_form_template_fk FOREIGN KEY (form_template_id, form_template_version) REFERENCES form_template_version (template_id, version);
CREATE INDEX work_order_form_template_idx ON work_order (form_template_id, form_template_version);
