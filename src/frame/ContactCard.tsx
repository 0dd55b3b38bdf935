import { ClockCircleOutlined, MailOutlined, PhoneOutlined } from '@ant-design/icons';
import { Space, Typography } from 'antd';
import { OPERATIONS_CONTACT } from './ContactWidget';

/** The operations contacts, in the 运维联系 popover (its own chunk, loaded when first opened). */
export default function ContactCard() {
  return (
    <Space direction="vertical" size={8} data-testid="operations-contact">
      <Space>
        <PhoneOutlined aria-hidden />
        <Typography.Text>服务热线：</Typography.Text>
        <Typography.Link href={`tel:${OPERATIONS_CONTACT.phone.replace(/-/g, '')}`}>{OPERATIONS_CONTACT.phone}</Typography.Link>
      </Space>
      <Space>
        <MailOutlined aria-hidden />
        <Typography.Text>运维邮箱：</Typography.Text>
        <Typography.Link href={`mailto:${OPERATIONS_CONTACT.mail}`}>{OPERATIONS_CONTACT.mail}</Typography.Link>
      </Space>
      <Space>
        <ClockCircleOutlined aria-hidden />
        <Typography.Text>工作时间：{OPERATIONS_CONTACT.hours}</Typography.Text>
      </Space>
    </Space>
  );
}
