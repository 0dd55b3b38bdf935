-- Two more lists whose order an index served without the page's key (issue 19, as in 096):
-- - 设备健康, by health score then code: the id joins the indexes, so a page's keys are read from
--   the index alone (4.1 ms → 0.7 ms at page 200 of a tenant, 100,000-device world).
-- - 维保工单, by planned start: the list's tie-breaker is created_at then id, which the index lacked,
--   so PostgreSQL fetched and sorted again every row before the page (6.5 ms → 0.6 ms).
CREATE INDEX IF NOT EXISTS device_tenant_health_order_idx ON device (tenant_code, health_score, code) INCLUDE (id) WHERE deleted_at IS NULL;
DROP INDEX IF EXISTS device_tenant_health_idx;
CREATE INDEX IF NOT EXISTS device_health_order_idx ON device (health_score, code) INCLUDE (id) WHERE deleted_at IS NULL;
DROP INDEX IF EXISTS device_health_idx;

CREATE INDEX IF NOT EXISTS work_order_tenant_plan_order_idx ON work_order (tenant_code, plan_start_at DESC, created_at DESC, id DESC) WHERE type = 'maintenance';
DROP INDEX IF EXISTS work_order_tenant_plan_idx;
CREATE INDEX IF NOT EXISTS work_order_plan_order_idx ON work_order (plan_start_at DESC, created_at DESC, id DESC) WHERE type = 'maintenance';
DROP INDEX IF EXISTS work_order_plan_idx;
