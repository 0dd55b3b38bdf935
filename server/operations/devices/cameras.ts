import { randomBytes } from 'node:crypto';
import type { Queryable } from '../../db/database';
import { fail } from '../../http/envelope';
import { callerOf, type OperationContext } from '../../core/context';
import { defineOperation } from '../../core/operation';
import { enumOf, integerIn, objectOf, schemaOf, text, optionalPlainText, plainText, referenceCode, type ParamOf, optionalLongitude, optionalLatitude, orBlank, deviceCode } from '../../core/params';
import { Conditions } from '../../core/listQuery';
import { column, contains, custom, derived, equals, listing, textColumn, timeColumn, type ItemOf } from '../../core/listing';
import { conflictOnClash } from '../../core/conflicts';
import { placementOf } from './maintenanceShared';
import { isoOrNull } from '../../core/values';
import { subtreeOf } from '../../domain/organizations';
import { deviceScope, type DeviceScope } from '../../core/deviceScope';

/**
 * 视频监控: cameras at the tenants' projects and areas, each with its stream address (rtsp/rtmp
 * of the camera or NVR, or an HLS url) and optionally the device it watches. The console plays
 * nothing itself: camera.stream.get answers the address to play and a short-lived play token,
 * as a media gateway would.
 */

const BRANDS = ['hikvision', 'dahua', 'uniview', 'ezviz', 'huawei', 'other'] as const;
/** How long a play token is good for. */
export const PLAY_TOKEN_TTL_SECONDS = 300;
const STREAM_URL_PATTERN = '^(rtsp|rtmp|https?)://[A-Za-z0-9._~:/?#\\[\\]@!$&()*+,;=%-]+$';

/** rtsp, rtmp or hls (an http(s) url): how the stream is carried. */
const protocolOf = (url: string): 'rtsp' | 'rtmp' | 'hls' => (url.startsWith('rtsp:') ? 'rtsp' : url.startsWith('rtmp:') ? 'rtmp' : 'hls');

/** The camera list: counted and chosen over the camera alone, its organisation and watched device joined for the page's rows. */
const CAMERAS = listing({
  from: 'camera c JOIN organization o ON o.code = c.organization_code LEFT JOIN device d ON d.code = c.device_code',
  narrowFrom: 'camera c',
  key: 'c.id',
  scope: async (where, context) => where.scope(await deviceScope(context), 'c', { tenant: 'tenant_code' }),
  filters: {
    keyword: contains(['c.code', 'c.name', 'c.model', "coalesce(c.device_code, '')"], schemaOf<string>({ type: 'string', maxLength: 64 }), { trim: true }),
    brand: equals('c.brand', enumOf(BRANDS)),
    onlineState: equals('c.online_state', enumOf(['online', 'offline'])),
    organizationCode: custom(referenceCode, async (where, code, context) => void where.add('c.organization_code = ANY($?::text[])', await subtreeOf(context.db, code))),
  },
  columns: {
    id: column<number>('c.id'),
    code: column<string>('c.code'),
    name: column<string>('c.name'),
    organizationCode: column<string>('c.organization_code'),
    organizationName: column<string>('o.name'),
    brand: column<string>('c.brand'),
    model: column<string>('c.model'),
    channel: column<number>('c.channel'),
    streamUrl: column<string>('c.stream_url'),
    streamProtocol: derived((row) => protocolOf(row.streamUrl as string)),
    onlineState: column<string>('c.online_state'),
    longitude: column<number | null>('c.longitude'),
    latitude: column<number | null>('c.latitude'),
    deviceCode: textColumn('c.device_code'),
    deviceName: textColumn('d.name'),
    remark: column<string>('c.remark'),
    createdBy: column<string>('c.created_by'),
    createTime: timeColumn('c.created_at'),
    updateTime: column('c.updated_at', isoOrNull),
  },
  sorts: { code: 'c.code', name: 'c.name', createTime: 'c.created_at', updateTime: 'c.updated_at', channel: 'c.channel' },
  fallback: 'c.code',
});

type Camera = ItemOf<typeof CAMERAS>;

/** The camera `code` within the scope ("404" 摄像头不存在 otherwise); `db` a transaction's connection. */
async function scopedCamera(context: OperationContext<unknown>, scope: DeviceScope, code: string, db: Queryable = context.db): Promise<Camera> {
  const where = new Conditions().scope(scope, 'c', { tenant: 'tenant_code' }).add('c.code = $?', code);
  const camera = await CAMERAS.find(context, where, '', db);
  if (!camera) throw fail.notFound('摄像头不存在');
  return camera;
}

const cameraCode = schemaOf<string>({ type: 'string', pattern: '^CAM[0-9]{8}$' });
const cameraFields = objectOf(
  {
    code: text(16),
    name: plainText(64),
    organizationCode: referenceCode,
    brand: enumOf(BRANDS),
    model: optionalPlainText(64),
    channel: integerIn(1, 256),
    streamUrl: schemaOf<string>({ type: 'string', minLength: 8, maxLength: 255, pattern: STREAM_URL_PATTERN }),
    longitude: optionalLongitude,
    latitude: optionalLatitude,
    deviceCode: orBlank(deviceCode),
    remark: optionalPlainText(200),
  },
  ['name', 'organizationCode', 'brand', 'channel', 'streamUrl'],
);
type CameraFields = ParamOf<typeof cameraFields>;

