import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ActionButton } from '../../../renderers/actions/ActionButton';
import { isDataError, isValidationFailure } from '../../../renderers/data/errors';
import { ErrorBoundary } from '../../../renderers/runtime/ErrorBoundary';
import { expectedFailures, setErrorReporter } from '../../../renderers/runtime/errorReporter';
import type { Action } from '../../../renderers/schema/types';
import { fakeServices, renderWith } from './harness';

const reported: Array<{ error: unknown; where: string }> = [];

function listen() {
  reported.length = 0;
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
  setErrorReporter((error, where) => reported.push({ error, where }));
}

afterEach(() => {
  setErrorReporter(null);
  vi.restoreAllMocks();
});

describe('errors: the declared kinds end in their catch, anything else is reported (issue 20)', () => {
  it('a TypeError thrown inside an action reaches the reporter; a business error does not', async () => {
    listen();
    const services = fakeServices();
    vi.mocked(services.navigate).mockImplementation(() => {
      throw new TypeError("Cannot read properties of undefined (reading 'code')");
    });
    services.data.call = vi.fn(async () => {
      throw Object.assign(new Error('设备不存在'), { kind: 'business' });
    });
    const broken: Action = { type: 'navigate', label: '详情', to: '/device/detail' };
    const refused: Action = { type: 'call', label: '删除', operation: 'device.delete' };
    const runtime = { services, refresh: vi.fn(), openForm: vi.fn() };
    renderWith(
      <>
        <ActionButton action={broken} scope={{}} runtime={runtime} />
        <ActionButton action={refused} scope={{}} runtime={runtime} />
      </>,
      services,
    );
    await userEvent.click(await screen.findByRole('button', { name: /详\s*情/ }));
    await waitFor(() => expect(reported).toHaveLength(1));
    expect(reported[0].error).toBeInstanceOf(TypeError);
    expect(reported[0].where).toBe('操作 详情');
    expect(console.error).toHaveBeenCalledWith('[操作 详情]', reported[0].error);

    await userEvent.click(screen.getByRole('button', { name: /删\s*除/ }));
    await waitFor(() => expect(services.data.call).toHaveBeenCalled());
    // The client told the user; the button is usable again and nothing more is reported.
    await waitFor(() => expect(screen.getByRole('button', { name: /删\s*除/ })).toBeEnabled());
    expect(reported).toHaveLength(1);
  });

  it('the error boundary logs what it caught through the reporter', () => {
    listen();
    function Broken(): never {
      throw new RangeError('坏了');
    }
    render(
      <ErrorBoundary>
        <Broken />
      </ErrorBoundary>,
    );
    expect(screen.getByRole('alert')).toHaveTextContent('坏了');
    expect(reported.map((entry) => entry.error)).toContainEqual(new RangeError('坏了'));
    expect(reported[0].where).toMatch(/^渲染/);
  });

  it('what counts as expected: a data call failure of the four kinds, a refused validation', () => {
    listen();
    for (const kind of ['business', 'session', 'network', 'cancelled']) expect(isDataError(Object.assign(new Error('x'), { kind }))).toBe(true);
    expect(isDataError(Object.assign(new Error('x'), { kind: 'other' }))).toBe(false);
    expect(isDataError({ kind: 'business' })).toBe(false);
    expect(isValidationFailure({ errorFields: [{ name: ['a'], errors: ['请输入'] }] })).toBe(true);
    expect(isValidationFailure([{ path: 'a', messages: ['请输入'] }])).toBe(true);
    expect(isValidationFailure(new TypeError('x'))).toBe(false);
    const settle = expectedFailures('测试');
    settle(Object.assign(new Error('网络'), { kind: 'network' }));
    settle({ errorFields: [] });
    expect(reported).toHaveLength(0);
    settle(new SyntaxError('bad'));
    expect(reported).toEqual([{ error: new SyntaxError('bad'), where: '测试' }]);
  });
});
