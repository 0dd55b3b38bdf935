import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import PageRenderer from '../../../renderers/PageRenderer';
import { fakeData, fakeServices, renderWith } from './harness';

/**
 * A cut cell (free text with an ellipsis) clips its text rather than hiding its overflow: to
 * Chromium a cell with `overflow: hidden` is a scroll container, with a scrollable area and a clip
 * of its own, 5,000 of them on a 1,000-row page of five cut columns (issue 35).
 */
describe('cut cells', () => {
  it('clip their text with an ellipsis without being scroll containers', async () => {
    const page = { schemaVersion: 1, kind: 'list', title: '告警记录', operation: 'alarm.page', columns: [{ field: 'title', title: '告警标题' }] };
    renderWith(<PageRenderer view="fixture/list" schema={page} />, fakeServices({ data: fakeData([{ id: 1, title: '烟雾浓度超过阈值持续三十秒' }]) }));
    const cell = (await screen.findByText('烟雾浓度超过阈值持续三十秒')).closest('td');
    expect(cell).toHaveClass('ant-table-cell-ellipsis');
    const rules = [...document.querySelectorAll('style')].map((style) => style.textContent ?? '').join('\n');
    expect(rules).toMatch(/\.ant-table-wrapper \.ant-table-cell\.ant-table-cell-ellipsis\s*\{\s*overflow:\s*clip/);
  });
});
