import { createForm, onFormValuesChange } from '@formily/core';
import { FormProvider, type ISchema } from '@formily/react';
import { FormLayout } from '@formily/antd-v5';
import { toJS } from '@formily/reactive';
import { Alert, App, Button, Card, Space, Spin } from 'antd';
import { Suspense, useEffect, useLayoutEffect, useMemo, useState } from 'react';
import { useBlocker } from 'react-router-dom';
import { DEFAULT_SUCCESS_MESSAGE } from '../actions/runAction';
import { invalidateAfterChange } from '../data/invalidation';
import { useOperationQuery } from '../data/queries';
import { queryClientOf } from '../data/queryClient';
import { resolveTemplate, NO_PARAMS } from '../schema/template';
import type { FormPage } from '../schema/types';
import { useRenderer } from '../services';
import { prepareSchema, SchemaField } from './formily';
import { formTitle, isCreating } from './formMode';
import { LEAVE_DIRTY_CONFIRM } from './leaveConfirm';
import { expectedFailures } from '../runtime/errorReporter';

/** STACK.md: ArrayTable writes this key into each row; it never goes to the server. */
const ARRAY_TABLE_INDEX = '__DO_NOT_USE_THIS_PROPERTY_index__';

/** The top-level data fields a Formily schema declares (void containers are looked through). */
export function declaredFields(schema: unknown): string[] {
  const properties = (schema as { properties?: Record<string, unknown> } | null)?.properties ?? {};
  return Object.entries(properties).flatMap(([name, child]) => ((child as { type?: string }).type === 'void' ? declaredFields(child) : [name]));
}

export function stripInternalKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stripInternalKeys);
  if (value && typeof value === 'object' && !(value instanceof Date) && !(value instanceof Blob)) {
    return Object.fromEntries(Object.entries(value).filter(([key]) => key !== ARRAY_TABLE_INDEX).map(([key, v]) => [key, stripInternalKeys(v)]));
  }
  return value;
}

interface Props {
  page: FormPage;
  view: string;
  params?: Record<string, unknown>;
  /** In a drawer or modal (the host asks before closing a dirty form) or a full page. */
  embedded?: boolean;
  /** After a successful submit, with what the submit answered. */
  onDone?: (answer: unknown) => void;
  onCancel?: () => void;
  /** Tells the host whether the form holds unsaved input. */
  onDirtyChange?: (dirty: boolean) => void;
}

