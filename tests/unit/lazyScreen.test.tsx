import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ChunkLoadError, CHUNK_LOAD_TIMEOUT_MS, loadChunk } from '../../renderers/runtime/chunks';
import { lazyView } from '../../renderers/runtime/lazyView';
import { ErrorBoundary } from '../../renderers/runtime/ErrorBoundary';

describe('screen chunks', () => {
  it('a chunk that fails to load shows a retry, and the retry loads it again', async () => {
    let attempts = 0;
    const DeviceList = () => <p>设备列表</p>;
    const Screen = lazyView<object>(() => {
      attempts += 1;
      return attempts === 1 ? Promise.reject(new TypeError('Failed to fetch dynamically imported module')) : Promise.resolve({ default: DeviceList });
    });
    render(<Screen />);
    expect(await screen.findByText('页面加载失败')).toBeInTheDocument();
    expect(screen.getByText(/ChunkLoadError/)).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: /重\s*试/ }));
    expect(await screen.findByText('设备列表')).toBeInTheDocument();
    expect(attempts).toBe(2);
  });

  it('a chunk that takes longer than 120 s has failed with ChunkLoadError (timeout)', async () => {
    vi.useFakeTimers();
    try {
      const pending = loadChunk(() => new Promise<never>(() => undefined));
      vi.advanceTimersByTime(CHUNK_LOAD_TIMEOUT_MS);
      await expect(pending).rejects.toMatchObject({ name: 'ChunkLoadError', reason: 'timeout' });
      expect(CHUNK_LOAD_TIMEOUT_MS).toBe(120_000);
    } finally {
      vi.useRealTimers();
    }
  });

  it('a screen that throws shows an error panel instead of a white page', () => {
    const Broken = () => {
      throw new Error('渲染失败：字段缺失');
    };
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    render(
      <ErrorBoundary>
        <Broken />
      </ErrorBoundary>,
    );
    expect(screen.getByText('页面出错了')).toBeInTheDocument();
    expect(screen.getByText('渲染失败：字段缺失')).toBeInTheDocument();
    expect(new ChunkLoadError('missing').name).toBe('ChunkLoadError');
  });
});
