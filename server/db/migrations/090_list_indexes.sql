-- Indexes for the menu lists at platform scale (issue 19; tests/server/postgres-explain.test.ts
-- reads the plan of every list on a grown database and fails on a sequential scan of a big table).
--
-- A list's query is `WHERE <scope> AND <filters> ORDER BY <sort>, <fallback> LIMIT n OFFSET m`, the
-- scope being nothing at the platform root, `tenant_code = $t` at a tenant's root, and
-- `tenant_code = $t AND organization_code = ANY($o)` below it (server/operations/listQuery.ts). So a
-- tenant-scoped table gets one index that leads with tenant_code and goes on with the list's
-- default order and its unique tie-breaker (a deep page walks it and stops: no sort of the whole
-- tenant), and, where platform staff list the whole table, one on the order alone. Indexes the new
-- ones make redundant are dropped here; each index costs every write of its table, so a list whose
-- rows are few (recycled, sleeping devices) gets one small partial index for both scopes.

-- ── device: the lists of live devices ─────────────────────────────────────────────────────────────
-- Device lists filter on the product too (设备物联网卡: not a sub-device; 电池管理: battery-powered;
-- 网关: a gateway), so the indexes they walk carry product_code: the count and the page's choice
-- of rows then read the index alone and join the few products.
-- 全部设备, 设备物联网卡, 品牌设备 (newest first), the tenant's and the platform's (082's, rebuilt
-- with the product).
CREATE INDEX IF NOT EXISTS device_tenant_created_idx ON device (tenant_code, created_at DESC, id DESC) INCLUDE (product_code) WHERE deleted_at IS NULL;
DROP INDEX IF EXISTS device_created_order_idx;
CREATE INDEX IF NOT EXISTS device_created_order_idx ON device (created_at DESC, id DESC) INCLUDE (product_code) WHERE deleted_at IS NULL;
-- The device page by last report (the benchmark's: online, lastSeenTime desc, page 200), with
-- the online state: its count and its choice of rows read the index alone. The platform's is
-- device_last_seen_order_idx (082).
CREATE INDEX IF NOT EXISTS device_tenant_last_seen_idx ON device (tenant_code, last_seen_at DESC, created_at DESC, id DESC) INCLUDE (online_state, product_code)
  WHERE deleted_at IS NULL;
-- The count of a tenant's devices in one online state (the lists' most common filter): an
-- index-only walk of the rows counted, where the planner otherwise reads the table to find them.
CREATE INDEX IF NOT EXISTS device_tenant_state_idx ON device (tenant_code, online_state) WHERE deleted_at IS NULL;
-- 设备健康 (lowest score first).
CREATE INDEX IF NOT EXISTS device_tenant_health_idx ON device (tenant_code, health_score, code) WHERE deleted_at IS NULL;
CREATE INDEX IF NOT EXISTS device_health_idx ON device (health_score, code) WHERE deleted_at IS NULL;
-- 电池管理 (lowest battery first; mains-powered devices have none).
CREATE INDEX IF NOT EXISTS device_tenant_battery_idx ON device (tenant_code, battery_level, id) INCLUDE (product_code) WHERE deleted_at IS NULL AND battery_level IS NOT NULL;
CREATE INDEX IF NOT EXISTS device_battery_idx ON device (battery_level, id) INCLUDE (product_code) WHERE deleted_at IS NULL AND battery_level IS NOT NULL;
-- 休眠设备 and 设备回收站: a few devices each, one small index for every scope.
CREATE INDEX IF NOT EXISTS device_sleeping_idx ON device (sleep_since, code) WHERE sleeping AND deleted_at IS NULL;
CREATE INDEX IF NOT EXISTS device_recycled_idx ON device (deleted_at DESC, code) WHERE deleted_at IS NOT NULL;
-- (tenant_code, deleted_at): a tenant's live devices are the partial indexes above, its recycled
-- ones device_recycled_idx.
DROP INDEX IF EXISTS device_tenant_idx;