/** Blocks in-app navigation away from a dirty full-page form and asks first. */
function useLeaveGuard(active: boolean) {
  const { modal } = App.useApp();
  const blocker = useBlocker(active);
  useEffect(() => {
    if (blocker.state !== 'blocked') return;
    modal.confirm({ title: LEAVE_DIRTY_CONFIRM, okText: '离开', cancelText: '留下', onOk: () => blocker.proceed(), onCancel: () => blocker.reset() });
  }, [blocker, modal]);
  useEffect(() => {
    if (!active) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [active]);
}

/** A form page: Formily fields, load and submit operations, the SPEC §8 success message. */
/** A form's template scope: `values` is read when a template is compiled, never copied. */
function formScope(form: { values: Record<string, unknown> }, params: Record<string, unknown>, user: Readonly<Record<string, unknown>> | undefined) {
  return {
    params,
    user,
    record: undefined,
    selection: undefined,
    get values() {
      return form.values;
    },
  };
}

export default function FormRenderer({ page, view, params = NO_PARAMS, embedded, onDone, onCancel, onDirtyChange }: Props) {
  const services = useRenderer();
  const { data, notify, validators } = services;
  const schema = useMemo(() => prepareSchema(page.schema, validators), [page.schema, validators]);
  // Create mode: nothing to load (no load operation, or its param lacks a value such as params.id).
  const creating = isCreating(page, params);
  // eslint-disable-next-line react-hooks/exhaustive-deps -- one form for the page's life; it starts as the load does
  const form = useMemo(() => createForm({ validateFirst: true, pattern: creating ? 'editable' : 'disabled' }), []);
  const [submitting, setSubmitting] = useState(false);
  const paramsKey = JSON.stringify(params);

  // Edit mode: the record as it is now (never a cached copy), its values set once when it arrives.
  const loadParam = useMemo(
    () => (page.load && !creating ? resolveTemplate(page.load.param ?? {}, { params: JSON.parse(paramsKey) as Record<string, unknown>, user: services.user }) : undefined),
    [page.load, paramsKey, creating, services.user],
  );
  const record = useOperationQuery<Record<string, unknown>>(page.load?.operation, loadParam, { enabled: Boolean(page.load) && !creating, fresh: true });
  // The values the form was filled with: the first answer, kept whatever later reloads bring.
  const [filled, setFilled] = useState<Record<string, unknown> | null>(null);
  if (filled === null && !creating && !record.loading && record.error === null) setFilled(record.data ?? {});
  useLayoutEffect(() => {
    if (filled === null) return;
    // Editable in the same step as the values arrive: a field shown filled takes input at once.
    form.setPattern('editable');
    form.setInitialValues(filled);
  }, [filled, form]);
  const load: { status: 'loading' | 'ready' } | { status: 'error'; message: string } =
    creating || filled !== null ? { status: 'ready' } : record.error !== null ? { status: 'error', message: record.error } : { status: 'loading' };

  // While the record loads its fields take no input: what arrives would overwrite it.
  useEffect(() => {
    form.setPattern(load.status === 'ready' ? 'editable' : 'disabled');
  }, [form, load.status]);

  const [dirty, setDirty] = useState(false);
  useEffect(() => {
    const id = 'dirty-tracking';
    form.addEffects(id, () => onFormValuesChange((changed) => setDirty(changed.modified)));
    return () => form.removeEffects(id);
  }, [form]);
  useEffect(() => onDirtyChange?.(dirty), [dirty, onDirtyChange]);
  useLeaveGuard(!embedded && dirty && !submitting);

  const submit = async () => {
    setSubmitting(true);
    let answer: unknown;
    try {
      await form.submit(async (values: Record<string, unknown>) => {
        // Only what the form declares is submitted: loaded records carry more (ids, times, lists).
        const declared = declaredFields(page.schema);
        const clean = stripInternalKeys(Object.fromEntries(declared.filter((name) => name in values).map((name) => [name, values[name]]))) as Record<string, unknown>;
        const param = page.submit.param ? resolveTemplate(page.submit.param, { params, values: clean, user: services.user }) : { ...clean };
        const operation = creating && page.submit.createOperation ? page.submit.createOperation : page.submit.operation;
        answer = await data.call(operation, param);
        // Every open page tab showing what was saved loads it again.
        void invalidateAfterChange(queryClientOf(services), operation, page.submit.invalidates);
      });
      notify.success(page.submit.successMessage ?? DEFAULT_SUCCESS_MESSAGE);
      // What was saved is the new starting point. A plain copy: handing Formily its own reactive
      // values recurses without end when they hold a list or an object.
      form.setInitialValues(toJS(form.values), 'overwrite');
      form.setState((state) => {
        state.modified = false;
      });
      setDirty(false);
      onDone?.(answer);
      const next = !embedded ? page.after?.navigate : undefined;
      if (next) setTimeout(() => services.navigate(next), 0);
    } catch (error) {
      // Failed validation shows on the fields; a failed call was told by the client. The input stays.
      expectedFailures(`表单 ${page.title}`)(error);
    } finally {
      setSubmitting(false);
    }
  };

  // The same element while the page's own state (dirty, submitting, loading) changes: React then
  // leaves the fields alone, which otherwise all render again when the first keystroke makes the
  // form dirty (100 ms for 500 fields). Fields follow their values through Formily, not through this.
  // The one scope of templates: a field's `{{values.x}}` (a select following another field) reads
  // the form's observable values, so Formily compiles it again when they change.
  const scope = useMemo(() => formScope(form, JSON.parse(paramsKey) as Record<string, unknown>, services.user), [form, paramsKey, services.user]);
  const labelCol = page.layout?.labelCol ?? 6;
  const wrapperCol = page.layout?.wrapperCol ?? 16;
  const fields = useMemo(
    () => (
      <FormProvider form={form}>
        <FormLayout labelCol={labelCol} wrapperCol={wrapperCol} layout="horizontal">
          <Suspense fallback={<Spin />}>
            <SchemaField schema={schema as ISchema} scope={scope} />
          </Suspense>
        </FormLayout>
      </FormProvider>
    ),
    [form, schema, labelCol, wrapperCol, scope],
  );

  if (load.status === 'error') {
    return (
      <Alert
        type="error"
        showIcon
        message="表单数据加载失败"
        description={load.message}
        action={
          <Button size="small" onClick={record.reload}>
            重试
          </Button>
        }
      />
    );
  }

  const body = (
    <Spin spinning={load.status === 'loading'}>
      {fields}
      <Space style={{ display: 'flex', justifyContent: 'flex-end', marginTop: 16 }}>
        {onCancel && <Button onClick={onCancel}>取消</Button>}
        <Button type="primary" loading={submitting} disabled={load.status !== 'ready'} onClick={() => void submit()}>
          提交
        </Button>
      </Space>
    </Spin>
  );

  if (embedded) return <div data-testid="form-page" data-view={view}>{body}</div>;
  return (
    <Card title={formTitle(page, params)} data-testid="form-page" data-view={view}>
      {page.description && <Alert type="info" showIcon message={page.description} style={{ marginBottom: 16 }} />}
      {body}
    </Card>
  );
}
