// @vitest-environment jsdom
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { DISPLAY_KINDS, renderCell } from '../../../renderers/displays/displays';
import { sanitiseHtml } from '../../../renderers/displays/media';
import { FORM_COMPONENT_KINDS, FORM_COMPONENTS } from '../../../renderers/form/formily';
import { fakeServices } from './harness';

describe('registries', () => {
  it('hold the built-in displays and form components, each drawn by what its entry gives', () => {
    expect(DISPLAY_KINDS.names().sort()).toEqual(['boolean', 'count', 'date', 'datetime', 'dict', 'duration', 'html', 'image', 'link', 'money', 'number', 'percent', 'phone', 'tag', 'text']);
    expect(Object.keys(FORM_COMPONENTS).sort()).toEqual(FORM_COMPONENT_KINDS.names().sort());
    for (const [name, kind] of FORM_COMPONENT_KINDS.list()) expect(FORM_COMPONENTS[name], name).toBe(kind.component);
  });
});

describe('displays', () => {
  const services = fakeServices();
  const cell = (display: string, value: unknown, extra: Record<string, unknown> = {}) =>
    render(<div data-testid="cell">{renderCell({ field: 'v', title: 'V', display, ...extra }, { v: value, id: 3 }, services)}</div>);

  it('dict: the label, 未知 for an unknown value', () => {
    cell('dict', 'online', { dictType: 'device_state' });
    expect(screen.getByTestId('cell')).toHaveTextContent('在线');
  });
  it('dict: 未知 for an unknown value', () => {
    cell('dict', 'sleeping', { dictType: 'device_state' });
    expect(screen.getByTestId('cell')).toHaveTextContent('未知');
  });
  it('phone: masked, 暂无 when empty', () => {
    cell('phone', '');
    expect(screen.getByTestId('cell')).toHaveTextContent('暂无');
  });
  it('count and duration follow SPEC §9', () => {
    cell('count', 1500);
    expect(screen.getByTestId('cell')).toHaveTextContent('1000+');
  });
  it('datetime', () => {
    cell('datetime', '2026-11-22T08:05:09');
    expect(screen.getByTestId('cell')).toHaveTextContent('2026-11-22 08:05:09');
  });
  it('image: a file path prefix when the url lacks https', async () => {
    cell('image', 'avatar/2026/a.png');
    // The thumbnail's code loads on first use.
    await waitFor(() => expect(screen.getByTestId('cell').querySelector('img.ant-image-img')).toHaveAttribute('src', '/files/avatar/2026/a.png'));
    cleanup();
    cell('image', 'https://cdn.example.com/a.png');
    await waitFor(() => expect(screen.getByTestId('cell').querySelector('img.ant-image-img')).toHaveAttribute('src', 'https://cdn.example.com/a.png'));
  });
  it('link: navigates inside the console', async () => {
    cell('link', '泵站一号', { to: '/device/detail?id={{record.id}}' });
    await userEvent.click(screen.getByText('泵站一号'));
    expect(services.navigate).toHaveBeenCalledWith('/device/detail?id=3');
  });
  it('html: sanitised, no script, handler or javascript: url survives', async () => {
    const dirty = '<p>通知<script>window.hacked=1</script><img src=x onerror="window.hacked=1"><a href="javascript:alert(1)">点我</a></p>';
    const clean = sanitiseHtml(dirty);
    expect(clean).not.toMatch(/script|onerror|javascript:/i);
    expect(clean).toContain('通知');
    cell('html', dirty);
    // The sanitiser loads on first use; the markup shows once it has run.
    await waitFor(() => expect(screen.getByTestId('cell').querySelector('.safe-html')).toHaveTextContent('通知'));
    expect(screen.getByTestId('cell').innerHTML).not.toMatch(/onerror|javascript:/i);
    expect((window as unknown as { hacked?: number }).hacked).toBeUndefined();
  });
  it('tag: the dictionary label in a tag', () => {
    cell('tag', 'offline', { dictType: 'device_state' });
    expect(screen.getByTestId('cell').querySelector('.ant-tag')).toHaveTextContent('离线');
  });
  it('tag: a list shows one tag per item, labelled by the dictionary; an empty list a dash', () => {
    cell('tag', ['online', 'offline', ''], { dictType: 'device_state' });
    expect([...screen.getByTestId('cell').querySelectorAll('.ant-tag')].map((tag) => tag.textContent)).toEqual(['在线', '离线']);
    cleanup();
    cell('tag', ['产品：超声波液位计', '电量：85%']);
    expect([...screen.getByTestId('cell').querySelectorAll('.ant-tag')].map((tag) => tag.textContent)).toEqual(['产品：超声波液位计', '电量：85%']);
    cleanup();
    cell('tag', []);
    expect(screen.getByTestId('cell')).toHaveTextContent('-');
  });
  it('duration and boolean', () => {
    cell('duration', 2 * 86400 + 5 * 3600);
    expect(screen.getByTestId('cell')).toHaveTextContent('2天5小时');
  });
  it('empty values show a dash', () => {
    cell('text', null);
    expect(screen.getByTestId('cell')).toHaveTextContent('-');
  });
});
