import { App, Descriptions, Drawer, Modal, Spin, Typography } from 'antd';
import { lazy, Suspense, useCallback, useContext, useRef, useState, type ReactNode } from 'react';
import type { ShownResult } from '../actions/runAction';
import { renderCell } from '../displays/displays';
import { PageAddressContext } from '../list/listAddress';
import PageRenderer from '../PageRenderer';
import { RendererContext, type RendererServices } from '../services';
import { loadPageSchema, pageFile } from '../pages';
import { checkPage } from '../schema/checkPage';
import { RESULT_ROOT, resolveTemplate } from '../schema/template';
import type { SchemaProblem } from '../schema/validate';
import type { OpenFormAction, OpenPageAction, PageSchema } from '../schema/types';
import { MissingNotice } from '../runtime/MissingNotice';
import { SchemaErrorPanel } from '../runtime/SchemaErrorPanel';
import { formTitle } from './formMode';
import { LEAVE_DIRTY_CONFIRM } from './leaveConfirm';

const FormRenderer = lazy(() => import('./FormRenderer'));

type Opening = OpenFormAction | OpenPageAction;

type Opened =
  | { status: 'loading'; action: Opening; params: Record<string, unknown> }
  | { status: 'ready'; action: Opening; params: Record<string, unknown>; page: PageSchema }
  | { status: 'invalid'; action: Opening; params: Record<string, unknown>; problems: SchemaProblem[] }
  | { status: 'missing'; action: Opening; params: Record<string, unknown>; message: string };

/** A shown value: its fields with their displays (each copyable), or the value as text. */
function ResultBody({ shown, services }: { shown: ShownResult; services: RendererServices | null }) {
  const record = (shown.value && typeof shown.value === 'object' ? shown.value : {}) as Record<string, unknown>;
  return (
    <div data-testid="shown-result">
      {shown.message && <Typography.Paragraph>{shown.message}</Typography.Paragraph>}
      {shown.fields?.length ? (
        <Descriptions bordered size="small" column={1}>
          {shown.fields.map((field) => (
            <Descriptions.Item key={field.field} label={field.title}>
              {field.display && services ? renderCell(field, record, services) : <Typography.Text copyable>{String(record[field.field] ?? '')}</Typography.Text>}
            </Descriptions.Item>
          ))}
        </Descriptions>
      ) : (
        <Typography.Text copyable>{typeof shown.value === 'object' ? JSON.stringify(shown.value) : String(shown.value ?? '')}</Typography.Text>
      )}
    </div>
  );
}

export interface PageHost {
  /** Opens a page of any kind in a drawer or a modal (a form saved closes it and reloads the page). */
  openForm: (action: Opening, params: Record<string, unknown>) => void;
  /** Shows a value in a dialog until it is closed. */
  showResult: (shown: ShownResult) => Promise<void>;
  /** Asks in a dialog; true when confirmed. */
  confirm: (text: string, danger?: boolean) => Promise<boolean>;
  host: ReactNode;
}

/**
 * Opens pages in a drawer or a modal (STACK.md: not Formily's FormDrawer on React 19): a form, or
 * a page of any other kind (a detail, a list), and the dialogs of action chains.
 */
export function useFormHost(onSaved: () => void): PageHost {
  const { modal } = App.useApp();
  // The dialogs render outside the page (antd's App holder): they get the services here.
  const services = useContext(RendererContext);
  const [opened, setOpened] = useState<Opened | null>(null);
  const dirty = useRef(false);
  // Which opening is current: a form closed (or another opened) while its schema loads must not
  // come back when the load finishes.
  const opening = useRef(0);

  const openForm = useCallback((action: Opening, params: Record<string, unknown>) => {
    dirty.current = false;
    const current = ++opening.current;
    const settle = (next: Opened) => {
      if (opening.current === current) setOpened(next);
    };
    setOpened({ status: 'loading', action, params });
    loadPageSchema(action.page)
      .then((value) => checkPage(value, 'file'))
      .then((checked) => {
        if (!checked.ok) settle({ status: 'invalid', action, params, problems: checked.problems });
        else settle({ status: 'ready', action, params, page: checked.page });
      })
      .catch((error: Error) => settle({ status: 'missing', action, params, message: error.message }));
  }, []);

  const close = useCallback(() => {
    opening.current += 1;
    setOpened(null);
  }, []);
  const requestClose = useCallback(() => {
    if (!dirty.current) return close();
    modal.confirm({ title: LEAVE_DIRTY_CONFIRM, okText: '离开', cancelText: '留下', onOk: close });
  }, [close, modal]);
  const onDirtyChange = useCallback((value: boolean) => {
    dirty.current = value;
  }, []);

  const showResult = useCallback(
    (shown: ShownResult) =>
      new Promise<void>((resolve) => {
        modal.info({ title: shown.title, content: <ResultBody shown={shown} services={services} />, okText: '知道了', width: 520, onOk: () => resolve(), afterClose: () => resolve() });
      }),
    [modal, services],
  );
  const confirm = useCallback(
    (text: string, danger?: boolean) =>
      new Promise<boolean>((resolve) => {
        modal.confirm({ title: text, okText: '确定', cancelText: '取消', okButtonProps: { danger }, onOk: () => resolve(true), onCancel: () => resolve(false) });
      }),
    [modal],
  );

  let body: ReactNode = null;
  if (opened?.status === 'loading') body = <Spin style={{ display: 'block', margin: '48px auto' }} />;
  else if (opened?.status === 'invalid') body = <SchemaErrorPanel file={pageFile(opened.action.page)} problems={opened.problems} />;
  else if (opened?.status === 'missing') body = <MissingNotice title="表单页面不存在" detail={opened.message} />;
  else if (opened?.status === 'ready' && opened.page.kind !== 'form')
    body = (
      // Any other kind renders as on its route; a list keeps its state in memory (the address is the page's).
      <PageAddressContext.Provider value={null}>
        <PageRenderer view={opened.action.page} params={opened.params} />
      </PageAddressContext.Provider>
    );
  else if (opened?.status === 'ready' && opened.page.kind === 'form')
    body = (
      <Suspense fallback={<Spin style={{ display: 'block', margin: '48px auto' }} />}>
        <FormRenderer
          page={opened.page}
          view={opened.action.page}
          params={opened.params}
          embedded
          onCancel={requestClose}
          onDirtyChange={onDirtyChange}
          onDone={(answer) => {
            close();
            onSaved();
            const form = opened.page.kind === 'form' ? opened.page : null;
            const shown = form?.submit.showResult;
            if (form && shown) {
              void showResult({
                title: shown.title ?? formTitle(form, opened.params),
                message: shown.message,
                value: resolveTemplate(shown.value ?? `{{${RESULT_ROOT}}}`, { params: opened.params, user: services?.user, [RESULT_ROOT]: answer }),
                fields: shown.fields,
              });
            }
          }}
        />
      </Suspense>
    );

  const title = opened?.status === 'ready' ? (opened.page.kind === 'form' ? formTitle(opened.page, opened.params) : opened.page.title) : (opened?.action.label ?? '');
  const width = opened?.action.width ?? 640;
  const host =
    opened?.action.container === 'modal' ? (
      <Modal open title={title} width={width} footer={null} onCancel={requestClose} destroyOnHidden maskClosable={false}>
        {body}
      </Modal>
    ) : (
      <Drawer open={opened !== null} title={title} width={width} onClose={requestClose} destroyOnHidden maskClosable={false}>
        {body}
      </Drawer>
    );
  return { openForm, showResult, confirm, host: opened ? host : null };
}