-- ── alarm_record: 告警记录 (source device) and 监控告警 (source monitoring), newest first ─────────
CREATE INDEX IF NOT EXISTS alarm_record_tenant_time_idx ON alarm_record (tenant_code, source, triggered_at DESC, id DESC);
DROP INDEX IF EXISTS alarm_record_tenant_idx;
-- 告警配置 counts each rule's recent alarms.
CREATE INDEX IF NOT EXISTS alarm_record_rule_idx ON alarm_record (rule_id, triggered_at DESC);

-- ── device_error: 异常设备, newest first ────────────────────────────────────────────────────────────
-- The list keeps the errors of live devices: the device code rides along for the join.
CREATE INDEX IF NOT EXISTS device_error_tenant_time_idx ON device_error (tenant_code, occurred_at DESC, id DESC) INCLUDE (device_code);
CREATE INDEX IF NOT EXISTS device_error_time_idx ON device_error (occurred_at DESC, id DESC);

-- ── work_order: 维修 / 施工 / 勘察 (newest first) and 运维 (latest planned start first) ────────────
CREATE INDEX IF NOT EXISTS work_order_tenant_created_idx ON work_order (tenant_code, type, created_at DESC, id DESC);
CREATE INDEX IF NOT EXISTS work_order_type_created_idx ON work_order (type, created_at DESC, id DESC);
CREATE INDEX IF NOT EXISTS work_order_tenant_plan_idx ON work_order (tenant_code, plan_start_at DESC, id DESC) WHERE type = 'maintenance';
CREATE INDEX IF NOT EXISTS work_order_plan_idx ON work_order (plan_start_at DESC, id DESC) WHERE type = 'maintenance';
-- 待办 (brand.backlog.page): the open work a manager must act on, by due date. Few rows (what is
-- still open); the predicate is the list's own (server/operations/office/brandBacklog.ts).
CREATE INDEX IF NOT EXISTS work_order_backlog_idx ON work_order (tenant_code, deadline_at)
  WHERE state = 'created' OR (type = 'repair' AND state = 'rejected')
     OR (state = 'completed' AND audit_state = 'pending' AND type IN ('repair', 'construction', 'exploration'));
-- (type, tenant_code, state): work_order_tenant_created_idx serves the same equalities.
DROP INDEX IF EXISTS work_order_scope_idx;

-- ── repair_report, repair_batch, patrol_task: newest (latest planned) first ──────────────────────
CREATE INDEX IF NOT EXISTS repair_report_tenant_created_idx ON repair_report (tenant_code, created_at DESC, id DESC);
CREATE INDEX IF NOT EXISTS repair_report_created_idx ON repair_report (created_at DESC, id DESC);
DROP INDEX IF EXISTS repair_report_tenant_idx;
CREATE INDEX IF NOT EXISTS repair_batch_tenant_created_idx ON repair_batch (tenant_code, created_at DESC, id DESC);
CREATE INDEX IF NOT EXISTS repair_batch_created_idx ON repair_batch (created_at DESC, id DESC);
DROP INDEX IF EXISTS repair_batch_tenant_idx;
CREATE INDEX IF NOT EXISTS patrol_task_tenant_plan_idx ON patrol_task (tenant_code, plan_start_at DESC, id DESC);
CREATE INDEX IF NOT EXISTS patrol_task_plan_idx ON patrol_task (plan_start_at DESC, id DESC);
DROP INDEX IF EXISTS patrol_task_tenant_idx;

-- ── cards ─────────────────────────────────────────────────────────────────────────────────────────
-- 物联网卡 (by ICCID; the platform's is the ICCID's unique index).
CREATE INDEX IF NOT EXISTS sim_card_tenant_iccid_idx ON sim_card (tenant_code, iccid);
-- 充值管理: the customers' cards in service, soonest end first.
CREATE INDEX IF NOT EXISTS sim_card_tenant_service_idx ON sim_card (tenant_code, expires_at, iccid)
  WHERE state IN ('active', 'suspended') AND tenant_code IS NOT NULL AND expires_at IS NOT NULL;
