import { isConnectionLost } from '../db/postgres';
import { entityUniqueMessages } from '../entities/definition';
import { ApiFailure } from './envelope';

/**
 * What the database refused, in the product's words: the one place where a PostgreSQL error
 * (PGlite's carry the same fields) becomes an answer. A unique key taken (23505) is "409" with a
 * sentence naming the conflict, looked up by the constraint's name; a reference that broke
 * (23503) is "409" too; a transaction the database still could not serialise after its retries
 * (40001, 40P01) is "409" 数据已被他人修改; a statement cancelled by the statement timeout or a
 * connection that was lost is "503" 服务繁忙. Anything else is a fault of the server ("500").
 */

export const DUPLICATE_MESSAGE = '数据已存在，请勿重复提交';
export const CONCURRENT_CHANGE_MESSAGE = '数据已被他人修改，请刷新后重试';
export const BUSY_MESSAGE = '服务繁忙，请稍后重试';
export const REFERENCE_CHANGED_MESSAGE = '关联的数据已变化，请刷新后重试';

/**
 * The sentence for each unique constraint and unique index of the migrations, by name (PostgreSQL's
 * default names: `<table>_<columns>_key`, `<table>_pkey`; the `_idx` ones are named in the
 * migrations). Where a handler already answers the same conflict, the sentence is the handler's.
 * A serial `id` primary key is never written by hand and needs none; a constraint missing here
 * answers DUPLICATE_MESSAGE (tests/server/constraints.test.ts keeps this table complete).
 */
