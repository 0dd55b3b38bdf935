import { DeleteOutlined, EnvironmentOutlined } from '@ant-design/icons';
import { Alert, Button, Card, Col, Descriptions, Empty, Input, InputNumber, Radio, Row, Select, Skeleton, Space, Table, Tag, Typography } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { useOperationMutation, useOperationQuery } from '../../api/data';
import { notify } from '../../api/notifier';
import { maskPhone } from '../../format/phone';
import type { ScreenProps } from '../registry';
import { GoodsPicture } from './GoodsPicture';
import { MAX_LINE_QUANTITY, money, parseOrderLines, SHOPPING_PATHS, type OrderLine } from './shopping';
import { expectedFailures } from '../../../renderers/runtime/errorReporter';

interface Address {
  id: number;
  receiver: string;
  phone: string;
  fullAddress: string;
  isDefault: boolean;
}

interface DiscountOption {
  code: string;
  name: string;
  ruleText: string;
  amount: number;
  label: string;
}

interface Preview {
  items: Array<{ goodsCode: string; goodsName: string; spec: string; unit: string; image: string; unitPrice: number; quantity: number; amount: number; stock: number }>;
  goodsAmount: number;
  discountAmount: number;
  freightAmount: number;
  payAmount: number;
  discount: DiscountOption | null;
  discounts: DiscountOption[];
  freeFreightThreshold: number;
  payTimeoutHours: number;
}

/** The discount asked for: the server's best (undefined), none ('') or a code. */
type DiscountChoice = string | undefined;

const PREVIEW_DELAY_MS = 250;
const NO_DISCOUNT = '';

