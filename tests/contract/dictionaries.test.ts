import { describe, expect, it } from 'vitest';
import { readJson, dictionaries, ROLES } from './catalogueData';

describe('the seed dictionaries', () => {
  const byType = new Map(dictionaries.map((d) => [d.dictType, d]));
  const pairs = (type: string) => byType.get(type)?.items.map((i) => [i.value, i.label]);

  it('has each dictType once, and unique values and labels within each', () => {
    const types = dictionaries.map((d) => d.dictType);
    expect(types.filter((t, i) => types.indexOf(t) !== i)).toEqual([]);
    for (const d of dictionaries) {
      const values = d.items.map((i) => i.value);
      const labels = d.items.map((i) => i.label);
      expect(values.filter((v, i) => values.indexOf(v) !== i), d.dictType).toEqual([]);
      expect(labels.filter((v, i) => labels.indexOf(v) !== i), d.dictType).toEqual([]);
    }
  });

  it('labels the menu groups and matches the groups the menu schema allows', () => {
    expect(pairs('menu_classification')).toEqual([
      ['internet', '物联网'], ['project', '项目'], ['platform', '平台'], ['system', '系统'], ['basics', '基础'], ['mall', '商城'],
    ]);
    const schema = readJson('schemas/menus.schema.json') as { $defs: { topLevel: { properties: { group: { enum: string[] } } } } };
    expect(schema.$defs.topLevel.properties.group.enum).toEqual(byType.get('menu_classification')!.items.map((i) => i.value));
  });

  it('names the seven roles and matches the roles the menu schema allows', () => {
    expect(pairs('role_code')).toEqual([
      ['TENANT_ADMIN', '租户管理员'], ['ROLE_TENANT_ORDINARY', '普通用户'], ['ROLE_TENANT_REPAIR', '维修人员'], ['ROLE_TENANT_PATROL', '巡检人员'],
      ['ROLE_REPAIR_IMPLEMENT', '维修实施人员'], ['PLATFORM_ADMIN', '平台管理员'], ['PLATFORM_OPERATOR', '平台运营'],
    ]);
    const schema = readJson('schemas/menus.schema.json') as { $defs: { roles: { items: { enum: string[] } } } };
    expect(schema.$defs.roles.items.enum).toEqual(ROLES);
  });

  it('holds the fixed dictionaries word for word', () => {
    expect(pairs('organization_type')).toEqual([['1', '平台'], ['2', '租户'], ['3', '项目'], ['4', '区域'], ['5', '虚拟组织'], ['6', '部门']]);
    expect(pairs('user_status')).toEqual([['1', '正常'], ['0', '停用']]);
    expect(pairs('notification_tab_type')).toEqual([['1', '日常阅读'], ['2', '系统消息']]);
    expect(pairs('notification_status')).toEqual([['1', '日常阅读'], ['2', '系统消息']]);
    expect(pairs('verification_channel')).toEqual([['sms', '短信'], ['voice', '语音'], ['mail', '邮件']]);
    expect(pairs('app_update_type')).toEqual([['forced', '强制更新'], ['hot', '热更新']]);
  });

  it('has the status and type dictionaries the screens need', () => {
    const values = (type: string) => byType.get(type)?.items.map((i) => i.value);
    expect(values('read_status')).toHaveLength(2);
    expect(values('device_online_state')).toEqual(['online', 'offline', 'inactive']);
    expect(values('work_order_state')).toEqual(['created', 'assigned', 'accepted', 'in_progress', 'completed', 'audited', 'closed', 'rejected']);
    expect(values('card_state')).toEqual(['in_stock', 'testing', 'active', 'suspended', 'deactivated', 'replaced']);
    expect(values('notification_channel_type')).toEqual(['dingtalk', 'feishu', 'mail', 'sms', 'voice', 'wechat']);
    for (const type of ['alarm_level', 'alarm_state', 'ota_task_state', 'work_order_type', 'card_operator', 'card_order_state', 'mall_order_state'])
      expect(values(type)?.length ?? 0, type).toBeGreaterThan(1);
  });
});
