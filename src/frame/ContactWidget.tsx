import { CustomerServiceOutlined, MailOutlined, PhoneOutlined, ClockCircleOutlined } from '@ant-design/icons';
import { FloatButton, Popover, Space, Typography } from 'antd';

/** The operations contacts the widget shows. */
export const OPERATIONS_CONTACT = {
  phone: '400-820-6688',
  mail: 'ops@iot-console.example',
  hours: '周一至周五 09:00-18:00',
} as const;

function ContactCard() {
  return (
    <Space direction="vertical" size={8} data-testid="operations-contact">
      <Space>
        <PhoneOutlined />
        <Typography.Text>服务热线：</Typography.Text>
        <Typography.Link href={`tel:${OPERATIONS_CONTACT.phone.replace(/-/g, '')}`}>{OPERATIONS_CONTACT.phone}</Typography.Link>
      </Space>
      <Space>
        <MailOutlined />
        <Typography.Text>运维邮箱：</Typography.Text>
        <Typography.Link href={`mailto:${OPERATIONS_CONTACT.mail}`}>{OPERATIONS_CONTACT.mail}</Typography.Link>
      </Space>
      <Space>
        <ClockCircleOutlined />
        <Typography.Text>工作时间：{OPERATIONS_CONTACT.hours}</Typography.Text>
      </Space>
    </Space>
  );
}

/**
 * Overlays (drawers, modals) start at antd's zIndexPopupBase, 1000, as does FloatButton: the widget
 * sits just below them, so an open drawer covers it instead of the widget covering the drawer's
 * 提交 button in the same corner.
 */
export const CONTACT_WIDGET_Z_INDEX = 999;

/** The operations contact widget (SPEC §1): a floating 运维联系 button at the bottom right. */
export function ContactWidget() {
  return (
    <Popover trigger="click" placement="topRight" title="运维联系" content={<ContactCard />}>
      <FloatButton icon={<CustomerServiceOutlined />} description="运维联系" shape="square" style={{ insetInlineEnd: 24, insetBlockEnd: 24, width: 64, zIndex: CONTACT_WIDGET_Z_INDEX }} aria-label="运维联系" />
    </Popover>
  );
}
