import { DownloadOutlined, PlusOutlined, ReloadOutlined } from '@ant-design/icons';
import { Alert, Button, Card, Input, Popconfirm, Select, Space, Table, Typography, type TableColumnsType } from 'antd';
import { useAtomValue } from 'jotai';
import { useMemo, useState } from 'react';
import { api } from '../../api/client';
import { useOperationMutation, usePageQuery } from '../../api/data';
import { told } from '../../api/failures';
import type { ParamOf } from '../../api/typed';
import { FORMATS } from '../../format/formats';
import { dictionaryLabel } from '../../session/dictionary';
import { sessionAtom } from '../../session/session';
import { KIND_NAMES, KIND_TITLES, type FormKind } from './designer';
import type { TemplateRights } from './FormTemplatePage';
import { TemplateStateTag } from './TemplateStateTag';
import { notify } from '../../api/notifier';
import { expectedFailures } from '../../../renderers/runtime/errorReporter';

/** A template as activeForm.template.page answers it. */
export interface TemplateSummary {
  id: number;
  name: string;
  description: string;
  tenantName: string;
  state: 'draft' | 'published' | 'revising';
  publishedVersion: number | null;
  draftVersion: number | null;
  latestVersion: number;
  fieldCount: number;
  usedCount: number;
  creatorName: string;
  updateTime: string;
  canPublish: boolean;
  canDelete: boolean;
}

interface Props {
  kind: FormKind;
  rights: TemplateRights;
  title: string;
  onEdit: (id: number) => void;
  onCreate: () => void;
}

const PAGE_SIZE = 10;

interface Query {
  keyword: string;
  state: string | undefined;
  pageNumber: number;
  pageSize: number;
}

