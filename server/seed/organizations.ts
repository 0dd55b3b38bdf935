import type { Row } from '../db/bulk';
import { ORGANIZATION_TYPE, PLATFORM_CODE } from '../domain/organizations';

/** An organisation of the demo world; codes extend their parent's. */
export interface SeedOrganization {
  code: string;
  name: string;
  type: number;
  children?: SeedOrganization[];
}

const { platform, tenant, project, area, virtual, department } = ORGANIZATION_TYPE;

/** The platform, its two tenants, their projects, areas (nested), departments and a virtual node each. */
export const ORGANIZATIONS: SeedOrganization = {
  code: PLATFORM_CODE,
  name: '云联物联网平台',
  type: platform,
  children: [
    {
      code: 'T0001',
      name: '杭州云联科技有限公司',
      type: tenant,
      children: [
        {
          code: 'T0001P01',
          name: '西湖智慧水务项目',
          type: project,
          children: [
            {
              code: 'T0001P01A01',
              name: '西湖区供水片区',
              type: area,
              children: [
                { code: 'T0001P01A0101', name: '灵隐加压泵站', type: area },
                { code: 'T0001P01A0102', name: '龙井水厂', type: area },
              ],
            },
            { code: 'T0001P01A02', name: '上城区管网片区', type: area, children: [{ code: 'T0001P01A0201', name: '湖滨监测站', type: area }] },
          ],
        },
        {
          code: 'T0001P02',
          name: '钱塘智慧园区项目',
          type: project,
          children: [
            { code: 'T0001P02A01', name: '下沙园区', type: area, children: [{ code: 'T0001P02A0101', name: '一号厂房', type: area }] },
            { code: 'T0001P02A02', name: '江东园区', type: area },
          ],
        },
        {
          code: 'T0001D01',
          name: '运维中心',
          type: department,
          children: [
            { code: 'T0001D0101', name: '运维一组', type: department },
            { code: 'T0001D0102', name: '运维二组', type: department },
          ],
        },
        { code: 'T0001D02', name: '技术研发部', type: department, children: [{ code: 'T0001D0201', name: '硬件组', type: department }] },
        { code: 'T0001V01', name: '外协虚拟组织', type: virtual },
      ],
    },
    {
      code: 'T0002',
      name: '苏州智水环境科技有限公司',
      type: tenant,
      children: [
        {
          code: 'T0002P01',
          name: '太湖水质监测项目',
          type: project,
          children: [
            {
              code: 'T0002P01A01',
              name: '吴中区监测片区',
              type: area,
              children: [
                { code: 'T0002P01A0101', name: '东山监测点', type: area },
                { code: 'T0002P01A0102', name: '光福监测点', type: area },
              ],
            },
            { code: 'T0002P01A02', name: '相城区监测片区', type: area },
          ],
        },
        {
          code: 'T0002P02',
          name: '园区污水处理项目',
          type: project,
          children: [{ code: 'T0002P02A01', name: '金鸡湖片区', type: area, children: [{ code: 'T0002P02A0101', name: '星海泵站', type: area }] }],
        },
        { code: 'T0002D01', name: '工程部', type: department, children: [{ code: 'T0002D0101', name: '工程一队', type: department }] },
        { code: 'T0002D02', name: '客户服务部', type: department },
        { code: 'T0002V01', name: '合作伙伴虚拟组织', type: virtual },
      ],
    },
  ],
};

/** Every organisation, parents first, with its parent code. */
export function flattenOrganizations(root: SeedOrganization = ORGANIZATIONS): Array<SeedOrganization & { parentCode: string | null }> {
  const out: Array<SeedOrganization & { parentCode: string | null }> = [];
  const walk = (node: SeedOrganization, parentCode: string | null) => {
    out.push({ ...node, parentCode });
    node.children?.forEach((child) => walk(child, node.code));
  };
  walk(root, null);
  return out;
}

export function organizationRows(): Row[] {
  return flattenOrganizations().map((org, index) => ({
    id: index + 1,
    code: org.code,
    name: org.name,
    type: org.type,
    parent_code: org.parentCode,
    sort: index + 1,
  }));
}