/** The place, tenant and watched device of a camera, checked against the scope. */
async function checkCameraFields(db: Queryable, scope: DeviceScope, fields: CameraFields): Promise<{ tenantCode: string; deviceCode: string | null }> {
  const { tenantCode } = await placementOf(db, scope, fields.organizationCode);
  const watched = fields.deviceCode || null;
  if (watched) {
    const clause = new Conditions().scope(scope, 'd', { tenant: 'tenant_code' }).add('d.deleted_at IS NULL').add('d.code = $?', watched).add('d.tenant_code = $?', tenantCode);
    const [device] = await db.query(`SELECT 1 FROM device d WHERE ${clause.sql}`, clause.params);
    if (!device) throw fail.badRequest('参数错误：deviceCode（关联设备不存在）');
  }
  return { tenantCode, deviceCode: watched };
}

/** The next camera code of a tenant: CAM + the tenant's two digits + six digits. */
async function nextCameraCode(db: Queryable, tenantCode: string): Promise<string> {
  const prefix = `CAM${tenantCode.slice(-2)}`;
  const [{ last }] = await db.query<{ last: number | null }>(`SELECT max(substring(code FROM 6)::int) AS last FROM camera WHERE code ~ $1`, [`^${prefix}\\d{6}$`]);
  return `${prefix}${String((last ?? 0) + 1).padStart(6, '0')}`;
}

const codeParam = objectOf({ code: cameraCode }, ['code']);

export const cameraOperations = [
  defineOperation('camera.page', {
    paramSchema: CAMERAS.paramSchema,
    handler: (context) => CAMERAS.page(context),
  }),

  defineOperation('camera.detail', {
    paramSchema: codeParam,
    handler: async (context) => scopedCamera(context, await deviceScope(context), context.param.code),
  }),

  defineOperation('camera.insert', {
    paramSchema: objectOf({ camera: cameraFields }, ['camera']),
    handler: async (context) => {
      const scope = await deviceScope(context);
      const caller = callerOf(context);
      const fields = context.param.camera;
      return context.db.transaction(async (tx) => {
        const { tenantCode, deviceCode: watched } = await checkCameraFields(tx, scope, fields);
        const code = await nextCameraCode(tx, tenantCode);
        await conflictOnClash(
          () =>
            tx.query(
              `INSERT INTO camera (code, name, organization_code, tenant_code, brand, model, channel, stream_url, online_state, longitude, latitude,
                                   device_code, remark, created_by, created_at, updated_at)
               VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'online', $9, $10, $11, $12, $13, $14, $14)`,
              [
                code,
                fields.name.trim(),
                fields.organizationCode,
                tenantCode,
                fields.brand,
                fields.model?.trim() ?? '',
                fields.channel,
                fields.streamUrl,
                fields.longitude ?? null,
                fields.latitude ?? null,
                watched,
                fields.remark?.trim() ?? '',
                caller.loginName,
                context.now,
              ],
            ),
          { unique: '摄像头编码冲突，请重试' },
        );
        return { code };
      });
    },
  }),

  defineOperation('camera.modify', {
    paramSchema: objectOf({ code: cameraCode, camera: cameraFields }, ['code', 'camera']),
    handler: async (context) => {
      const scope = await deviceScope(context);
      const { code, camera: fields } = context.param;
      return context.db.transaction(async (tx) => {
        const current = await scopedCamera(context, scope, code, tx);
        const { tenantCode, deviceCode: watched } = await checkCameraFields(tx, scope, fields);
        const [{ tenant_code: currentTenant }] = await tx.query<{ tenant_code: string }>('SELECT tenant_code FROM camera WHERE id = $1', [current.id]);
        if (tenantCode !== currentTenant) throw fail.badRequest('参数错误：organizationCode（不能移到其他租户）');
        await tx.query(
          `UPDATE camera SET name = $2, organization_code = $3, brand = $4, model = $5, channel = $6, stream_url = $7, longitude = $8, latitude = $9,
                  device_code = $10, remark = $11, updated_at = $12
            WHERE code = $1`,
          [code, fields.name.trim(), fields.organizationCode, fields.brand, fields.model?.trim() ?? '', fields.channel, fields.streamUrl, fields.longitude ?? null, fields.latitude ?? null, watched, fields.remark?.trim() ?? '', context.now],
        );
        return { code };
      });
    },
  }),

  defineOperation('camera.delete', {
    paramSchema: codeParam,
    handler: async (context) => {
      const camera = await scopedCamera(context, await deviceScope(context), context.param.code);
      await context.db.query('DELETE FROM camera WHERE id = $1', [camera.id]);
      return { code: camera.code };
    },
  }),

  defineOperation('camera.stream.get', {
    paramSchema: codeParam,
    handler: async (context) => {
      const camera = await scopedCamera(context, await deviceScope(context), context.param.code);
      if (camera.onlineState !== 'online') throw fail.conflict('摄像头离线，无法播放');
      const playToken = randomBytes(24).toString('base64url');
      const expireTime = new Date(context.now.getTime() + PLAY_TOKEN_TTL_SECONDS * 1000);
      const protocol = camera.streamProtocol;
      // rtsp/rtmp cannot play in a browser: the media gateway relays them as HLS.
      const playUrl = protocol === 'hls' ? camera.streamUrl : `https://live.iot.example.com/relay/${camera.code}/index.m3u8`;
      return {
        code: camera.code,
        name: camera.name,
        streamUrl: camera.streamUrl,
        streamProtocol: protocol,
        playUrl: `${playUrl}${playUrl.includes('?') ? '&' : '?'}token=${playToken}`,
        playToken,
        expiresIn: PLAY_TOKEN_TTL_SECONDS,
        expireTime: expireTime.toISOString(),
      };
    },
  }),
];
