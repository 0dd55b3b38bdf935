// The image captcha is a raster (issue 30, "Sessions and codes"): its SVG source gave the answer
// away (the digits' outlines were read back by a short program, 20 of 20). Now the server draws it
// with svg-captcha and rasterises it with resvg: what leaves the server is a PNG of pixels only,
// with no vector, no glyph, no text chunk and no trace of the answer; each is still one try, and
// one address may still fetch 30 a minute.
import { inflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from './harness';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

interface Chunk {
  type: string;
  data: Buffer;
}

/** The chunks of a PNG (RFC 2083): length, type, data, CRC each. */
function chunksOf(png: Buffer): Chunk[] {
  const chunks: Chunk[] = [];
  for (let at = PNG_SIGNATURE.length; at < png.length; ) {
    const length = png.readUInt32BE(at);
    chunks.push({ type: png.subarray(at + 4, at + 8).toString('latin1'), data: png.subarray(at + 8, at + 8 + length) });
    at += 12 + length;
  }
  return chunks;
}

async function fetchCaptcha(ip: string) {
  const reply = await server.call<{ uuid: string; image: string; expiresIn: number }>('verification.captcha.get', {}, { ip });
  expect(reply.code).toBe('200');
  const answer = (await server.call<string>('dev.captcha', { uuid: reply.data!.uuid })).data!;
  return { ...reply.data!, answer };
}

describe('the image captcha', () => {
  it('is a PNG that carries no vector, text or trace of its answer', async () => {
    for (let i = 0; i < 5; i += 1) {
      const { image, answer } = await fetchCaptcha('198.51.100.30');
      expect(answer).toMatch(/^\d{4}$/);
      expect(image).toMatch(/^data:image\/png;base64,[A-Za-z0-9+/]+=*$/);
      const png = Buffer.from(image.slice('data:image/png;base64,'.length), 'base64');
      expect(png.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);
      const chunks = chunksOf(png);
      // Pixels and how to read them, nothing else: no tEXt, zTXt or iTXt (nor any other chunk that could carry words).
      expect(new Set(chunks.map((chunk) => chunk.type))).toEqual(new Set(['IHDR', 'IDAT', 'IEND']));
      const header = chunks[0].data;
      expect([header.readUInt32BE(0), header.readUInt32BE(4)]).toEqual([240, 80]);
      const raw = png.toString('latin1');
      for (const vector of ['<svg', '<path', '<text', 'd="M', 'xmlns']) expect(raw).not.toContain(vector);
      expect(raw).not.toContain(answer);
      // The pixels themselves are not blank, and hold neither the answer nor any markup.
      const pixels = inflateSync(Buffer.concat(chunks.filter((chunk) => chunk.type === 'IDAT').map((chunk) => chunk.data)));
      expect(new Set(pixels).size).toBeGreaterThan(32);
      expect(pixels.toString('latin1')).not.toMatch(/<svg|<path/);
    }
  });

  it('is drawn anew each time: the same answer never gives the same image', async () => {
    const images = new Set<string>();
    for (let i = 0; i < 4; i += 1) images.add((await fetchCaptcha('198.51.100.31')).image);
    expect(images.size).toBe(4);
  });

  it('is still one try, solvable with its answer, and limited to 30 a minute per address', async () => {
    const { uuid, answer } = await fetchCaptcha('198.51.100.32');
    const proof = { captchaUuid: uuid, captchaCode: answer };
    expect(await server.call('verification.sms.send', { target: '13800000003', ...proof })).toEqual({ code: '200', message: '成功', data: '发送成功' });
    // Spent: refused as a captcha before anything else is looked at.
    expect(await server.call('verification.sms.send', { target: '13800000003', ...proof })).toEqual({ code: '400', message: '图形验证码错误或已过期', data: null });
    for (let i = 1; i < 30; i += 1) expect((await server.call('verification.captcha.get', {}, { ip: '198.51.100.32' })).code).toBe('200');
    expect(await server.call('verification.captcha.get', {}, { ip: '198.51.100.32' })).toEqual({ code: '429', message: '操作过于频繁，请稍后再试', data: null });
  });
});
