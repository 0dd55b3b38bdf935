-- What the schema files' catalogue (menus, buttons, their role grants, dictionaries and their items)
-- has delivered to this database (server/seed/catalogueSync.ts, issue 25): each entry is added on
-- start once, and one that staff deleted afterwards is not brought back. A database from before
-- this migration records what it has now; what the files hold and it lacks (a screen added to the
-- files since it was seeded, or an entry staff deleted before this migration) is delivered on the
-- next start.
CREATE TABLE catalogue_delivery (
  kind text NOT NULL CHECK (kind IN ('resource', 'grant', 'dict_type', 'dict_item')),
  key text NOT NULL,
  delivered_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (kind, key)
);
INSERT INTO catalogue_delivery (kind, key) SELECT 'resource', code FROM resource;
INSERT INTO catalogue_delivery (kind, key) SELECT 'grant', role_code || ' ' || resource_code FROM role_resource;
INSERT INTO catalogue_delivery (kind, key) SELECT 'dict_type', type FROM dict_type;
INSERT INTO catalogue_delivery (kind, key) SELECT 'dict_item', type || ' ' || value FROM dict_item;