/** The kind's templates: state and versions, and what may be done with each. */
export function TemplateList({ kind, rights, title, onEdit, onCreate }: Props) {
  const session = useAtomValue(sessionAtom);
  const stateLabel = (value: string) => dictionaryLabel(session?.dictionaries ?? {}, 'form_template_state', value);
  const [keyword, setKeyword] = useState('');
  const [state, setState] = useState<string | undefined>(undefined);
  const [query, setQuery] = useState<Query>({ keyword: '', state: undefined, pageNumber: 1, pageSize: PAGE_SIZE });
  const param = useMemo(() => {
    const sent: ParamOf<'activeForm.template.page'> = { kind };
    const trimmed = query.keyword.replace(/[<>]/g, '').trim().slice(0, 64);
    if (trimmed) sent.keyword = trimmed;
    if (query.state) sent.state = query.state as ParamOf<'activeForm.template.page'>['state'];
    return sent;
  }, [kind, query.keyword, query.state]);
  // The kind's templates; a failure is told and shown in the list's place (重试).
  const page = usePageQuery('activeForm.template.page', { param, pageNumber: query.pageNumber, pageSize: query.pageSize, sort: [] });
  const loading = page.fetching;
  const loaded = page.data ? { status: 'ready' as const, records: page.data.records as TemplateSummary[], total: page.data.total } : page.error ? { status: 'error' as const, message: page.error } : null;
  const [busy, setBusy] = useState<string | null>(null);
  const refresh = page.reload;
  // Each change marks the templates stale in every open tab (the activeForm.template entity): the list loads again.
  const publish = useOperationMutation('activeForm.template.publish');
  const duplicate = useOperationMutation('activeForm.template.duplicate');
  const remove = useOperationMutation('activeForm.template.delete');

  /** Runs a row's change and tells how it went; what it changed loads again. */
  const act = async (key: string, run: () => Promise<unknown>, success: string) => {
    setBusy(key);
    try {
      await run();
      notify.success(success);
    } catch (error) {
      expectedFailures('表单模板列表')(error);
      // The server's message has been told; the list stays as it was.
    } finally {
      setBusy(null);
    }
  };

  const download = (id?: number) =>
    act(
      `download-${id ?? 'demo'}`,
      // A download is a call outside the cache: its failure is told here.
      () => told(api.download('activeForm.template.demoDownload', id === undefined ? { kind } : { kind, id })),
      '已开始下载',
    );

  const columns: TableColumnsType<TemplateSummary> = [
    {
      key: 'name',
      title: '模板名称',
      render: (_v, row) => (
        <Space direction="vertical" size={0}>
          <Typography.Link onClick={() => onEdit(row.id)}>{row.name}</Typography.Link>
          {row.description && <Typography.Text type="secondary">{row.description}</Typography.Text>}
        </Space>
      ),
    },
    { key: 'state', title: '状态', width: 100, render: (_v, row) => <TemplateStateTag state={row.state} /> },
    { key: 'published', title: '已发布版本', width: 110, render: (_v, row) => (row.publishedVersion ? `v${row.publishedVersion}` : '-') },
    { key: 'draft', title: '草稿版本', width: 100, render: (_v, row) => (row.draftVersion ? `v${row.draftVersion}` : '-') },
    { key: 'fields', title: '字段数', width: 80, dataIndex: 'fieldCount' },
    { key: 'used', title: '已用工单', width: 90, dataIndex: 'usedCount' },
    { key: 'updated', title: '更新时间', width: 170, render: (_v, row) => FORMATS.datetime(row.updateTime) },
    {
      key: 'actions',
      title: '操作',
      width: 260,
      render: (_v, row) => (
        <Space size={0} wrap>
          {(rights.modify || rights.insert) && (
            <Button type="link" size="small" onClick={() => onEdit(row.id)}>
              {rights.modify ? '编辑' : '查看'}
            </Button>
          )}
          {rights.publish && row.canPublish && (
            <Popconfirm
              title={`发布 v${String(row.draftVersion)}？`}
              description="发布后该版本不可再修改，新建的工单将填写此版本。"
              okText="发布"
              cancelText="取消"
              onConfirm={() => act(`publish-${row.id}`, () => publish.mutateAsync({ id: row.id }), '发布成功')}
            >
              <Button type="link" size="small" loading={busy === `publish-${row.id}`}>
                发布
              </Button>
            </Popconfirm>
          )}
          {rights.duplicate && (
            <Button type="link" size="small" loading={busy === `copy-${row.id}`} onClick={() => void act(`copy-${row.id}`, () => duplicate.mutateAsync({ id: row.id }), '已复制为新的草稿模板')}>
              复制
            </Button>
          )}
          <Button type="link" size="small" loading={busy === `download-${row.id}`} onClick={() => void download(row.id)}>
            下载
          </Button>
          {rights.delete && row.canDelete && (
            <Popconfirm
              title={row.state === 'draft' ? '删除该模板？' : `放弃草稿 v${String(row.draftVersion)}？`}
              description={row.state === 'draft' ? '模板尚未发布，删除后不可恢复。' : `已发布的 v${String(row.publishedVersion)} 不受影响。`}
              okText={row.state === 'draft' ? '删除' : '放弃草稿'}
              okButtonProps={{ danger: true }}
              cancelText="取消"
              onConfirm={() => act(`delete-${row.id}`, () => remove.mutateAsync({ id: row.id }), row.state === 'draft' ? '已删除' : '已放弃草稿')}
            >
              <Button type="link" size="small" danger loading={busy === `delete-${row.id}`}>
                {row.state === 'draft' ? '删除' : '放弃草稿'}
              </Button>
            </Popconfirm>
          )}
        </Space>
      ),
    },
  ];

  const search = () => setQuery({ keyword, state, pageNumber: 1, pageSize: query.pageSize });

  return (
    <Card
      title={title || KIND_TITLES[kind]}
      data-testid="form-template-list"
      extra={
        <Space>
          <Button icon={<DownloadOutlined />} loading={busy === 'download-demo'} onClick={() => void download()}>
            下载示例
          </Button>
          {rights.insert && (
            <Button type="primary" icon={<PlusOutlined />} onClick={onCreate}>
              新增模板
            </Button>
          )}
        </Space>
      }
    >
      <Alert
        type="info"
        showIcon
        style={{ marginBottom: 16 }}
        message={`${KIND_NAMES[kind]}是工单现场填写的表单：设计字段并发布后，新建工单即可选用。已发布的版本不可修改，编辑会生成新的草稿版本，已填写的工单仍保留原版本。`}
      />
      <Space wrap style={{ marginBottom: 16 }}>
        <Input
          aria-label="关键字"
          placeholder="模板名称或说明"
          allowClear
          value={keyword}
          maxLength={64}
          onChange={(event) => setKeyword(event.target.value)}
          onPressEnter={search}
          style={{ width: 220 }}
        />
        <Select
          aria-label="状态"
          placeholder="状态"
          allowClear
          value={state}
          onChange={setState}
          style={{ width: 140 }}
          options={['draft', 'published', 'revising'].map((value) => ({ value, label: stateLabel(value) }))}
        />
        <Button type="primary" onClick={search}>
          查询
        </Button>
        <Button
          onClick={() => {
            setKeyword('');
            setState(undefined);
            setQuery({ keyword: '', state: undefined, pageNumber: 1, pageSize: query.pageSize });
          }}
        >
          重置
        </Button>
        <Button icon={<ReloadOutlined />} aria-label="刷新" onClick={refresh} />
      </Space>
      {loaded?.status === 'error' && !loading ? (
        <Alert
          type="error"
          showIcon
          message="模板列表加载失败"
          description={loaded.message}
          action={
            <Button size="small" onClick={refresh}>
              重试
            </Button>
          }
        />
      ) : (
        <Table<TemplateSummary>
          rowKey="id"
          size="middle"
          loading={loading}
          columns={columns}
          dataSource={loaded?.status === 'ready' ? loaded.records : []}
          locale={{ emptyText: rights.insert ? '暂无模板，点击“新增模板”开始设计' : '暂无模板' }}
          scroll={{ x: 'max-content' }}
          pagination={{
            current: query.pageNumber,
            pageSize: query.pageSize,
            total: loaded?.status === 'ready' ? loaded.total : 0,
            showSizeChanger: true,
            showTotal: (total) => `共 ${total} 个模板`,
            onChange: (pageNumber, pageSize) => setQuery((previous) => ({ ...previous, pageNumber, pageSize })),
          }}
        />
      )}
    </Card>
  );
}
