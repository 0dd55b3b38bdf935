import { CustomerServiceOutlined } from '@ant-design/icons';
import { Button, Popover, Spin } from 'antd';
import { lazyView } from '../../renderers/runtime/lazyView';

/** The operations contacts the widget shows. */
export const OPERATIONS_CONTACT = {
  phone: '400-820-6688',
  mail: 'ops@iot-console.example',
  hours: '周一至周五 09:00-18:00',
} as const;

export const CONTACT_LABEL = '运维联系';

// The contacts load when the popover first opens (issue 35).
const ContactCard = lazyView(() => import('./ContactCard'), <Spin size="small" />);

/**
 * The operations contact widget (SPEC §1): a 运维联系 button docked in the top bar, opening the
 * contacts. It used to float over the bottom right of the content, where it covered the last row's
 * actions and the pager's 跳至 box; in the top bar it covers nothing. `compact` (a narrow frame):
 * the icon alone.
 */
export function ContactWidget({ compact = false }: { compact?: boolean }) {
  return (
    <Popover trigger="click" placement="bottomRight" title={CONTACT_LABEL} content={<ContactCard />}>
      <Button type="text" icon={<CustomerServiceOutlined aria-hidden />} aria-label={CONTACT_LABEL} data-testid="contact-widget" style={{ flex: 'none', paddingInline: compact ? undefined : 8 }}>
        {compact ? null : CONTACT_LABEL}
      </Button>
    </Popover>
  );
}
