import { ArrowLeftOutlined, ShoppingCartOutlined } from '@ant-design/icons';
import { Alert, Button, Card, Col, Descriptions, Empty, Image, InputNumber, Result, Row, Skeleton, Space, Tag, Typography } from 'antd';
import { useAtomValue } from 'jotai';
import { useState } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { SafeHtml } from '../../../renderers/displays/displays';
import { useOperationQuery } from '../../api/data';
import { consoleFiles } from '../../format/fileTicket';
import { useConsoleFileUrls } from '../../format/useConsoleFileUrls';
import { dictionaryLabel } from '../../session/dictionary';
import { sessionAtom } from '../../session/session';
import type { ScreenProps } from '../registry';
import { confirmOrderPath, MAX_LINE_QUANTITY, mayOpen, money, SHOPPING_PATHS, type GoodsDetail } from './shopping';

/** 商品详情: pictures, price, running discounts, stock and the description; the tenant admin buys from here. */
/** The goods' pictures, at the urls the server gives for them (uploaded ones; built-in ones as they are). */
function GoodsGallery({ name, images, cover, picture, onPicture }: { name: string; images: string[]; cover: string; picture: number; onPicture: (index: number) => void }) {
  const urlOf = useConsoleFileUrls([...images, cover]);
  const shown = (url: string) => urlOf(url) ?? '';
  return (
    <>
      <Image.PreviewGroup items={images.map(shown)}>
        <Image src={shown(images[picture] ?? cover)} alt={name} width="100%" style={{ aspectRatio: '1 / 1', objectFit: 'cover', borderRadius: 8 }} />
      </Image.PreviewGroup>
      <Space style={{ marginTop: 12 }} wrap>
        {images.map((url, index) => (
          <img
            key={url}
            src={shown(url) || undefined}
            alt={`${name} 图片 ${index + 1}`}
            onClick={() => onPicture(index)}
            style={{ width: 64, height: 64, objectFit: 'cover', borderRadius: 4, cursor: 'pointer', border: index === picture ? '2px solid #1677ff' : '1px solid #f0f0f0' }}
          />
        ))}
      </Space>
    </>
  );
}

