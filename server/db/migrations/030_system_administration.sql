-- System administration (roles, dictionaries, organisations): tenant-owned roles and the creation
-- times the administration lists show. A role without an organisation is the platform's (the seven
-- built-in roles and any role platform staff create); a role with one belongs to that tenant and
-- only its tenant admins and platform staff manage it.
ALTER TABLE role ADD COLUMN organization_code text REFERENCES organization (code);
ALTER TABLE role ADD COLUMN remark text NOT NULL DEFAULT '';
ALTER TABLE role ADD COLUMN created_at timestamptz NOT NULL DEFAULT now();
CREATE INDEX role_organization_idx ON role (organization_code);

ALTER TABLE dict_type ADD COLUMN created_at timestamptz NOT NULL DEFAULT now();
ALTER TABLE dict_item ADD COLUMN created_at timestamptz NOT NULL DEFAULT now();

-- The counts the lists show (users per role and per organisation, grants per resource).
CREATE INDEX user_role_role_idx ON user_role (role_code);
CREATE INDEX user_organization_organization_idx ON user_organization (organization_code);
CREATE INDEX role_resource_resource_idx ON role_resource (resource_code);
