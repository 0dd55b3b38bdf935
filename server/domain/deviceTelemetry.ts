/** The readings devices report (device_telemetry.metrics), named and with their units. */
export const TELEMETRY_METRICS: Readonly<Record<string, { label: string; unit: string }>> = {
  totalFlow: { label: '累计流量', unit: 'm³' },
  flowRate: { label: '瞬时流量', unit: 'm³/h' },
  pressure: { label: '压力', unit: 'MPa' },
  level: { label: '液位', unit: 'm' },
  ph: { label: 'pH', unit: '' },
  turbidity: { label: '浊度', unit: 'NTU' },
  chlorine: { label: '余氯', unit: 'mg/L' },
  humidity: { label: '湿度', unit: '%RH' },
  smoke: { label: '烟雾浓度', unit: 'dB/m' },
  cpu: { label: 'CPU', unit: '%' },
  memory: { label: '内存', unit: '%' },
  subDevices: { label: '在线子设备', unit: '台' },
};

/** Water use over a day by the hour of the business day: low at night, peaks in the morning and evening (0..1). The seed's history and the simulator follow it. */
export function demandAt(hourOfDay: number): number {
  const morning = Math.exp(-((hourOfDay - 7.5) ** 2) / 4);
  const evening = Math.exp(-((hourOfDay - 19) ** 2) / 5);
  return 0.08 + 0.7 * morning + 0.6 * evening;
}

const ORDER = Object.keys(TELEMETRY_METRICS);
const rank = (key: string) => (ORDER.includes(key) ? ORDER.indexOf(key) : ORDER.length);

/** "累计流量 1595.9 m³，瞬时流量 0.08 m³/h": the readings of one report, known metrics in their set order. */
export function describeMetrics(metrics: Readonly<Record<string, unknown>>): string {
  // jsonb keeps keys in its own order, so the order is the metrics' own.
  return Object.entries(metrics)
    .sort(([a], [b]) => rank(a) - rank(b) || a.localeCompare(b))
    .filter(([, value]) => typeof value === 'number' || typeof value === 'string')
    .map(([key, value]) => {
      const metric = TELEMETRY_METRICS[key];
      if (!metric) return `${key} ${String(value)}`;
      return `${metric.label} ${String(value)}${metric.unit ? ` ${metric.unit}` : ''}`;
    })
    .join('，');
}
