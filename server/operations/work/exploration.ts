import { EXPLORATION_EDITABLE, EXPLORATION_TRANSITIONS } from '../../domain/workOrders';
import { optionalTime } from '../../core/params';
import { dictLabel } from '../../core/values';
import { COMMON_COLUMNS } from './fieldOrders';
import { fieldWorkOperations } from './fieldWork';

/**
 * Engineering surveys (工程勘察): before devices are installed somewhere, an implementer goes to
 * look. An administrator plans the survey (a place, a date, a surveyor, the survey form to fill)
 * or the surveyor registers one; the surveyor records findings (in_progress), fills the survey
 * form and concludes (completed, audit pending). The administrator approves the survey (audited)
 * or sends it back (rejected) to be concluded again. A concluded survey is no longer edited.
 */
export const explorationOperations = fieldWorkOperations({
  type: 'exploration',
  page: 'exploration.page',
  detail: 'exploration.detail',
  export: 'exploration.export',
  insert: 'exploration.insert',
  modify: 'exploration.modify',
  delete: 'exploration.delete',
  audit: 'exploration.audit',
  sheetTitle: '工程勘察',
  columns: [
    ...COMMON_COLUMNS,
    { title: '完成时间', value: (r) => r.completed_at },
    { title: '勘察结论', value: (r) => r.result, width: 36 },
    { title: '审核状态', value: (r) => dictLabel('audit_state', r.audit_state) },
  ],
  editable: EXPLORATION_EDITABLE,
  transitions: EXPLORATION_TRANSITIONS,
  planFields: { planStartTime: optionalTime, deadline: optionalTime },
  refused: { modify: '勘察已完成，不能修改', delete: '勘察已完成，不能删除' },
});
