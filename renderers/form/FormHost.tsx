import { App, Drawer, Modal, Spin } from 'antd';
import { lazy, Suspense, useCallback, useRef, useState, type ReactNode } from 'react';
import { loadPageSchema, pageFile } from '../pages';
import { checkPage } from '../schema/checkPage';
import type { SchemaProblem } from '../schema/validate';
import type { FormPage, OpenFormAction } from '../schema/types';
import { MissingNotice } from '../runtime/MissingNotice';
import { SchemaErrorPanel } from '../runtime/SchemaErrorPanel';
import { formTitle } from './formMode';
import { LEAVE_DIRTY_CONFIRM } from './leaveConfirm';

const FormRenderer = lazy(() => import('./FormRenderer'));

type Opened =
  | { status: 'loading'; action: OpenFormAction; params: Record<string, unknown> }
  | { status: 'ready'; action: OpenFormAction; params: Record<string, unknown>; page: FormPage }
  | { status: 'invalid'; action: OpenFormAction; params: Record<string, unknown>; problems: SchemaProblem[] }
  | { status: 'missing'; action: OpenFormAction; params: Record<string, unknown>; message: string };

/** Opens form pages in a drawer or a modal (STACK.md: not Formily's FormDrawer on React 19). */
export function useFormHost(onSaved: () => void): { openForm: (action: OpenFormAction, params: Record<string, unknown>) => void; host: ReactNode } {
  const { modal } = App.useApp();
  const [opened, setOpened] = useState<Opened | null>(null);
  const dirty = useRef(false);
  // Which opening is current: a form closed (or another opened) while its schema loads must not
  // come back when the load finishes.
  const opening = useRef(0);

  const openForm = useCallback((action: OpenFormAction, params: Record<string, unknown>) => {
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
        else if (checked.page.kind !== 'form') settle({ status: 'invalid', action, params, problems: [{ pointer: '/kind', message: `openForm 需要表单页面，这是 ${checked.page.kind}` }] });
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

  let body: ReactNode = null;
  if (opened?.status === 'loading') body = <Spin style={{ display: 'block', margin: '48px auto' }} />;
  else if (opened?.status === 'invalid') body = <SchemaErrorPanel file={pageFile(opened.action.page)} problems={opened.problems} />;
  else if (opened?.status === 'missing') body = <MissingNotice title="表单页面不存在" detail={opened.message} />;
  else if (opened?.status === 'ready')
    body = (
      <Suspense fallback={<Spin style={{ display: 'block', margin: '48px auto' }} />}>
        <FormRenderer
          page={opened.page}
          view={opened.action.page}
          params={opened.params}
          embedded
          onCancel={requestClose}
          onDirtyChange={onDirtyChange}
          onDone={() => {
            close();
            onSaved();
          }}
        />
      </Suspense>
    );

  const title = opened?.status === 'ready' ? formTitle(opened.page, opened.params) : (opened?.action.label ?? '');
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
  return { openForm, host: opened ? host : null };
}
