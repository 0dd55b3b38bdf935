import { render, screen } from '@testing-library/react';
import { flattenKeys as antdFlattenKeys } from 'antd/es/table/hooks/useFilter/FilterDropdown';
import zhCN from 'antd/es/locale/zh_CN';
import { describe, expect, it } from 'vitest';
import FilterDropdown, { flattenKeys } from '../../../renderers/runtime/lazyFilterDropdown';

/**
 * The production build gives antd's table a lazy filter dropdown (vite.config.ts, lazyTableFilter;
 * issue 35): no list column filters, so its Tree, Radio and Dropdown stay out of a list's first
 * paint. A column that does filter still gets antd's own dropdown, its title shown until it loads.
 */
describe('the lazy table filter dropdown', () => {
  it('flattens filter keys as antd does', () => {
    const filters = [{ text: '甲', value: 'a', children: [{ text: '乙', value: 'b', children: [{ text: '丙', value: 'c' }] }] }, { text: '丁', value: 'd' }];
    expect(flattenKeys(filters)).toEqual(antdFlattenKeys(filters));
    expect(flattenKeys(undefined)).toEqual([]);
  });

  it('shows the column title, then antd\'s filter trigger beside it', async () => {
    render(
      <FilterDropdown
        tablePrefixCls="ant-table"
        prefixCls="ant-table-filter"
        dropdownPrefixCls="ant-dropdown"
        column={{ title: '状态', filters: [{ text: '在线', value: 'online' }] }}
        columnKey="state"
        filterOnClose
        filterMultiple
        triggerFilter={() => undefined}
        locale={zhCN.Table ?? {}}
        rootClassName=""
      >
        状态
      </FilterDropdown>,
    );
    expect(screen.getByText('状态')).toBeInTheDocument();
    expect(await screen.findByRole('button', { hidden: true })).toHaveClass('ant-table-filter-trigger');
    expect(screen.getByText('状态')).toBeInTheDocument();
  });
});
