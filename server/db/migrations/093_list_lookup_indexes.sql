-- Indexes for the lists that looked rows up one by one or counted per row (issue 19: the slowest
-- menu lists over 1,000,000 devices after migration 092).

-- 网关管理: the live devices of one (gateway) product in code order, with the scope's columns, so
-- that a tenant's first gateways are the first entries of its product rather than a walk of
-- every device in code order (gateways are a few among many devices; most of a grown world's
-- gateway-product devices are in the recycle bin).
CREATE INDEX IF NOT EXISTS device_product_live_idx ON device (product_code, code) INCLUDE (tenant_code, organization_code) WHERE deleted_at IS NULL;

-- 异常设备: an error of a device in the recycle bin is left out by asking whether its device is
-- among the recycled ones (few), not by reading the device of every error up to the page.
CREATE INDEX IF NOT EXISTS device_recycled_code_idx ON device (code) WHERE deleted_at IS NOT NULL;

-- 品牌专区 · 人员: each member's open work (assigned, accepted or in progress orders; pending or
-- running patrol tasks) is an index-only count of just those, not of every order ever assigned.
CREATE INDEX IF NOT EXISTS work_order_open_assignee_idx ON work_order (assignee_id) WHERE state IN ('assigned', 'accepted', 'in_progress');
CREATE INDEX IF NOT EXISTS patrol_task_open_assignee_idx ON patrol_task (assignee_id) WHERE state IN ('pending', 'in_progress');

-- 维修汇总: the summary groups a tenant's repair orders (tens of thousands) by organisation,
-- assignee, fault type or month; the index holds every column it reads, so the grouping is an
-- index-only scan of the tenant's repair orders.
CREATE INDEX IF NOT EXISTS work_order_tenant_summary_idx ON work_order (tenant_code, type)
  INCLUDE (organization_code, state, deadline_at, created_at, completed_at, cost, assignee_id, fault_type);
