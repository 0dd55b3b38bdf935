// @vitest-environment jsdom
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createDataQueryClient } from '../../renderers/data/queryClient';
import type { FileUrlAnswer, FileUrlSource } from '../../renderers/data/filePaths';
import { storedPathOf } from '../../renderers/data/fileUrls';
import { renderCell } from '../../renderers/displays/displays';
import { SafeHtml, withFileUrls } from '../../renderers/displays/media';
import { fakeServices } from './renderer/harness';

/**
 * Stored files are shown at the urls the server gives the session for them, one file each (issue
 * 30): the paths a page shows go to system.file.ticket in one call, through the data layer's
 * cache, whatever number of components show them; another session asks again.
 */

const A = 'upload/2026/11/0123456789abcdef0123456789abcdef.png';
const B = 'upload/2026/11/fedcba9876543210fedcba9876543210.jpg';
const HIDDEN = 'upload/2026/11/00000000000000000000000000000000.png';
const signed = (path: string, holder: string) => `/files/${path}?ticket=${holder}-${path.slice(15, 19)}`;

/** A source over a fake server: every path but HIDDEN is the session's to read. */
function fakeSource(holder = { current: 'h1' }) {
  const fetch = vi.fn(async (paths: string[]): Promise<FileUrlAnswer> => ({
    urls: Object.fromEntries(paths.filter((path) => path !== HIDDEN).map((path) => [path, signed(path, holder.current)])),
    expiresAt: new Date(Date.now() + 30 * 60_000).toISOString(),
  }));
  const source: FileUrlSource = { queries: createDataQueryClient(), fetch, holder: () => holder.current };
  return { source, fetch, holder };
}

afterEach(cleanup);

describe('stored paths and HTML', () => {
  it('knows a stored path in either spelling, and nothing else', () => {
    expect(storedPathOf(A)).toBe(A);
    expect(storedPathOf(`/files/${A}`)).toBe(A);
    for (const other of ['https://cdn.example.com/a.png', 'data:image/png;base64,AA', '/files/../package.json', 'upload/a.png', '']) expect(storedPathOf(other)).toBeNull();
  });

  it('gives the platform\'s images in sanitised HTML their urls; one without a url loses its src, other images stay', () => {
    const html = `<p>图</p><img src="/files/${A}" alt="图"><img src="/files/${HIDDEN}" alt="无"><img src="https://cdn.example.com/b.png">`;
    const urlOf = (path: string) => (path === `/files/${A}` ? signed(A, 't') : undefined);
    expect(withFileUrls(html, urlOf)).toBe(`<p>图</p><img src="${signed(A, 't').replace(/&/g, '&amp;')}" alt="图"><img alt="无"><img src="https://cdn.example.com/b.png">`);
    expect(withFileUrls('<p>无图</p>', urlOf)).toBe('<p>无图</p>');
  });
});

describe('file urls through the data layer', () => {
  it('asks once for every path a page shows (thumbnails and rich text together), and shows each at its own url', async () => {
    // The thumbnails' code loaded first (a lazy chunk), as on a page that has shown images before.
    render(<div data-testid="warm">{renderCell({ field: 'photo', title: '照片', display: 'image' }, { photo: 'https://cdn.example.com/a.png' }, fakeServices())}</div>);
    await waitFor(() => expect(screen.getByTestId('warm').querySelector('img.ant-image-img')).not.toBeNull());
    cleanup();
    const { source, fetch } = fakeSource();
    const services = fakeServices({ files: source });
    render(
      <div>
        <div data-testid="first">{renderCell({ field: 'photos', title: '照片', display: 'image' }, { photos: [A, B] }, services)}</div>
        <div data-testid="second">{renderCell({ field: 'photo', title: '照片', display: 'image' }, { photo: `/files/${A}` }, services)}</div>
        <SafeHtml html={`<p>说明</p><img src="/files/${B}" alt="说明图"><img src="/files/${HIDDEN}" alt="看不到">`} files={source} />
      </div>,
    );
    await waitFor(() => expect(screen.getByAltText('说明图')).toHaveAttribute('src', signed(B, 'h1')));
    await waitFor(() => expect(screen.getByTestId('first').querySelectorAll('img.ant-image-img')).toHaveLength(2));
    const first = [...screen.getByTestId('first').querySelectorAll('img.ant-image-img')].map((image) => image.getAttribute('src'));
    expect(first).toEqual([signed(A, 'h1'), signed(B, 'h1')]);
    await waitFor(() => expect(screen.getByTestId('second').querySelector('img.ant-image-img')).toHaveAttribute('src', signed(A, 'h1')));
    // The file the session may not read is not asked of the server as a plain path.
    expect(screen.getByAltText('看不到')).not.toHaveAttribute('src');
    expect(fetch).toHaveBeenCalledTimes(1);
    expect([...fetch.mock.calls[0][0]].sort()).toEqual([A, B, HIDDEN].sort());
  });

  it('another session (a new access token) asks again; the same one uses what it has', async () => {
    const { source, fetch, holder } = fakeSource();
    const html = `<img src="/files/${A}" alt="图">`;
    const { unmount } = render(<SafeHtml html={html} files={source} />);
    await waitFor(() => expect(screen.getByAltText('图')).toHaveAttribute('src', signed(A, 'h1')));
    unmount();
    render(<SafeHtml html={html} files={source} />);
    await waitFor(() => expect(screen.getByAltText('图')).toHaveAttribute('src', signed(A, 'h1')));
    expect(fetch).toHaveBeenCalledTimes(1);
    cleanup();
    holder.current = 'h2';
    render(<SafeHtml html={html} files={source} />);
    await waitFor(() => expect(screen.getByAltText('图')).toHaveAttribute('src', signed(A, 'h2')));
    expect(fetch).toHaveBeenCalledTimes(2);
  });

  it('shows nothing of a stored file while its url is on its way, and other urls as they are', async () => {
    let answer: (value: FileUrlAnswer) => void = () => undefined;
    const fetch = vi.fn(() => new Promise<FileUrlAnswer>((resolve) => (answer = resolve)));
    const source: FileUrlSource = { queries: createDataQueryClient(), holder: () => 'h', fetch };
    const services = fakeServices({ files: source });
    render(<div data-testid="cell">{renderCell({ field: 'photos', title: '照片', display: 'image' }, { photos: [A, 'https://cdn.example.com/a.png'] }, services)}</div>);
    await waitFor(() => expect(screen.getByTestId('cell').querySelectorAll('img.ant-image-img')).toHaveLength(1));
    expect(screen.getByTestId('cell').querySelector('img.ant-image-img')).toHaveAttribute('src', 'https://cdn.example.com/a.png');
    expect(screen.getAllByTestId('thumbnail-waiting')).toHaveLength(1);
    await waitFor(() => expect(fetch).toHaveBeenCalledTimes(1));
    answer({ urls: { [A]: signed(A, 'h') }, expiresAt: new Date(Date.now() + 60_000 * 30).toISOString() });
    await waitFor(() => expect(screen.getByTestId('cell').querySelectorAll('img.ant-image-img')).toHaveLength(2));
  });
});
