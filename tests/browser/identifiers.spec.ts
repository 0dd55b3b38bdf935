import { expect, test, type Locator, type Page } from './fixtures';
import { activeTab, loginThroughForm, resetPlatform, visit } from './support';

/**
 * Issue 34: with every column fitted into 1440 px, ICCID read `898601…` and 告警编号 `AL202612…`
 * on every row, and 告警标题 three characters. An identifier (a code, an ICCID, a phone number …)
 * is shown whole on one line, in a monospace face, and the table scrolls sideways before one is
 * cut; free text may be cut, but keeps about four characters (so that 用户管理 and 待确认卡订单 still fit 1440 px).
 */

test.beforeEach(async ({ request }) => {
  await resetPlatform(request);
});

interface CellFit {
  column: string;
  value: string;
  scroll: number;
  client: number;
  lines: number;
  font: string;
}

/** Every cell of the named columns on the list's first page: how wide its content is against the cell, on how many lines. */
async function identifierCells(list: Locator, titles: readonly string[]): Promise<{ cells: CellFit[]; missing: string[] }> {
  return list.locator('.ant-table').first().evaluate((table, wanted) => {
    const headers = Array.from(table.querySelectorAll('thead tr:first-child th')).map((th) => th.textContent?.trim() ?? '');
    const missing = wanted.filter((title) => !headers.includes(title));
    const cells: CellFit[] = [];
    for (const row of Array.from(table.querySelectorAll('tbody tr.ant-table-row'))) {
      const tds = Array.from(row.children) as HTMLElement[];
      for (const title of wanted) {
        const td = tds[headers.indexOf(title)];
        if (!td) continue;
        const range = document.createRange();
        range.selectNodeContents(td);
        const tops = new Set(Array.from(range.getClientRects()).filter((rect) => rect.width > 0).map((rect) => Math.round(rect.top)));
        const style = getComputedStyle(td);
        const inner = td.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
        // The last fixed column's shadow (an ::after past its right edge) counts in its scrollWidth:
        // that cell is measured by its content's box against the box inside its padding.
        const shadowed = td.classList.contains('ant-table-cell-fix-left-last') || td.classList.contains('ant-table-cell-fix-right-first');
        const scroll = shadowed ? Math.ceil(range.getBoundingClientRect().width) : td.scrollWidth;
        cells.push({ column: title, value: td.textContent ?? '', scroll, client: shadowed ? Math.floor(inner) : td.clientWidth, lines: tops.size, font: style.fontFamily });
      }
    }
    return { cells, missing };
  }, titles);
}

async function expectWhole(page: Page, path: string, titles: readonly string[]): Promise<void> {
  await visit(page, path);
  // The page's own tab (the one shown before may still be active for a moment).
  const list = page.locator(`[data-tab="${path}"]:not([hidden])`).getByTestId('list-page');
  await expect(list.locator('.ant-table-row').first()).toBeVisible();
  const { cells, missing } = await identifierCells(list, titles);
  expect(missing, `${path}: columns not shown`).toEqual([]);
  expect(cells.length, `${path}: cells measured`).toBeGreaterThanOrEqual(titles.length * 5);
  const cut = cells.filter((cell) => cell.scroll > cell.client + 1).map((cell) => `${cell.column} ${cell.value} (${cell.scroll} > ${cell.client})`);
  expect(cut, `${path}: identifiers whose content overflows their cell`).toEqual([]);
  const wrapped = cells.filter((cell) => cell.lines > 1).map((cell) => `${cell.column} ${cell.value} (${cell.lines} lines)`);
  expect(wrapped, `${path}: identifiers on more than one line`).toEqual([]);
  const proportional = cells.filter((cell) => !/mono/i.test(cell.font)).map((cell) => `${cell.column}: ${cell.font}`);
  expect(proportional, `${path}: identifiers not in a monospace face`).toEqual([]);
}

test('at 1440 px 物联网卡, 告警记录 and 设备 show every identifier whole, on one line, in monospace', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await loginThroughForm(page, 'tadmin');
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.evaluate(() => document.fonts.ready);

  await expectWhole(page, '/card/internet', ['ICCID', 'MSISDN', '设备编码']);
  await expectWhole(page, '/alarm/record', ['告警编号', '设备编码']);
  await expectWhole(page, '/device/all', ['设备编码']);
});

test('at 1440 px free text narrows no further than about four characters, and the table scrolls instead', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await loginThroughForm(page, 'tadmin');
  await expect(page).toHaveURL(/\/dashboard$/);
  await visit(page, '/alarm/record');
  const list = activeTab(page).getByTestId('list-page');
  await expect(list.locator('.ant-table-row').first()).toBeVisible();
  const title = await list.locator('.ant-table thead th', { hasText: '告警标题' }).first().evaluate((th) => th.getBoundingClientRect().width);
  expect(title).toBeGreaterThanOrEqual(4 * 14 + 16);
  const scroller = await list.locator('.ant-table-content').first().evaluate((element) => ({ scroll: element.scrollWidth, client: element.clientWidth, overflow: getComputedStyle(element).overflowX }));
  if (scroller.scroll > scroller.client) expect(['auto', 'scroll']).toContain(scroller.overflow);
});

test('an identifier is selected whole with one click, ready to copy', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await loginThroughForm(page, 'tadmin');
  await expect(page).toHaveURL(/\/dashboard$/);
  await visit(page, '/card/internet');
  const list = activeTab(page).getByTestId('list-page');
  const row = list.locator('.ant-table-row').first();
  await expect(row).toBeVisible();
  const column = await list.locator('.ant-table thead tr:first-child th').evaluateAll((ths) => ths.findIndex((th) => th.textContent?.trim() === 'ICCID'));
  const cell = row.locator('td').nth(column);
  const iccid = (await cell.textContent())?.trim() ?? '';
  expect(iccid).toMatch(/^\d{19,20}$/);
  await cell.click();
  expect(await page.evaluate(() => window.getSelection()?.toString().trim())).toBe(iccid);
});
