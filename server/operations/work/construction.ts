import { CONSTRUCTION_EDITABLE, CONSTRUCTION_TRANSITIONS } from '../../domain/workOrders';
import { orNull, timeRange } from '../../core/params';
import { dictLabel } from '../../core/values';
import { COMMON_COLUMNS } from './fieldOrders';
import { fieldWorkOperations } from './fieldWork';

/**
 * Construction orders (施工): an administrator plans one for an implementer, or the implementer
 * registers the work himself. The constructor reports progress (in_progress) and submits the
 * finished work (completed, audit pending); the administrator approves it (audited) or sends it
 * back (rejected), and the constructor submits again. Submitted or approved work is not edited.
 */
export const constructionOperations = fieldWorkOperations({
  type: 'construction',
  page: 'construction.page',
  detail: 'construction.detail',
  export: 'construction.export',
  insert: 'construction.insert',
  modify: 'construction.modify',
  delete: 'construction.delete',
  audit: 'construction.audit',
  sheetTitle: '施工管理',
  columns: [
    ...COMMON_COLUMNS,
    { title: '审核状态', value: (r) => dictLabel('audit_state', r.audit_state) },
    { title: '提交时间', value: (r) => r.completed_at },
    { title: '施工情况', value: (r) => r.result, width: 36 },
  ],
  editable: CONSTRUCTION_EDITABLE,
  transitions: CONSTRUCTION_TRANSITIONS,
  planFields: { planTime: orNull(timeRange) },
  refused: { modify: '施工单已提交审核或已审核，不能修改', delete: '施工单已提交审核或已审核，不能删除' },
});
