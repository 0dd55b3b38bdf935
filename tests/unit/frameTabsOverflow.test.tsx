import { render } from '@testing-library/react';
import { Tabs } from 'antd';
import { useRef } from 'react';
import { describe, expect, it } from 'vitest';
import { useTabsOverflowForPointer } from '../../src/frame/tabsOverflow';

function Strip({ count }: { count: number }) {
  const holder = useRef<HTMLDivElement>(null);
  useTabsOverflowForPointer(holder);
  return (
    <div ref={holder}>
      <Tabs items={Array.from({ length: count }, (_, index) => ({ key: String(index), label: `页面${index}` }))} />
    </div>
  );
}

describe('the tab strip’s … button (issue 21, axe on 设备详情 at 390 px)', () => {
  it('is kept out of the tablist’s accessible children and the Tab order, the tabs themselves stay', () => {
    const { container, rerender } = render(<Strip count={3} />);
    const more = container.querySelector<HTMLElement>('[role="tablist"] .ant-tabs-nav-more');
    expect(more).not.toBeNull();
    expect(more?.getAttribute('aria-hidden')).toBe('true');
    expect(more?.tabIndex).toBe(-1);
    rerender(<Strip count={12} />);
    const after = container.querySelector<HTMLElement>('.ant-tabs-nav-more');
    expect(after?.getAttribute('aria-hidden')).toBe('true');
    expect(after?.tabIndex).toBe(-1);
    expect(container.querySelectorAll('[role="tab"]')).toHaveLength(12);
  });
});
