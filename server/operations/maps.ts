import type { MapProvider, Place, ReverseGeocode } from '../domain/maps/provider';
import { mapProviderFor } from '../domain/maps/select';
import { fail } from '../http/envelope';
import { defineOperation, type OperationDefinition } from '../core/operation';
import { objectOf, optionalPlainText, plainText, schemaOf } from '../core/params';
import type { OperationContext } from '../core/context';

/**
 * Place search and reverse geocoding (kind `get`: the query string is the param, so every value
 * arrives as text). They answer from the offline gazetteer, or from AMap when MAPS_KEY is set.
 */

/** A decimal degree as written in a query string: 120.155, -33.8, 30. */
const degrees = schemaOf<string>({ type: 'string', maxLength: 16, pattern: '^-?\\d{1,3}(\\.\\d{1,10})?$' });

function coordinate(value: string, field: string, limit: number): number {
  const number = Number(value);
  if (!Number.isFinite(number) || Math.abs(number) > limit) throw fail.badRequest(`参数错误：${field}（超出允许范围）`);
  return number;
}

export type MapProviderOf = (context: OperationContext<unknown>) => MapProvider;

const configuredProvider: MapProviderOf = (context) => mapProviderFor(context.config, { log: context.log });

/** The map operations, asking `providerOf` (the configured provider unless a test gives another). */
export function mapOperations(providerOf: MapProviderOf = configuredProvider): OperationDefinition[] {
  return [
    defineOperation('maps.place.search', {
      paramSchema: objectOf({ keyword: plainText(60), city: optionalPlainText(30) }, ['keyword']),
      handler: async (context): Promise<Place[]> => providerOf(context).searchPlaces(context.param.keyword.trim(), context.param.city?.trim() || undefined),
    }),

    defineOperation('maps.geocode.reverse', {
      paramSchema: objectOf({ longitude: degrees, latitude: degrees }, ['longitude', 'latitude']),
      handler: async (context): Promise<ReverseGeocode> => {
        const longitude = coordinate(context.param.longitude, 'longitude', 180);
        const latitude = coordinate(context.param.latitude, 'latitude', 90);
        return providerOf(context).reverseGeocode(longitude, latitude);
      },
    }),
  ];
}

export const MAP_OPERATIONS: OperationDefinition[] = mapOperations();
