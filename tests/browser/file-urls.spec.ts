import { expect, test, type APIRequestContext, type Locator, type Page } from './fixtures';
import { activeTab, callOperation, loginThroughForm, resetPlatform, tokenFor, visit, watchErrors } from './support';

// Stored files in the console (issue 30): each shown at the url the server gives this session for
// that one file, the urls of a page asked for in one call, and none of them working once the
// session has ended: the avatar of the account drawer and the /files/ images of a notice's HTML.

test.beforeEach(async ({ request }) => {
  await resetPlatform(request);
});

/** A 2×2 PNG: a real picture the upload sniffs as such and the browser decodes. */
const PICTURE = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAYAAABytg0kAAAAEklEQVR42mP8z8DwnwEIGGEMAC/2Av6XoK+NAAAAAElFTkSuQmCC', 'base64');
const TICKETED = /^\/files\/upload\/\d{4}\/\d{2}\/[0-9a-f]{32}\.png\?ticket=s\d+\.\d+\.[A-Za-z0-9_-]{43}$/;

async function uploadPicture(request: APIRequestContext, token: string, name: string): Promise<string> {
  const response = await request.post('/api/system/file/upload', { headers: { token }, multipart: { file: { name, mimeType: 'image/png', buffer: PICTURE } } });
  const body = (await response.json()) as { code: string; data: { url: string } };
  expect(body.code).toBe('200');
  return body.data.url;
}

/** The calls for file urls the page makes from now on, with the paths each asked for. */
function watchFileUrlCalls(page: Page): string[][] {
  const calls: string[][] = [];
  page.on('request', (request) => {
    if (request.url().endsWith('/api/system/file/_ticket')) calls.push((request.postDataJSON() as { param: { paths: string[] } }).param.paths);
  });
  return calls;
}

/** An image's url once it has loaded (its picture decoded), checked to be the session's url of its file. */
async function loadedUrl(image: Locator): Promise<string> {
  await expect(image).toHaveAttribute('src', TICKETED);
  await expect.poll(() => image.evaluate((element) => (element as HTMLImageElement).complete && (element as HTMLImageElement).naturalWidth)).toBe(2);
  return (await image.getAttribute('src'))!;
}

async function signOut(page: Page) {
  await page.getByTestId('user-menu').hover();
  await page.getByText('退出登录').click();
  await expect(page.locator('.ant-modal-confirm-title', { hasText: '确认登出' })).toBeVisible();
  await page.getByRole('button', { name: /确\s*定/ }).click();
  await expect(page).toHaveURL(/\/login$/);
}

test('the avatar is shown at its url for this session, which stops working at sign-out', async ({ page, request }) => {
  const errors = watchErrors(page);
  await loginThroughForm(page, 'tuser');
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.getByTestId('user-menu').hover();
  await page.getByText('账号信息').click();
  const drawer = page.locator('.ant-drawer-content');
  await drawer.locator('input[type="file"]').setInputFiles({ name: '头像.png', mimeType: 'image/png', buffer: PICTURE });
  await expect(page.getByText('编辑成功！')).toBeVisible();
  const url = await loadedUrl(drawer.locator('.ant-avatar img'));
  expect((await request.get(url)).status()).toBe(200);
  // Another file's path with this url's ticket: refused.
  const other = await uploadPicture(request, await tokenFor(request, 'tuser'), '别的.png');
  expect((await request.get(url.replace(/upload\/[^?]+/, other))).status()).toBe(403);
  await page.keyboard.press('Escape');
  await signOut(page);
  expect((await request.get(url)).status()).toBe(403);
  expect(errors).toEqual([]);
});

test('a notice\'s /files/ images are shown at their urls, asked for in one call', async ({ page, request }) => {
  const errors = watchErrors(page);
  const token = await tokenFor(request, 'tadmin');
  const [first, second] = [await uploadPicture(request, token, '巡检一.png'), await uploadPicture(request, token, '巡检二.png')];
  const body = `<p>巡检照片如下。</p><p><img src="/files/${first}" alt="巡检照片一"><img src="/files/${second}" alt="巡检照片二"></p>`;
  const inserted = await callOperation<{ code: string }>(request, 'notification.maintenance.insert', { notification: { title: '湖滨监测站巡检照片', tabType: 1, audienceType: 'all', body } }, token);
  expect(inserted.code).toBe('200');

  await loginThroughForm(page, 'tadmin');
  await expect(page).toHaveURL(/\/dashboard$/);
  const calls = watchFileUrlCalls(page);
  await visit(page, `/message/maintenance/detail?code=${inserted.data.code}`);
  const detail = activeTab(page).getByTestId('detail-page');
  await expect(detail).toContainText('巡检照片如下');
  const urls = [await loadedUrl(detail.getByAltText('巡检照片一')), await loadedUrl(detail.getByAltText('巡检照片二'))];
  expect(urls[0]).toContain(first);
  expect(urls[1]).toContain(second);
  expect(calls.map((paths) => [...paths].sort())).toEqual([[first, second].sort()]);
  expect(errors).toEqual([]);
});