export const UNIQUE_MESSAGES: Readonly<Record<string, string>> = {
  // Users, organisations, roles, menus, dictionaries, labels
  app_user_login_name_key: '账号已存在',
  app_user_phone_key: '手机号已被使用',
  app_user_mail_key: '邮箱已被使用',
  app_user_wechat_open_id_key: '该微信已绑定其他账号',
  app_user_code_key: '用户编码已存在，请重试',
  user_organization_pkey: '用户的所属组织已被他人修改，请刷新后重试',
  user_role_pkey: '用户的角色已被他人修改，请刷新后重试',
  organization_code_key: '组织编码已存在，请重试',
  role_pkey: '角色编码已存在',
  role_resource_pkey: '角色的权限已被他人修改，请刷新后重试',
  resource_pkey: '资源编码已存在',
  // Written at start-up under the migration lock (server/seed/catalogueSync.ts): no caller meets it.
  catalogue_delivery_pkey: '菜单与字典的同步记录已存在，请重启服务',
  // Devices (issue 22): issuing a secret is an upsert, so this only guards a write that bypasses it.
  device_credential_pkey: '设备的接入凭证已被他人重置，请刷新后重试',
  // One episode per rule and device, taken with ON CONFLICT DO NOTHING: only a write that bypasses that meets it.
  alarm_rule_episode_pkey: '该设备的告警状态已被同时更新，请重试',
  dict_type_pkey: '字典类型已存在',
  dict_item_pkey: '该字典下已有相同值的字典项',
  tenant_label_constant_pkey: '标签已被他人修改，请刷新后重试',
  // Sessions, files, access keys, settings
  auth_session_access_hash_key: '登录状态冲突，请重新登录',
  auth_session_refresh_hash_key: '登录状态冲突，请重新登录',
  wechat_ticket_pkey: '二维码冲突，请刷新二维码',
  wechat_bind_key_pkey: '绑定已失效，请重新扫码',
  uploaded_file_path_key: '文件已存在，请重新上传',
  tenant_access_key_pkey: '该租户已有访问密钥',
  tenant_access_key_access_key_key: '访问密钥冲突，请重试',
  webhook_code_key: 'Webhook 编码冲突，请重试',
  tenant_setting_pkey: '租户配置已被他人修改，请刷新后重试',
  schema_migration_pkey: '数据库结构正在升级，请稍后重试',
  // Counters written with ON CONFLICT (issues 30, 31, 34): only a write that bypasses the upsert meets them.
  telemetry_minute_pkey: '每分钟读数统计已被同时更新，请重试',
  device_state_day_pkey: '设备状态日统计已被同时更新，请重试',
  login_account_failure_pkey: '账号的登录失败记录已被同时更新，请重试',
  channel_access_token_pkey: '发送渠道的访问令牌已被同时更新，请重试',
  firmware_file_pkey: '固件文件已存在，请重新上传',
  // The external broker's device accounts and the bridge's leased sessions (issue 36), each written conditionally.
  broker_account_pkey: '设备的代理账号已被同时更新，请重试',
  mqtt_bridge_session_pkey: '消息代理的会话已被另一实例接管，请重试',
  // Devices, alarms, firmware, apps
  device_code_key: '设备编码已存在',
  device_iccid_key: '该物联网卡已绑定其他设备',
  device_care_pkey: '已关注该设备',
  // Only the triggers of migration 092 write the device tally, and they upsert: no caller meets it.
  device_tally_pkey: '设备数据已被他人修改，请刷新后重试',
  sim_card_package_tally_pkey: '物联网卡数据已被他人修改，请刷新后重试',
  // Written by migration 111's triggers only (upserts), like the device tally.
  repair_order_tally_pkey: '维修工单数据已被他人修改，请刷新后重试',
  device_category_code_key: '分类编码已存在',
  product_code_key: '产品编码已存在',
  product_tenant_setting_pkey: '产品配置已被他人修改，请刷新后重试',
  device_telemetry_pkey: '该时刻的设备数据已存在',
  device_error_code_key: '故障编码冲突，请重试',
  device_health_sample_pkey: '该设备当天的健康数据已存在',
  device_import_error_pkey: '导入错误记录重复',
  camera_code_key: '摄像头编码冲突，请重试',
  alarm_rule_code_key: '告警配置编码已存在，请重试',
  alarm_record_code_key: '告警编码冲突，请重试',
  tag_display_config_pkey: '标签显示配置已被他人修改，请刷新后重试',
  upgrade_package_code_key: '升级包编码冲突，请重试',
  upgrade_package_version_idx: '该产品已有相同版本和类型的升级包',
  upgrade_task_code_key: '升级任务编码冲突，请重试',
  upgrade_task_device_pkey: '该设备已在升级任务中',
  app_version_platform_update_type_version_key: '该平台已有相同版本号或构建号的版本',
  app_version_platform_update_type_build_number_key: '该平台已有相同版本号或构建号的版本',
  feedback_code_key: '反馈编码冲突，请重试',
  online_configuration_code_key: '组态编码已存在',
  // Work orders, patrol, office
  work_order_code_key: '工单编号冲突，请重试',
  repair_batch_code_key: '维修批次编号冲突，请重试',
  repair_report_code_key: '维修报告编号冲突，请重试',
  patrol_task_code_key: '巡检任务编号冲突，请重试',
  patrol_task_device_pkey: '该设备已在巡检任务中',
  patrol_record_task_id_device_code_key: '该设备已提交巡检记录',
  office_request_code_key: '申请编号冲突，请重试',
  project_area_pkey: '该区域的资料已存在',
  text_template_name_idx: '同类模板中已有同名模板',
  material_tenant_code_code_key: '物料编码已存在',
  form_template_name_idx: '同类模板中已有同名模板',
  form_template_version_pkey: '模板版本已被他人修改，请刷新后重试',
  form_template_version_draft_idx: '该模板已有草稿，请刷新后重试',
  form_template_version_published_idx: '该模板已有发布的版本，请刷新后重试',
  // Notifications
  notification_recipient_pkey: '该用户已在接收人中',
  notification_channel_code_key: '渠道编码冲突，请重试',
  notification_channel_name_idx: '渠道名称已存在',
  maintained_notification_code_key: '消息编号冲突，请重试',
  notification_send_code_key: '发送记录编号冲突，请重试',
  // Cards
  card_order_code_key: '订单编号冲突，请重试',
  card_order_sale_order_code_key: '该销售订单已关联其他订单',
  card_sale_order_pkey: '销售订单编号已存在',
  card_supplier_pkey: '供应商编码已存在',
  card_charge_standard_code_key: '资费标准编码已存在',
  card_charge_standard_package_idx: '已有相同运营商、网络与流量的资费标准',
  card_custom_code_key: '定制卡编码已存在',
  card_stock_batch_code_key: '入库批次编号冲突，请重试',
  sim_card_iccid_key: 'ICCID 已存在',
  sim_card_msisdn_key: 'MSISDN 已存在',
  card_delivery_code_key: '发货单编号冲突，请重试',
  card_delivery_item_pkey: '该卡已在本发货单中',
  card_alter_code_key: '换卡单编号冲突，请重试',
  card_alter_item_alter_code_old_iccid_key: '该卡已在本换卡单中',
  card_renew_order_code_key: '续费订单编号冲突，请重试',
  card_renew_iccid_expires_at_key: '该卡本期已续费',
  card_recharge_code_key: '充值订单编号冲突，请重试',
  card_recharge_item_pkey: '该卡已在本充值订单中',
  card_flow_daily_pkey: '当天的流量统计已存在',
  card_sync_pkey: '同步记录已被他人修改，请刷新后重试',
  // Mall
  mall_goods_code_key: '商品编码冲突，请重试',
  mall_discount_code_key: '优惠编码冲突，请重试',
  mall_address_default_idx: '默认地址已被他人修改，请刷新后重试',
  mall_order_code_key: '订单编号冲突，请重试',
  mall_order_pay_no_key: '该支付单号已被使用',
  mall_order_card_pkey: '该卡已在本订单中',
  mall_order_card_iccid_idx: '该物联网卡已被其他订单占用',
  invoice_title_tax_idx: '该税号的抬头已存在',
  invoice_code_key: '发票申请编号冲突，请重试',
  invoice_order_idx: '该订单已申请开票，不能重复申请',
  // Sign-in limits, captchas and the file-signing key (written by one upsert each; a clash is a race)
  login_failure_pkey: '登录状态冲突，请重试',
  rate_counter_pkey: '操作过于频繁，请稍后再试',
  captcha_pkey: '图形验证码冲突，请刷新图形验证码',
  server_secret_pkey: '服务密钥冲突，请重试',
  // Open platform (issue 23): a nonce is taken by one insert; the clash is the replay it refuses.
  open_api_nonce_pkey: '请求已被使用（x-nonce 重复），请换一个 nonce 重新签名',
  // The managed entities' unique fields (schemas/entities, issue 25): <field title>已存在.
  ...entityUniqueMessages(),
};