CREATE INDEX IF NOT EXISTS sim_card_service_idx ON sim_card (expires_at, iccid)
  WHERE state IN ('active', 'suspended') AND tenant_code IS NOT NULL AND expires_at IS NOT NULL;
-- 卡定制 and 资费标准 count their cards.
CREATE INDEX IF NOT EXISTS sim_card_custom_idx ON sim_card (custom_code);
CREATE INDEX IF NOT EXISTS sim_card_package_idx ON sim_card (package_code);
-- 卡订单, 充值订单, 续费订单 (the tenant's and the platform's) and 发货单, 换卡单 (the platform's
-- only): newest first.
CREATE INDEX IF NOT EXISTS card_order_tenant_created_idx ON card_order (tenant_code, created_at DESC, id DESC);
CREATE INDEX IF NOT EXISTS card_order_created_idx ON card_order (created_at DESC, id DESC);
CREATE INDEX IF NOT EXISTS card_delivery_created_idx ON card_delivery (created_at DESC, id DESC);
CREATE INDEX IF NOT EXISTS card_alter_created_idx ON card_alter (created_at DESC, id DESC);
CREATE INDEX IF NOT EXISTS card_recharge_tenant_created_idx ON card_recharge (tenant_code, created_at DESC, id DESC);
CREATE INDEX IF NOT EXISTS card_recharge_created_idx ON card_recharge (created_at DESC, id DESC);
CREATE INDEX IF NOT EXISTS card_renew_order_tenant_created_idx ON card_renew_order (tenant_code, created_at DESC, id DESC);
CREATE INDEX IF NOT EXISTS card_renew_order_created_idx ON card_renew_order (created_at DESC, id DESC);
-- 续费管理: soonest expiry first. (The tenant's serves the list once it is scoped by the renewal's
-- own tenant_code rather than its card's: see the allow-list of tests/server/postgres-explain.test.ts.)
CREATE INDEX IF NOT EXISTS card_renew_tenant_expires_idx ON card_renew (tenant_code, expires_at, id);
CREATE INDEX IF NOT EXISTS card_renew_expires_idx ON card_renew (expires_at, id);

-- ── mall and invoices ─────────────────────────────────────────────────────────────────────────────
-- 我的订单 (the tenant's) and 订单管理 (the platform's), newest first.
CREATE INDEX IF NOT EXISTS mall_order_tenant_created_idx ON mall_order (tenant_code, created_at DESC, id DESC);
CREATE INDEX IF NOT EXISTS mall_order_created_idx ON mall_order (created_at DESC, id DESC);
-- 优惠管理 counts each discount's orders.
CREATE INDEX IF NOT EXISTS mall_order_discount_idx ON mall_order (discount_code) WHERE discount_code IS NOT NULL;
-- An order's newest invoice (whatever its state: invoice_order_idx holds only the unrejected) and
-- 发票抬头's count of invoices per title.
CREATE INDEX IF NOT EXISTS invoice_order_all_idx ON invoice (order_code, id DESC);
CREATE INDEX IF NOT EXISTS invoice_title_idx ON invoice (title_id) WHERE title_id IS NOT NULL;
-- 我的发票: newest first.
CREATE INDEX IF NOT EXISTS invoice_tenant_created_idx ON invoice (tenant_code, created_at DESC, id DESC);

-- ── tables without tenant_code ────────────────────────────────────────────────────────────────────
-- login_log (the user's organisations decide who sees a line) and usage_message (organisation_code
-- only): their lists walk the newest first and keep the lines in scope (a tenant holding most of
-- the lines reads a page's worth; one holding few reads far more, until a tenant_code is stored).
CREATE INDEX IF NOT EXISTS login_log_created_order_idx ON login_log (created_at DESC, id DESC);
DROP INDEX IF EXISTS login_log_created_idx;
CREATE INDEX IF NOT EXISTS usage_message_active_idx ON usage_message (active_time DESC, id DESC);
