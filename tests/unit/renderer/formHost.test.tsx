import { act, render, screen, waitFor } from '@testing-library/react';
import { App as AntdApp } from 'antd';
import { describe, expect, it, vi } from 'vitest';
import { useFormHost } from '../../../renderers/form/FormHost';
import type { OpenFormAction } from '../../../renderers/schema/types';

const pending: Array<(value: unknown) => void> = [];
vi.mock('../../../renderers/pages', () => ({
  pageFile: (view: string) => `schemas/pages/${view}.json`,
  loadPageSchema: () => new Promise((resolve) => pending.push(resolve)),
  PageComposeError: class PageComposeError extends Error {},
}));

// The check passes the page through at once, so the late load settles within a few ticks.
vi.mock('../../../renderers/schema/checkPage', () => ({ checkPage: async (page: unknown) => ({ ok: true, page }) }));

const action: OpenFormAction = { type: 'openForm', label: '重置手机号', page: 'system/userPhoneForm', container: 'modal' };

function Host() {
  const { openForm, host } = useFormHost(() => undefined);
  return (
    <>
      <button type="button" onClick={() => openForm(action, { id: '3' })}>
        打开
      </button>
      {host}
    </>
  );
}

describe('form host', () => {
  it('a form closed while its schema loads stays closed when the load finishes', async () => {
    render(
      <AntdApp>
        <Host />
      </AntdApp>,
    );
    act(() => screen.getByRole('button', { name: '打开' }).click());
    expect(await screen.findByRole('dialog')).toBeInTheDocument();
    expect(screen.getByText('重置手机号')).toBeInTheDocument();
    // Escape (the modal's close) before the schema has come.
    const close = screen.getByRole('button', { name: /close|关闭/i });
    act(() => close.click());
    await waitFor(() => expect(screen.queryByText('重置手机号')).not.toBeInTheDocument());
    // The schema arrives late: nothing opens again.
    await act(async () => {
      pending.shift()?.({ schemaVersion: 1, kind: 'form', title: '重置手机号', schema: { type: 'object', properties: {} } });
      await new Promise((resolve) => setTimeout(resolve, 50));
    });
    expect(screen.queryByText('重置手机号')).not.toBeInTheDocument();
  });
});