/** What a referenced row is called, by its table (for 23503: 该组织仍被其他数据使用，不能删除). */
const TABLE_NOUNS: Readonly<Record<string, string>> = {
  organization: '组织',
  app_user: '用户',
  role: '角色',
  resource: '菜单资源',
  dict_type: '字典',
  device: '设备',
  device_category: '设备分类',
  device_import: '导入记录',
  product: '产品',
  alarm_rule: '告警配置',
  upgrade_package: '升级包',
  upgrade_task: '升级任务',
  work_order: '工单',
  repair_batch: '维修批次',
  patrol_task: '巡检任务',
  office_request: '申请',
  form_template: '表单模板',
  form_template_version: '表单模板版本',
  notification: '通知',
  notification_channel: '通知渠道',
  notification_send: '消息',
  sim_card: '物联网卡',
  card_supplier: '供应商',
  card_charge_standard: '资费标准',
  card_custom: '定制卡',
  card_order: '订单',
  card_stock_batch: '入库批次',
  card_delivery: '发货单',
  card_alter: '换卡单',
  card_renew_order: '续费订单',
  card_recharge: '充值订单',
  mall_goods: '商品',
  mall_discount: '优惠',
  mall_order: '订单',
  invoice_title: '发票抬头',
};

/** The fields of a PostgreSQL error that the mapping reads (pg's DatabaseError and PGlite's alike). */
export interface DatabaseErrorFields {
  code: string;
  constraint?: string;
  detail?: string;
  message: string;
}

/** The SQLSTATE of a database error (or a Node socket error code), else undefined. */
export function sqlStateOf(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' ? code : undefined;
}

