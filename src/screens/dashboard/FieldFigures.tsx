import type { DataOf } from '../../api/typed';
import type { MenuResource } from '../../session/types';
import { listLink } from './figureLinks';
import { FigureRow, FigureTile } from './FigureTile';
import { SectionTitle } from './TenantFigures';

type FieldHome = DataOf<'home.field.summary'>;

const REPAIR = 'repair/order';
const PATROL = 'patrol/list';

/** 工作台 of the field staff: their own repair orders and patrol tasks, each state leading to its list. */
export function FieldFigures({ home, menus }: { home: FieldHome; menus: readonly MenuResource[] }) {
  return (
    <>
      {home.repair ? (
        <>
          <SectionTitle>我的维修工单</SectionTitle>
          <FigureRow label="我的维修工单">
            {[
              <FigureTile key="assigned" name="repair-assigned" label="待接单（已派单）" tone="warning" value={home.repair.assigned} unit="单" link={listLink(menus, REPAIR, { state: 'assigned' })} />,
              <FigureTile key="accepted" name="repair-accepted" label="已接单" tone="processing" value={home.repair.accepted} unit="单" link={listLink(menus, REPAIR, { state: 'accepted' })} />,
              <FigureTile key="progress" name="repair-in-progress" label="处理中" tone="processing" value={home.repair.inProgress} unit="单" link={listLink(menus, REPAIR, { state: 'in_progress' })} />,
              <FigureTile key="overdue" name="repair-overdue" label="已超期" tone="error" value={home.repair.overdue} unit="单" link={listLink(menus, REPAIR, { overdue: '1' })} />,
            ]}
          </FigureRow>
        </>
      ) : null}
      {home.patrol ? (
        <>
          <SectionTitle>我的巡检任务</SectionTitle>
          <FigureRow label="我的巡检任务">
            {[
              <FigureTile key="pending" name="patrol-pending" label="待巡检" tone="warning" value={home.patrol.pending} unit="项" link={listLink(menus, PATROL, { state: 'pending' })} />,
              <FigureTile key="progress" name="patrol-in-progress" label="巡检中" tone="processing" value={home.patrol.inProgress} unit="项" link={listLink(menus, PATROL, { state: 'in_progress' })} />,
              <FigureTile key="overdue" name="patrol-overdue" label="已逾期" tone="error" value={home.patrol.overdue} unit="项" link={listLink(menus, PATROL, { state: 'overdue' })} />,
            ]}
          </FigureRow>
        </>
      ) : null}
    </>
  );
}