/** 确认订单: the lines, the address, the discount and the server's amounts; submitting places the order. */
export default function ConfirmOrderPage({ menu }: ScreenProps) {
  const navigate = useNavigate();
  const { search } = useLocation();
  const canSubmit = menu.buttonList?.some((button) => button.resourceUrl === 'mall.order.submit') ?? false;
  const [lines, setLines] = useState<OrderLine[]>(() => parseOrderLines(new URLSearchParams(search).get('items')));
  const [discount, setDiscount] = useState<DiscountChoice>(undefined);
  const [chosenAddress, setAddressId] = useState<number | null>(null);
  const [remark, setRemark] = useState('');

  // The receiving addresses; a failure shows in their place (重试).
  const addressList = useOperationQuery('mall.address.list', {}, { handlesErrors: true });
  const addresses: Address[] | null = addressList.data ?? null;
  const addressFailure = addressList.error;
  const addressId = chosenAddress ?? addresses?.find((address) => address.isDefault)?.id ?? addresses?.[0]?.id ?? null;

  const request = useMemo(() => ({ items: lines, ...(discount === undefined ? {} : { discountCode: discount }) }), [lines, discount]);
  // The server prices what was entered once the user paused (PREVIEW_DELAY_MS): the lines' request
  // as last settled. A failure shows in its place (重新计算); one replaced by a newer request is
  // cancelled through TanStack's signal.
  const [settled, setSettled] = useState(request);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(request), PREVIEW_DELAY_MS);
    return () => clearTimeout(timer);
  }, [request]);
  const priced = useOperationQuery('mall.order.preview', settled, { enabled: lines.length > 0, handlesErrors: true, keepPrevious: true });
  const pricing = settled !== request || priced.fetching || priced.loading;
  const preview: Preview | null = pricing ? (priced.data ?? null) : priced.error ? null : (priced.data ?? null);
  const again = () => {
    addressList.reload();
    priced.reload();
  };
  // An order placed changes the orders, and the goods' stock and sales the lists show.
  const placeOrder = useOperationMutation('mall.order.submit', { invalidates: ['mall.goods.page', 'mall.goods.detail', 'mall.goods.list'] });
  const submitting = placeOrder.isPending;

  // Changing the lines lets the server pick the best discount again.
  const changeLines = (next: OrderLine[]) => {
    setLines(next);
    setDiscount(undefined);
  };

  const submit = async () => {
    if (!preview || addressId === null) return;
    try {
      const order = await placeOrder.mutateAsync({
        items: lines,
        addressId,
        discountCode: preview.discount?.code ?? NO_DISCOUNT,
        remark: remark.trim(),
        expectedPayAmount: preview.payAmount,
      });
      notify.success(`订单已提交，请在 ${preview.payTimeoutHours} 小时内完成支付`);
      navigate(`${SHOPPING_PATHS.orderDetail}?code=${encodeURIComponent(order.code)}`);
    } catch (error) {
      expectedFailures('确认订单')(error);
      // The cache has told the server's message; the order as entered stays for another try.
      again();
    }
  };

  if (lines.length === 0) {
    return (
      <Card title={menu.resourceName || '确认订单'} data-testid="confirm-order">
        <Empty description="还没有选择商品">
          <Button type="primary" onClick={() => navigate(SHOPPING_PATHS.list)}>
            去选购
          </Button>
        </Empty>
      </Card>
    );
  }

  const stockOf = (code: string) => preview?.items.find((item) => item.goodsCode === code)?.stock ?? MAX_LINE_QUANTITY;
  const rows = lines.map((line) => ({ ...line, item: preview?.items.find((item) => item.goodsCode === line.goodsCode) }));

  return (
    <Card title={menu.resourceName || '确认订单'} data-testid="confirm-order">
      <Space direction="vertical" size={16} style={{ width: '100%' }}>
        <Card
          type="inner"
          title={
            <Space>
              <EnvironmentOutlined />
              收货地址
            </Space>
          }
          extra={<Typography.Link onClick={() => navigate(SHOPPING_PATHS.address)}>管理收货地址</Typography.Link>}
        >
          {addressFailure ? (
            <Alert type="error" showIcon message="收货地址加载失败" description={addressFailure} action={<Button size="small" onClick={again}>重试</Button>} />
          ) : addresses === null ? (
            <Skeleton active paragraph={{ rows: 2 }} />
          ) : addresses.length === 0 ? (
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="还没有收货地址">
              <Button onClick={() => navigate(SHOPPING_PATHS.address)}>新增收货地址</Button>
            </Empty>
          ) : (
            <Radio.Group aria-label="收货地址" value={addressId} onChange={(event) => setAddressId(Number(event.target.value))} style={{ width: '100%' }}>
              <Space direction="vertical" style={{ width: '100%' }}>
                {addresses.map((address) => (
                  <Radio key={address.id} value={address.id}>
                    <Space wrap>
                      <Typography.Text strong>{address.receiver}</Typography.Text>
                      <Typography.Text>{maskPhone(address.phone)}</Typography.Text>
                      <Typography.Text>{address.fullAddress}</Typography.Text>
                      {address.isDefault && <Tag color="processing">默认</Tag>}
                    </Space>
                  </Radio>
                ))}
              </Space>
            </Radio.Group>
          )}
        </Card>

        <Card type="inner" title="商品清单">
          <Table
            size="middle"
            rowKey="goodsCode"
            pagination={false}
            loading={pricing && !preview}
            dataSource={rows}
            columns={[
              {
                key: 'goods',
                title: '商品',
                render: (_value, row) => (
                  <Space>
                    {row.item && <GoodsPicture value={row.item.image} alt="" style={{ width: 48, height: 48, objectFit: 'cover', borderRadius: 4 }} />}
                    <Space direction="vertical" size={0}>
                      <Typography.Text strong>{row.item?.goodsName ?? row.goodsCode}</Typography.Text>
                      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                        {row.item?.spec}
                      </Typography.Text>
                    </Space>
                  </Space>
                ),
              },
              { key: 'price', title: '单价', width: 130, render: (_value, row) => (row.item ? money(row.item.unitPrice) : '-') },
              {
                key: 'quantity',
                title: '数量',
                width: 150,
                render: (_value, row) => (
                  <InputNumber
                    aria-label={`${row.item?.goodsName ?? row.goodsCode} 数量`}
                    min={1}
                    max={Math.max(1, Math.min(stockOf(row.goodsCode), MAX_LINE_QUANTITY))}
                    precision={0}
                    value={row.quantity}
                    onChange={(value) => {
                      const quantity = Math.max(1, Math.min(Number(value ?? 1), MAX_LINE_QUANTITY));
                      changeLines(lines.map((line) => (line.goodsCode === row.goodsCode ? { ...line, quantity } : line)));
                    }}
                  />
                ),
              },
              { key: 'amount', title: '小计', width: 140, render: (_value, row) => (row.item ? money(row.item.amount) : '-') },
              {
                key: 'remove',
                title: '',
                width: 60,
                render: (_value, row) =>
                  lines.length > 1 ? (
                    <Button type="text" aria-label="移除" icon={<DeleteOutlined />} onClick={() => changeLines(lines.filter((line) => line.goodsCode !== row.goodsCode))} />
                  ) : null,
              },
            ]}
          />
        </Card>

        {priced.error && !pricing && (
          <Alert
            type="warning"
            showIcon
            message="订单暂时无法确认"
            description={priced.error}
            action={
              <Space direction="vertical">
                <Button size="small" onClick={again}>
                  重新计算
                </Button>
                <Button size="small" onClick={() => navigate(SHOPPING_PATHS.list)}>
                  返回商品列表
                </Button>
              </Space>
            }
          />
        )}

        <Row gutter={16}>
          <Col xs={24} md={14}>
            <Card type="inner" title="优惠与备注">
              <Space direction="vertical" style={{ width: '100%' }}>
                <Space wrap>
                  <Typography.Text>优惠</Typography.Text>
                  <Select
                    aria-label="优惠"
                    style={{ minWidth: 360 }}
                    disabled={!preview}
                    value={preview ? (preview.discount?.code ?? NO_DISCOUNT) : undefined}
                    placeholder={preview && preview.discounts.length === 0 ? '暂无可用优惠' : '选择优惠'}
                    options={[...(preview?.discounts ?? []).map((option) => ({ value: option.code, label: option.label })), { value: NO_DISCOUNT, label: '不使用优惠' }]}
                    onChange={(value: string) => setDiscount(value)}
                  />
                </Space>
                <Input.TextArea aria-label="订单备注" placeholder="订单备注（选填），如送货时间、联系方式" maxLength={200} showCount rows={3} value={remark} onChange={(event) => setRemark(event.target.value.replace(/[<>]/g, ''))} />
              </Space>
            </Card>
          </Col>
          <Col xs={24} md={10}>
            <Card type="inner" title="金额" data-testid="order-amounts">
              {preview ? (
                <>
                  <Descriptions column={1} size="small">
                    <Descriptions.Item label="商品金额">{money(preview.goodsAmount)}</Descriptions.Item>
                    <Descriptions.Item label="优惠">{preview.discountAmount > 0 ? `-${money(preview.discountAmount)}` : money(0)}</Descriptions.Item>
                    <Descriptions.Item label="运费">{preview.freightAmount > 0 ? money(preview.freightAmount) : `包邮（满 ${money(preview.freeFreightThreshold)}）`}</Descriptions.Item>
                  </Descriptions>
                  <div style={{ textAlign: 'right', marginTop: 8 }}>
                    <Typography.Text>应付金额 </Typography.Text>
                    <Typography.Text data-testid="pay-amount" style={{ color: '#cf1322', fontSize: 24, fontWeight: 600 }}>
                      {money(preview.payAmount)}
                    </Typography.Text>
                  </div>
                </>
              ) : (
                <Skeleton active paragraph={{ rows: 3 }} />
              )}
              <div style={{ textAlign: 'right', marginTop: 16 }}>
                {canSubmit ? (
                  <Button type="primary" size="large" loading={submitting} disabled={!preview || pricing || addressId === null} onClick={() => void submit()}>
                    提交订单
                  </Button>
                ) : (
                  <Typography.Text type="secondary">当前角色不能提交订单</Typography.Text>
                )}
              </div>
              <Typography.Paragraph type="secondary" style={{ fontSize: 12, marginTop: 8, marginBottom: 0 }}>
                提交后请在 {preview?.payTimeoutHours ?? 24} 小时内完成支付，超时订单将自动关闭并释放库存。
              </Typography.Paragraph>
            </Card>
          </Col>
        </Row>
      </Space>
    </Card>
  );
}
