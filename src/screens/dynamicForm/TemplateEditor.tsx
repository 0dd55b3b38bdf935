import { ArrowDownOutlined, ArrowLeftOutlined, ArrowUpOutlined, DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { Alert, App, Button, Card, Col, Empty, Form, Input, Row, Skeleton, Space, Tag, Tooltip, Typography } from 'antd';
import { useCallback, useEffect, useMemo, useState } from 'react';
import type { TemplateField, TemplateFieldType } from '../../../renderers/form/templateSchema';
import { fetchOperation, useOperationMutation, useOperationQuery } from '../../api/data';
import { FieldSettings } from './FieldSettings';
import type { TemplateRights } from './FormTemplatePage';
import {
  FIELD_TYPES,
  KIND_NAMES,
  designProblems,
  insertField,
  moveField,
  newField,
  removeField,
  sameFields,
  toPayload,
  typeLabel,
  updateField,
  withUids,
  type DesignerField,
  type FormKind,
} from './designer';
import { TemplatePreview } from './TemplatePreview';
import { TemplateStateTag } from './TemplateStateTag';
import { notify } from '../../api/notifier';
import { expectedFailures } from '../../../renderers/runtime/errorReporter';

/** A template version as activeForm.template.get answers it. */
interface LoadedTemplate {
  id: number;
  name: string;
  description: string;
  state: 'draft' | 'published' | 'revising';
  version: number;
  versionState: 'draft' | 'published' | 'superseded';
  publishedVersion: number | null;
  draftVersion: number | null;
  usedCount: number;
  fields: TemplateField[];
  versions: Array<{ version: number; state: string; fieldCount: number; updateTime: string }>;
}

interface Saved {
  name: string;
  description: string;
  fields: DesignerField[];
}

const LEAVE_CONFIRM = '模板有未保存的修改，确定离开吗？';
const NAME_PATTERN = /^[^<>]*[^<>\s][^<>]*$/;

interface Props {
  kind: FormKind;
  /** The template to edit, or null for a new one. */
  templateId: number | null;
  rights: TemplateRights;
  onClose: () => void;
}

/**
 * The designer: a palette of field types, the field list (add, reorder, remove, select), the
 * selected field's settings, and a live preview drawn by the form renderer. Saving inserts a new
 * template or modifies this one (the draft, or a new draft after a published version); publishing
 * saves first. Nothing typed is lost on a failed call: the editor keeps it and says what failed.
 */
export function TemplateEditor({ kind, templateId, rights, onClose }: Props) {
  const { modal } = App.useApp();
  const [id, setId] = useState<number | null>(templateId);
  // The template as first loaded (anew, never a cached copy); later answers are adopted only when
  // this editor asks (after a save or a publish), so a change elsewhere never overwrites what is typed.
  const first = useOperationQuery('activeForm.template.get', { id: templateId ?? 0 }, { enabled: templateId !== null, fresh: true });
  const [adopted, setAdopted] = useState<LoadedTemplate | null>(null);
  const [adoptedFirst, setAdoptedFirst] = useState(false);
  const loaded: { status: 'loading' } | { status: 'ready'; template: LoadedTemplate | null } | { status: 'error'; message: string } =
    templateId === null || adoptedFirst ? { status: 'ready', template: adopted } : first.error !== null ? { status: 'error', message: first.error } : { status: 'loading' };
  // Each change marks the kind's templates stale in every open tab (the list among them).
  const insert = useOperationMutation('activeForm.template.insert');
  const modify = useOperationMutation('activeForm.template.modify');
  const publish = useOperationMutation('activeForm.template.publish');
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [fields, setFields] = useState<DesignerField[]>([]);
  const [saved, setSaved] = useState<Saved>({ name: '', description: '', fields: [] });
  const [selected, setSelected] = useState<string | null>(null);
  const [busy, setBusy] = useState<'save' | 'publish' | null>(null);
  const [nameTouched, setNameTouched] = useState(false);
  const editable = id === null ? rights.insert : rights.modify;

  const adopt = useCallback((template: LoadedTemplate) => {
    const loadedFields = withUids(template.fields);
    setName(template.name);
    setDescription(template.description);
    setFields(loadedFields);
    setSaved({ name: template.name, description: template.description, fields: loadedFields });
    setSelected((current) => (current && loadedFields.some((field) => field.uid === current) ? current : (loadedFields[0]?.uid ?? null)));
    setAdopted(template);
    setAdoptedFirst(true);
  }, []);

  /** Loads the saved template into the editor (through the cache, so every tab shows the same). */
  const reload = useCallback(async (templateToLoad: number) => adopt((await fetchOperation('activeForm.template.get', { id: templateToLoad })) as LoadedTemplate), [adopt]);

  // The first answer is adopted as it arrives (during render: nothing shows the empty editor first).
  const firstAnswer = first.data as LoadedTemplate | undefined;
  if (firstAnswer && !adoptedFirst) adopt(firstAnswer);

  const dirty = name !== saved.name || description !== saved.description || !sameFields(fields, saved.fields);
  useEffect(() => {
    if (!dirty) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);

  const problems = useMemo(() => designProblems(fields), [fields]);
  const nameProblem = !name.trim() ? '请填写模板名称' : [...name].length > 64 || !NAME_PATTERN.test(name) ? '模板名称最多 64 个字，且不能包含 < 或 >' : null;
  const descriptionProblem = [...description].length > 200 || /[<>]/.test(description) ? '说明最多 200 个字，且不能包含 < 或 >' : null;
  const current = fields.find((field) => field.uid === selected) ?? null;

  const add = (type: TemplateFieldType) => {
    const field = newField(type, fields);
    setFields((list) => insertField(list, field, selected));
    setSelected(field.uid);
  };

  const remove = (field: DesignerField) => {
    const index = fields.findIndex((item) => item.uid === field.uid);
    const rest = removeField(fields, field.uid);
    setFields(rest);
    if (selected === field.uid) setSelected(rest[Math.min(index, rest.length - 1)]?.uid ?? null);
  };

  /** Saves (insert or modify); answers the template id, or null when nothing was saved. */
  const save = async (): Promise<number | null> => {
    setNameTouched(true);
    const problem = nameProblem ?? descriptionProblem ?? [...problems.values()][0] ?? null;
    if (problem) {
      const [firstBad] = problems.keys();
      if (!nameProblem && !descriptionProblem && firstBad) setSelected(firstBad);
      notify.error(problem);
      return null;
    }
    const body = { name: name.trim(), description: description.trim(), fields: toPayload(fields) };
    try {
      const answer = id === null ? await insert.mutateAsync({ kind, ...body }) : await modify.mutateAsync({ id, ...body });
      setId(answer.id);
      await reload(answer.id);
      return answer.id;
    } catch (error) {
      expectedFailures('表单模板编辑')(error);
      // The cache told the server's message; what was typed stays in the editor.
      return null;
    }
  };

  const onSave = async () => {
    setBusy('save');
    const savedId = await save();
    setBusy(null);
    if (savedId !== null) notify.success('保存成功');
  };

  const onPublish = () => {
    const draft = loaded.status === 'ready' ? loaded.template : null;
    modal.confirm({
      title: '发布模板',
      content: `发布后该版本不可再修改，新建的${KIND_NAMES[kind].replace('模板', '')}工单将填写此版本；已填写的工单保留原版本。${dirty ? '未保存的修改将先保存。' : ''}`,
      okText: '发布',
      cancelText: '取消',
      onOk: async () => {
        setBusy('publish');
        try {
          const savedId = dirty || id === null || !draft?.draftVersion ? await save() : id;
          if (savedId === null) return;
          const answer = await publish.mutateAsync({ id: savedId });
          await reload(savedId);
          notify.success(`已发布 v${answer.version}`);
        } catch (error) {
          expectedFailures('表单模板编辑')(error);
          // Told by the cache; the draft stays.
        } finally {
          setBusy(null);
        }
      },
    });
  };

  const leave = () => {
    if (!dirty) return onClose();
    modal.confirm({ title: LEAVE_CONFIRM, okText: '离开', cancelText: '留下', onOk: onClose });
  };

  if (loaded.status === 'loading') {
    return (
      <Card title={`编辑${KIND_NAMES[kind]}`} data-testid="form-template-editor">
        <Skeleton active paragraph={{ rows: 8 }} />
      </Card>
    );
  }
  if (loaded.status === 'error') {
    return (
      <Card title={`编辑${KIND_NAMES[kind]}`} data-testid="form-template-editor" extra={<Button onClick={onClose}>返回列表</Button>}>
        <Alert type="error" showIcon message="模板加载失败" description={loaded.message} action={<Button size="small" onClick={first.reload}>重试</Button>} />
      </Card>
    );
  }

  const template = loaded.template;
  const canPublish = rights.publish && id !== null && (dirty || template?.draftVersion !== null) && fields.length > 0;
  let versionNote = '新模板：保存后为草稿 v1，发布后工单即可选用。';
  if (template) {
    if (template.draftVersion !== null)
      versionNote = `正在编辑草稿 v${template.draftVersion}${template.publishedVersion ? `；工单当前使用已发布的 v${template.publishedVersion}` : '，尚未发布'}。`;
    else versionNote = `v${template.publishedVersion} 已发布，不可修改：保存修改将生成草稿 v${template.versions[0].version + 1}，发布前不影响工单。`;
  }

  return (
    <Card
      data-testid="form-template-editor"
      title={
        <Space>
          <Button type="text" icon={<ArrowLeftOutlined />} aria-label="返回列表" onClick={leave} />
          <span>{id === null ? `新增${KIND_NAMES[kind]}` : `编辑${KIND_NAMES[kind]}：${saved.name}`}</span>
          {dirty && <Tag color="warning">未保存</Tag>}
        </Space>
      }
      extra={
        <Space>
          <Button onClick={leave}>返回列表</Button>
          {editable && (
            <Button type="primary" loading={busy === 'save'} disabled={busy !== null} onClick={() => void onSave()}>
              保存
            </Button>
          )}
          {canPublish && (
            <Button loading={busy === 'publish'} disabled={busy !== null} onClick={onPublish}>
              发布
            </Button>
          )}
        </Space>
      }
    >
      <Alert type="info" showIcon style={{ marginBottom: 16 }} message={versionNote} />
      <Row gutter={[16, 16]}>
        <Col xs={24} xl={6}>
          <Space direction="vertical" size={16} style={{ width: '100%' }}>
            <Card size="small" title="基本信息">
              <Form layout="vertical" component="div">
                <Form.Item label="模板名称" htmlFor="template-name" required validateStatus={nameTouched && nameProblem ? 'error' : undefined} help={nameTouched ? nameProblem : undefined}>
                  <Input id="template-name" value={name} maxLength={64} disabled={!editable} placeholder="例如：新装监测点勘察表" onChange={(event) => setName(event.target.value)} onBlur={() => setNameTouched(true)} />
                </Form.Item>
                <Form.Item label="说明" htmlFor="template-description" validateStatus={descriptionProblem ? 'error' : undefined} help={descriptionProblem ?? undefined} style={{ marginBottom: 0 }}>
                  <Input.TextArea id="template-description" value={description} maxLength={200} rows={2} disabled={!editable} onChange={(event) => setDescription(event.target.value)} />
                </Form.Item>
              </Form>
            </Card>
            {editable && (
              <Card size="small" title="字段类型">
                <Space direction="vertical" style={{ width: '100%' }} data-testid="field-palette">
                  {FIELD_TYPES.map((entry) => (
                    <Tooltip key={entry.type} title={entry.hint} placement="right">
                      <Button block icon={<PlusOutlined />} style={{ justifyContent: 'flex-start' }} aria-label={`添加${entry.label}`} disabled={fields.length >= 50} onClick={() => add(entry.type)}>
                        {entry.label}
                      </Button>
                    </Tooltip>
                  ))}
                </Space>
              </Card>
            )}
            {template && template.versions.length > 0 && (
              <Card size="small" title="版本">
                <Space direction="vertical" size={4}>
                  {template.versions.map((version) => (
                    <Space key={version.version} size={4}>
                      <Typography.Text strong>v{version.version}</Typography.Text>
                      <TemplateStateTag state={version.state} />
                      <Typography.Text type="secondary">{version.fieldCount} 个字段</Typography.Text>
                    </Space>
                  ))}
                </Space>
              </Card>
            )}
          </Space>
        </Col>
        <Col xs={24} xl={9}>
          <Space direction="vertical" size={16} style={{ width: '100%' }}>
            <Card size="small" title={`字段列表（${fields.length}）`}>
              {fields.length === 0 ? (
                <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={editable ? '从左侧“字段类型”添加字段' : '没有字段'} />
              ) : (
                <ol data-testid="field-list" style={{ listStyle: 'none', margin: 0, padding: 0 }}>
                  {fields.map((field, index) => {
                    const problem = problems.get(field.uid);
                    const active = field.uid === selected;
                    return (
                      <li
                        key={field.uid}
                        data-field-key={field.key}
                        style={{
                          display: 'flex',
                          alignItems: 'center',
                          gap: 4,
                          padding: '4px 8px',
                          marginBottom: 4,
                          borderRadius: 6,
                          border: `1px solid ${problem ? '#ff4d4f' : active ? '#1677ff' : 'rgba(5, 5, 5, 0.06)'}`,
                          background: active ? '#e6f4ff' : undefined,
                        }}
                      >
                        <Button type="text" style={{ flex: 1, justifyContent: 'flex-start', textAlign: 'left', height: 'auto', whiteSpace: 'normal', flexDirection: 'column', alignItems: 'flex-start' }} aria-pressed={active} aria-label={`设置第${index + 1}个字段：${field.label}`} onClick={() => setSelected(field.uid)}>
                          <Space size={4} wrap>
                            <span>{index + 1}.</span>
                            <Typography.Text strong>{field.label || '（未命名）'}</Typography.Text>
                            {field.required && <Typography.Text type="danger">*</Typography.Text>}
                            <Tag>{typeLabel(field.type)}</Tag>
                            <Typography.Text type="secondary" code>
                              {field.key}
                            </Typography.Text>
                          </Space>
                          {problem && (
                            <Typography.Text type="danger" style={{ display: 'block', fontSize: 12 }}>
                              {problem}
                            </Typography.Text>
                          )}
                        </Button>
                        {editable && (
                          <Space size={0}>
                            <Button type="text" size="small" icon={<ArrowUpOutlined />} aria-label={`上移${field.label}`} disabled={index === 0} onClick={() => setFields((list) => moveField(list, field.uid, -1))} />
                            <Button type="text" size="small" icon={<ArrowDownOutlined />} aria-label={`下移${field.label}`} disabled={index === fields.length - 1} onClick={() => setFields((list) => moveField(list, field.uid, 1))} />
                            <Button type="text" size="small" danger icon={<DeleteOutlined />} aria-label={`删除${field.label}`} onClick={() => remove(field)} />
                          </Space>
                        )}
                      </li>
                    );
                  })}
                </ol>
              )}
            </Card>
            <Card size="small" title={current ? `字段设置：${current.label || current.key}` : '字段设置'}>
              {current ? (
                <FieldSettings key={current.uid} field={current} problem={problems.get(current.uid) ?? null} disabled={!editable} onChange={(patch) => setFields((list) => updateField(list, current.uid, patch))} />
              ) : (
                <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="选择一个字段进行设置" />
              )}
            </Card>
          </Space>
        </Col>
        <Col xs={24} xl={9}>
          <TemplatePreview fields={fields} title={name.trim() || `未命名${KIND_NAMES[kind]}`} />
        </Col>
      </Row>
    </Card>
  );
}
