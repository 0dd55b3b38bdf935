// Issue 33, "Built-ins registered like extensions": every built-in dashboard widget is an entry of
// the widget registry (renderers/dashboard/widgetKinds.tsx), written with the props a console
// widget gets; DashboardRenderer asks the registry (no `if` chain over the types); a second
// entry of a name throws.
import { screen } from '@testing-library/react';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import PageRenderer from '../../../renderers/PageRenderer';
import { WIDGET_KINDS } from '../../../renderers/dashboard/widgetKinds';
import type { DashboardWidgetProps } from '../../../renderers/services';
import { fakeData, fakeServices, renderWith } from './harness';

vi.mock('../../../renderers/dashboard/Chart', () => ({ Chart: ({ label }: { label: string }) => <div role="img" aria-label={label} /> }));

describe('the dashboard widget registry', () => {
  it('holds the built-in types, and is where the page language takes them from (names.schema.json, npm run schemas)', () => {
    expect(WIDGET_KINDS.names().sort()).toEqual(['bar', 'gauge', 'line', 'pie', 'statistic', 'table']);
    const read = (file: string) => JSON.parse(readFileSync(join(process.cwd(), file), 'utf8')) as { $defs: Record<string, { enum?: string[]; properties?: Record<string, { $ref?: string }> }> };
    expect(read('schemas/page.schema.json').$defs.widget.properties?.type.$ref).toBe('names.schema.json#/$defs/widget');
    expect(read('schemas/names.schema.json').$defs.widget.enum).toEqual(WIDGET_KINDS.names().sort());
    expect(readFileSync(join(process.cwd(), 'renderers/schema/types.ts'), 'utf8')).not.toMatch(/BUILTIN_WIDGET_TYPES|'statistic', 'line'/);
  });

  it('DashboardRenderer asks the registry: no branch over widget types', () => {
    const source = readFileSync(join(process.cwd(), 'renderers/dashboard/DashboardRenderer.tsx'), 'utf8');
    expect(source).not.toMatch(/widget\.type\s*===/);
    expect(source).not.toMatch(/\bcase\s+['"]/);
  });

  it('a second entry of a name throws', () => {
    expect(() => WIDGET_KINDS.register('gauge', { Body: () => null, skeletonRows: 1 })).toThrow('仪表盘组件类型 gauge 已注册');
  });

  it('a type added through the registry draws its answer in the card beside the built-ins', async () => {
    function Progress({ widget, data }: DashboardWidgetProps) {
      const { done, total } = data as { done: number; total: number };
      return <div role="progressbar" aria-label={widget.title} aria-valuenow={Math.round((done / total) * 100)} />;
    }
    WIDGET_KINDS.register('testProgress', { Body: Progress, skeletonRows: 1 });
    const data = fakeData();
    data.call = vi.fn(async () => ({ done: 3, total: 4, value: 12 }) as never);
    const page = {
      schemaVersion: 1,
      kind: 'dashboard',
      title: '进度',
      widgets: [
        { type: 'testProgress', title: '升级进度', operation: 'stats.progress' },
        { type: 'statistic', title: '总数', operation: 'stats.progress' },
        { type: 'line', title: '趋势', operation: 'stats.progress', rowsField: 'days' },
      ],
    };
    renderWith(<PageRenderer view="fixture/progress" schema={page} />, fakeServices({ data }));
    expect(await screen.findByRole('progressbar', { name: '升级进度' })).toHaveAttribute('aria-valuenow', '75');
    expect(await screen.findByText('12')).toBeInTheDocument();
    // A chart with no rows says so (the line's rowsField names nothing in this answer).
    expect((await screen.findAllByText('暂无数据')).length).toBeGreaterThan(0);
  });
});
