import { ReloadOutlined, ShoppingCartOutlined } from '@ant-design/icons';
import { Alert, Button, Card, Col, Empty, Input, Pagination, Row, Segmented, Select, Skeleton, Space, Tag, Typography } from 'antd';
import { useAtomValue } from 'jotai';
import { useMemo, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { useLastAnswer, usePageQuery } from '../../api/data';
import type { ParamOf } from '../../api/typed';
import { sessionAtom } from '../../session/session';
import type { ScreenProps } from '../registry';
import { GoodsPicture } from './GoodsPicture';
import { money, SHOPPING_PATHS, type GoodsSummary } from './shopping';

const PAGE_SIZE = 12;
const SORTS: Record<string, { label: string; sort: Array<{ field: string; order: 'asc' | 'desc' }> }> = {
  default: { label: '综合排序', sort: [] },
  sales: { label: '销量优先', sort: [{ field: 'sales', order: 'desc' }] },
  priceAsc: { label: '价格从低到高', sort: [{ field: 'price', order: 'asc' }] },
  priceDesc: { label: '价格从高到低', sort: [{ field: 'price', order: 'desc' }] },
};

interface Query {
  keyword: string;
  category: string;
  sort: string;
  pageNumber: number;
}

function GoodsCard({ goods, onOpen }: { goods: GoodsSummary; onOpen: () => void }) {
  const soldOut = goods.stock <= 0;
  return (
    <Card
      hoverable
      data-testid="goods-card"
      onClick={onOpen}
      styles={{ body: { padding: 14 } }}
      cover={<GoodsPicture value={goods.coverImage} alt={goods.name} style={{ height: 180, objectFit: 'cover' }} />}
    >
      <Typography.Text strong ellipsis={{ tooltip: goods.name }} style={{ display: 'block' }}>
        {goods.name}
      </Typography.Text>
      <Typography.Text type="secondary" ellipsis={{ tooltip: goods.spec }} style={{ display: 'block', fontSize: 12, minHeight: 20 }}>
        {goods.spec || '\u00a0'}
      </Typography.Text>
      <Space size={6} align="baseline" style={{ marginTop: 6 }}>
        <Typography.Text style={{ color: '#cf1322', fontSize: 18, fontWeight: 600 }}>{money(goods.price)}</Typography.Text>
        {goods.marketPrice !== null && goods.marketPrice > goods.price && (
          <Typography.Text delete type="secondary" style={{ fontSize: 12 }}>
            {money(goods.marketPrice)}
          </Typography.Text>
        )}
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          /{goods.unit}
        </Typography.Text>
      </Space>
      {/* Every promotion whole: the tags wrap onto a second line rather than being cut at the card's edge (issue 34). */}
      <div data-testid="goods-tags" style={{ display: 'flex', flexWrap: 'wrap', gap: 4, minHeight: 22, marginTop: 6 }}>
        {goods.discountTags.map((tag) => (
          <Tag key={tag} color="error" style={{ marginInlineEnd: 0, whiteSpace: 'normal' }}>
            {tag}
          </Tag>
        ))}
      </div>
      <Space split="·" size={4} style={{ fontSize: 12, color: 'rgba(0, 0, 0, 0.6)' }}>
        <span>已售 {goods.sales}</span>
        {soldOut ? <span style={{ color: '#cf1322' }}>已售罄</span> : <span>库存 {goods.stock}</span>}
      </Space>
    </Card>
  );
}

/** 商品列表: the goods on the shelf as a grid, searched, by category, sorted and paged on the server. */
export default function ShoppingListPage({ menu }: ScreenProps) {
  const navigate = useNavigate();
  const session = useAtomValue(sessionAtom);
  const categories = session?.dictionaries.goods_category?.children;
  const [keyword, setKeyword] = useState('');
  const [query, setQuery] = useState<Query>({ keyword: '', category: '', sort: 'default', pageNumber: 1 });
  const param = useMemo(() => {
    const sent: ParamOf<'mall.goods.page'> = { state: 'on_shelf' };
    if (query.keyword) sent.keyword = query.keyword;
    if (query.category) sent.category = query.category as ParamOf<'mall.goods.page'>['category'];
    return sent;
  }, [query.keyword, query.category]);
  // The page asked for; while the next one loads the last stays (dimmed). A failure shows in its
  // place (重试) over the last good page.
  const page = usePageQuery('mall.goods.page', { param, pageNumber: query.pageNumber, pageSize: PAGE_SIZE, sort: SORTS[query.sort].sort }, { handlesErrors: true });
  const shown = useLastAnswer(page.data, undefined);
  const loaded = shown && { records: shown.records as GoodsSummary[], total: shown.total ?? 0, failure: page.error };
  const loading = page.fetching;

  const categoryOptions = useMemo(() => [{ value: '', label: '全部' }, ...(categories ?? []).map((item) => ({ value: item.dictValue, label: item.dictLabel }))], [categories]);
  const change = (next: Partial<Query>) => setQuery((current) => ({ ...current, pageNumber: 1, ...next }));

  return (
    <Card
      title={
        <Space>
          <ShoppingCartOutlined />
          {menu.resourceName || '商品列表'}
        </Space>
      }
      data-testid="shopping-list"
      extra={
        <Button icon={<ReloadOutlined />} onClick={page.reload}>
          刷新
        </Button>
      }
    >
      <Space wrap style={{ marginBottom: 16, width: '100%', justifyContent: 'space-between' }}>
        <Segmented aria-label="商品类别" options={categoryOptions} value={query.category} onChange={(value) => change({ category: String(value) })} />
        <Space wrap>
          <Input.Search
            allowClear
            aria-label="搜索商品"
            placeholder="商品名称、型号或规格"
            maxLength={64}
            style={{ width: 260 }}
            value={keyword}
            onChange={(event) => setKeyword(event.target.value)}
            onSearch={(value) => change({ keyword: value.replace(/[<>]/g, '').trim() })}
          />
          <Select aria-label="排序" style={{ width: 150 }} value={query.sort} options={Object.entries(SORTS).map(([value, sort]) => ({ value, label: sort.label }))} onChange={(sort: string) => change({ sort })} />
        </Space>
      </Space>
      {page.error && (
        <Alert
          type="error"
          showIcon
          style={{ marginBottom: 16 }}
          message="商品加载失败"
          description={page.error}
          action={
            <Button size="small" onClick={page.reload}>
              重试
            </Button>
          }
        />
      )}
      {loading && !loaded ? (
        <Skeleton active paragraph={{ rows: 8 }} />
      ) : (loaded?.records.length ?? 0) === 0 ? (
        <Empty description={query.keyword || query.category ? '没有符合条件的商品' : '暂无在售商品'} style={{ padding: 48 }} />
      ) : (
        <div style={{ opacity: loading ? 0.5 : 1, transition: 'opacity 0.2s' }}>
          <Row gutter={[16, 16]}>
            {loaded?.records.map((goods) => (
              <Col key={goods.code} xs={24} sm={12} md={8} xl={6}>
                <GoodsCard goods={goods} onOpen={() => navigate(`${SHOPPING_PATHS.item}?code=${encodeURIComponent(goods.code)}`)} />
              </Col>
            ))}
          </Row>
          <Pagination
            style={{ marginTop: 16, textAlign: 'right' }}
            current={query.pageNumber}
            pageSize={PAGE_SIZE}
            total={loaded?.total ?? 0}
            showSizeChanger={false}
            showTotal={(total) => `共 ${total} 件商品`}
            onChange={(pageNumber) => setQuery((current) => ({ ...current, pageNumber }))}
          />
        </div>
      )}
    </Card>
  );
}
