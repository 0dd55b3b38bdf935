import { fail } from '../../http/envelope';
import { defineOperation, type OperationDefinition } from '../../core/operation';
import { numberIn, objectOf, schemaOf, optionalPlainText, textMatching, type ParamOf } from '../../core/params';
import { Conditions, containing } from '../../core/listQuery';
import { deviceScope } from '../../core/deviceScope';

/**
 * 设备分布: the scoped devices as map points. Ten thousand points are one indexed query and about
 * a megabyte and a half of JSON: only what the map draws and its tooltip shows, coordinates
 * rounded to six decimals (a tenth of a metre), devices in the recycle bin and devices without a
 * location left out.
 */

export interface DevicePoint {
  code: string;
  name: string;
  longitude: number;
  latitude: number;
  onlineState: string;
  healthState: string;
  productName: string;
  address: string;
}


/** The most points one answer carries (the seeded fleet of a tenant is 6,400). */
export const DISTRIBUTION_POINT_LIMIT = 50_000;

const longitude = numberIn(-180, 180);
const latitude = numberIn(-90, 90);

const filterSchema = objectOf({
  keyword: optionalPlainText(64),
  onlineState: schemaOf<'online' | 'offline' | 'inactive'>({ enum: ['online', 'offline', 'inactive'] }),
  healthState: schemaOf<'healthy' | 'subhealthy' | 'faulty'>({ enum: ['healthy', 'subhealthy', 'faulty'] }),
  productCode: textMatching(32, '^[A-Za-z0-9_-]*$'),
  /** Only points inside this box (degrees). */
  bounds: objectOf({ west: longitude, south: latitude, east: longitude, north: latitude }, ['west', 'south', 'east', 'north']),
});
/** What the map's points are narrowed by. */
export type DistributionFilter = ParamOf<typeof filterSchema>;

const round6 = (value: number) => Math.round(value * 1e6) / 1e6;

interface PointRow {
  code: string;
  name: string;
  longitude: number;
  latitude: number;
  online_state: string;
  health_state: string;
  product_name: string | null;
  address: string;
}

export const distributionOperations: OperationDefinition[] = [
  defineOperation('device.distribution.list', {
    paramSchema: filterSchema,
    handler: async (context): Promise<DevicePoint[]> => {
      const { keyword, onlineState, healthState, productCode, bounds } = context.param;
      if (bounds && (bounds.west > bounds.east || bounds.south > bounds.north)) throw fail.badRequest('参数错误：bounds（范围不正确）');
      const scope = await deviceScope(context);
      const where = new Conditions();
      where.scope(scope, 'd', { tenant: 'tenant_code' }).add('d.deleted_at IS NULL').add('d.longitude IS NOT NULL').add('d.latitude IS NOT NULL');
      if (keyword?.trim()) where.add('(d.code ILIKE $? OR d.name ILIKE $? OR d.address ILIKE $?)', containing(keyword.trim()));
      where.when(onlineState, 'd.online_state = $?').when(healthState, 'd.health_state = $?').when(productCode, 'd.product_code = $?');
      if (bounds) {
        where.add(`d.longitude BETWEEN ${where.ref(bounds.west)} AND ${where.ref(bounds.east)} AND d.latitude BETWEEN ${where.ref(bounds.south)} AND ${where.ref(bounds.north)}`);
      }
      const rows = await context.db.query<PointRow>(
        `SELECT d.code, d.name, d.longitude, d.latitude, d.online_state, d.health_state, p.name AS product_name, d.address
           FROM device d LEFT JOIN product p ON p.code = d.product_code
          WHERE ${where.sql}
          ORDER BY d.code
          LIMIT ${where.ref(DISTRIBUTION_POINT_LIMIT)}`,
        where.params,
      );
      return rows.map((row) => ({
        code: row.code,
        name: row.name,
        longitude: round6(Number(row.longitude)),
        latitude: round6(Number(row.latitude)),
        onlineState: row.online_state,
        healthState: row.health_state,
        productName: row.product_name ?? '',
        address: row.address,
      }));
    },
  }),
];
