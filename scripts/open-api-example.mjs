// Lists the tenant's online devices through the open API (README, "Open API").
// OPEN_API_URL (default http://127.0.0.1:3000), OPEN_API_ACCESS_KEY and OPEN_API_SECRET (from openApi.key.reset).
import { createHash, createHmac, randomBytes } from 'node:crypto';

const base = process.env.OPEN_API_URL ?? 'http://127.0.0.1:3000';
const accessKey = process.env.OPEN_API_ACCESS_KEY;
const secret = process.env.OPEN_API_SECRET;
if (!accessKey || !secret) throw new Error('set OPEN_API_ACCESS_KEY and OPEN_API_SECRET');

async function call(path, payload) {
  const body = JSON.stringify(payload);
  const timestamp = String(Math.floor(Date.now() / 1000));
  const nonce = randomBytes(16).toString('hex');
  const bodyHash = createHash('sha256').update(body).digest('hex');
  const signature = createHmac('sha256', secret).update(['POST', path, accessKey, timestamp, nonce, bodyHash].join('\n')).digest('hex');
  const response = await fetch(base + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-access-key': accessKey, 'x-timestamp': timestamp, 'x-nonce': nonce, 'x-signature': signature },
    body,
  });
  const answer = await response.json();
  if (answer.code !== '200') throw new Error(`${answer.code} ${answer.message}`);
  return answer.data;
}

const page = await call('/api/open/v1/device/_page', { pageParam: { pageNumber: 1, pageSize: 10 }, param: { onlineState: 'online' } });
console.log(`共 ${page.total} 台在线设备`);
for (const device of page.records) console.log(device.code, device.name, device.organizationName, device.lastSeenTime);