function fieldsOf(error: unknown): DatabaseErrorFields | null {
  const code = sqlStateOf(error);
  if (!code) return null;
  const read = (name: 'constraint' | 'detail') => {
    const value = (error as Record<string, unknown>)[name];
    return typeof value === 'string' ? value : undefined;
  };
  return { code, constraint: read('constraint'), detail: read('detail'), message: error instanceof Error ? error.message : '' };
}

/** A unique key taken meanwhile (23505). */
export const isUniqueViolation = (error: unknown): boolean => sqlStateOf(error) === '23505';

/** A reference that broke: the referenced row is gone, or a row still referenced was deleted (23503). */
export const isForeignKeyViolation = (error: unknown): boolean => sqlStateOf(error) === '23503';

/**
 * The sentence for the unique key `constraint`. A partition's key (device_telemetry by month,
 * migration 108: `device_telemetry_p202611_pkey`, `device_telemetry_default_pkey`) is the one its
 * partitioned table declares, and PostgreSQL names the partition's in a refusal.
 */
export function uniqueMessageFor(constraint: string): string | undefined {
  const own = UNIQUE_MESSAGES[constraint];
  if (own) return own;
  const partition = /^(.+)_(?:p\d{6}|default)_pkey$/.exec(constraint);
  return partition ? UNIQUE_MESSAGES[`${partition[1]}_pkey`] : undefined;
}

/** "409" with the sentence for the unique constraint `constraint`. */
export function uniqueConflict(constraint: string | undefined): ApiFailure {
  return new ApiFailure('409', (constraint && uniqueMessageFor(constraint)) || DUPLICATE_MESSAGE);
}

/**
 * "409" for a broken reference. PostgreSQL words the two cases apart (in English, as the servers
 * here run): `Key (code)=(T0001) is still referenced from table "device".` when a row still used
 * was deleted, `Key (role_code)=(X) is not present in table "role".` when the row a write points
 * at is gone. Either names the table whose row it is about.
 */
export function referenceConflict(error: Pick<DatabaseErrorFields, 'detail' | 'message'>): ApiFailure {
  const text = `${error.detail ?? ''} ${error.message}`;
  const missing = /is not present in table "([^"]+)"/.exec(text);
  if (missing) return new ApiFailure('409', `所选${TABLE_NOUNS[missing[1]] ?? '数据'}不存在或已被删除，请刷新后重试`);
  const deleted = /update or delete on table "([^"]+)"/.exec(text);
  if (deleted || /is still referenced/.test(text)) {
    const noun = deleted ? (TABLE_NOUNS[deleted[1]] ?? '数据') : '数据';
    return new ApiFailure('409', `该${noun}仍被其他数据使用，不能删除`);
  }
  return new ApiFailure('409', REFERENCE_CHANGED_MESSAGE);
}

/** SQLSTATEs of a database too busy to answer now: a cancelled statement (the statement timeout), a lock not granted, no connection slot. */
const BUSY_STATES = new Set(['57014', '55P03', '53300', '53400']);

/** Why the pool could not hand out a connection in time (pg-pool's own error, without a SQLSTATE). */
const POOL_TIMEOUT = /timeout exceeded when trying to connect|Connection terminated due to connection timeout/i;

/**
 * The answer for an error the database raised, or null when it is not one of those above (then it
 * is a fault of the server, "500").
 */
export function databaseFailureOf(error: unknown): ApiFailure | null {
  const fields = fieldsOf(error);
  if (fields?.code === '23505') return uniqueConflict(fields.constraint);
  if (fields?.code === '23503') return referenceConflict(fields);
  if (fields?.code === '40001' || fields?.code === '40P01') return new ApiFailure('409', CONCURRENT_CHANGE_MESSAGE);
  if (fields && BUSY_STATES.has(fields.code)) return new ApiFailure('503', BUSY_MESSAGE);
  if (isConnectionLost(error)) return new ApiFailure('503', BUSY_MESSAGE);
  if (error instanceof Error && POOL_TIMEOUT.test(error.message)) return new ApiFailure('503', BUSY_MESSAGE);
  return null;
}