export default function GoodsDetailPage({ menu }: ScreenProps) {
  const navigate = useNavigate();
  const { search } = useLocation();
  const session = useAtomValue(sessionAtom);
  const code = new URLSearchParams(search).get('code') ?? '';
  const [quantity, setQuantity] = useState(1);
  const [picture, setPicture] = useState(0);
  const canBuy = mayOpen(session?.menus, SHOPPING_PATHS.confirm);
  // The goods of this code; a failure shows in the page's place (重试), not as a message.
  const loaded = useOperationQuery('mall.goods.detail', { code }, { handlesErrors: true });

  const back = (
    <Button icon={<ArrowLeftOutlined />} onClick={() => navigate(SHOPPING_PATHS.list)}>
      返回商品列表
    </Button>
  );
  if (loaded.loading) {
    return (
      <Card title={menu.resourceName || '商品详情'} data-testid="goods-detail">
        <Skeleton active avatar={{ shape: 'square', size: 240 }} paragraph={{ rows: 8 }} />
      </Card>
    );
  }
  if (loaded.error !== null || !loaded.data) {
    return (
      <Card title={menu.resourceName || '商品详情'} data-testid="goods-detail">
        <Result
          status="warning"
          title={loaded.error ?? '商品不存在'}
          extra={
            <Space>
              {back}
              <Button onClick={loaded.reload}>重试</Button>
            </Space>
          }
        />
      </Card>
    );
  }
  const goods: GoodsDetail = loaded.data;
  const soldOut = goods.stock <= 0 || goods.state !== 'on_shelf';
  const maxQuantity = Math.max(1, Math.min(goods.stock, MAX_LINE_QUANTITY));
  const category = dictionaryLabel(session?.dictionaries ?? {}, 'goods_category', goods.category);

  return (
    <Card title={menu.resourceName || '商品详情'} data-testid="goods-detail" extra={back}>
      <Row gutter={[32, 24]}>
        <Col xs={24} md={10}>
          <GoodsGallery name={goods.name} images={goods.images} cover={goods.coverImage} picture={picture} onPicture={setPicture} />
        </Col>
        <Col xs={24} md={14}>
          <Space direction="vertical" size={12} style={{ width: '100%' }}>
            <div>
              <Tag color="default">{category}</Tag>
              <Typography.Title level={4} style={{ display: 'inline', margin: 0 }}>
                {goods.name}
              </Typography.Title>
            </div>
            {goods.spec && <Typography.Text type="secondary">{goods.spec}</Typography.Text>}
            <div style={{ background: '#fff7f6', padding: '12px 16px', borderRadius: 6 }}>
              <Space align="baseline" size={12}>
                <Typography.Text type="secondary">售价</Typography.Text>
                <Typography.Text data-testid="goods-price" style={{ color: '#cf1322', fontSize: 26, fontWeight: 600 }}>
                  {money(goods.price)}
                </Typography.Text>
                <Typography.Text type="secondary">/{goods.unit}</Typography.Text>
                {goods.marketPrice !== null && goods.marketPrice > goods.price && (
                  <Typography.Text delete type="secondary">
                    {money(goods.marketPrice)}
                  </Typography.Text>
                )}
              </Space>
              {goods.discounts.length > 0 && (
                <div style={{ marginTop: 8 }}>
                  <Typography.Text type="secondary" style={{ marginRight: 8 }}>
                    优惠
                  </Typography.Text>
                  {goods.discounts.map((discount) => (
                    <Tag key={discount.code} color="error" title={discount.name}>
                      {discount.ruleText}
                    </Tag>
                  ))}
                </div>
              )}
            </div>
            <Descriptions size="small" column={2}>
              {goods.model && <Descriptions.Item label="型号">{goods.model}</Descriptions.Item>}
              <Descriptions.Item label="库存">{goods.stock > 0 ? `${goods.stock} ${goods.unit}` : '已售罄'}</Descriptions.Item>
              <Descriptions.Item label="已售">{goods.sales}</Descriptions.Item>
              <Descriptions.Item label="运费">{goods.freight > 0 ? `${money(goods.freight)}（满 ¥2,000 包邮）` : '包邮'}</Descriptions.Item>
              {goods.cardCustomName && (
                <Descriptions.Item label="随货物联网卡" span={2}>
                  {goods.cardCustomName} × {goods.cardsPerUnit} 张/{goods.unit}
                </Descriptions.Item>
              )}
            </Descriptions>
            {canBuy ? (
              <Space size={16} wrap>
                <Space>
                  <Typography.Text>数量</Typography.Text>
                  <InputNumber aria-label="购买数量" min={1} max={maxQuantity} precision={0} value={quantity} disabled={soldOut} onChange={(value) => setQuantity(Math.max(1, Math.min(Number(value ?? 1), maxQuantity)))} />
                </Space>
                <Button
                  type="primary"
                  size="large"
                  icon={<ShoppingCartOutlined />}
                  disabled={soldOut}
                  onClick={() => navigate(confirmOrderPath([{ goodsCode: goods.code, quantity }]))}
                >
                  {soldOut ? '已售罄' : '立即购买'}
                </Button>
              </Space>
            ) : (
              <Alert type="info" showIcon message="平台人员可浏览商品；下单由租户管理员在商城中完成。" />
            )}
          </Space>
        </Col>
      </Row>
      <Card type="inner" title="商品详情" style={{ marginTop: 24 }}>
        {goods.description ? <SafeHtml html={goods.description} files={consoleFiles} /> : <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="暂无详情" />}
      </Card>
      {goods.discounts.length > 0 && (
        <Card type="inner" title="优惠活动" style={{ marginTop: 16 }}>
          <Space direction="vertical">
            {goods.discounts.map((discount) => (
              <Typography.Text key={discount.code}>
                <Tag color="error">{discount.ruleText}</Tag>
                {discount.name}
                {discount.saving !== null && <Typography.Text type="secondary">（购买 1 {goods.unit}可省 {money(discount.saving)}）</Typography.Text>}
              </Typography.Text>
            ))}
          </Space>
        </Card>
      )}
    </Card>
  );
}
