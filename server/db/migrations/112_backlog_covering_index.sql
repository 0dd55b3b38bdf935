-- 品牌待办 (brand.backlog.page, issue 19): the count and the page's choice of open work read the
-- kind, code, priority, organisation, due date and creation time of a tenant's open orders (5,242
-- of them for the first tenant of the bench's 1,000,000-device world, 3,300 heap pages a view).
-- The open orders' index now holds them, so both are index-only scans. The predicate is the
-- list's own (server/operations/office/brandBacklog.ts, OPEN_ORDER.manager), as in migration 090.
DROP INDEX IF EXISTS work_order_backlog_idx;
CREATE INDEX work_order_backlog_idx ON work_order (tenant_code, deadline_at)
  INCLUDE (type, code, priority, created_at, organization_code)
  WHERE state = 'created' OR (type = 'repair' AND state = 'rejected')
     OR (state = 'completed' AND audit_state = 'pending' AND type IN ('repair', 'construction', 'exploration'));
