/** A device on the map, as device.distribution.list answers it. */
export interface DevicePoint {
  code: string;
  name: string;
  longitude: number;
  latitude: number;
  /** device_online_state: online, offline, inactive */
  onlineState: string;
  /** device_health_state: healthy, subhealthy, faulty */
  healthState: string;
  productName: string;
  address: string;
}

export type PlaceKind = 'province' | 'city' | 'district' | 'town' | 'road' | 'poi';

/** A place of maps.place.search. */
export interface Place {
  name: string;
  kind: PlaceKind;
  province: string;
  city: string;
  district: string;
  address: string;
  longitude: number;
  latitude: number;
}

/** Where the view should go: a point and how wide a window (degrees of longitude) to show. */
export interface MapFocus {
  longitude: number;
  latitude: number;
  span: number;
  /** Shown as a pin at the point. */
  label?: string;
  /** A new request with the same point still recentres (the user moved away meanwhile). */
  serial: number;
}

/** What every map provider draws and does. */
export interface MapViewProps {
  points: readonly DevicePoint[];
  focus?: MapFocus | null;
  /** Opens a device (the page navigates to its detail). */
  onOpenDevice: (code: string) => void;
  /** Labels of the online states (the device_online_state dictionary). */
  stateLabel: (state: string) => string;
  height?: number | string;
  /** The big screen draws on a dark background. */
  dark?: boolean;
}

export type MapViewProviderName = 'offline' | 'amap';

/** How far to zoom for each kind of place found (degrees of longitude across the view). */
export const FOCUS_SPAN: Record<PlaceKind, number> = { province: 4, city: 0.6, district: 0.16, town: 0.06, road: 0.03, poi: 0.02 };

/** The colours of the online states, the same on every provider. */
export const ONLINE_STATE_COLOURS: Record<string, string> = { online: '#52c41a', offline: '#ff4d4f', inactive: '#8c8c8c' };
export const ONLINE_STATES = ['online', 'offline', 'inactive'] as const;
