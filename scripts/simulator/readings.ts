/**
 * What a simulated device reads (issue 22's simulator): each product of the demo catalogue
 * (server/seed/devices.ts) reports the metrics its seeded history carries (server/seed/fleetExtras.ts,
 * named in server/domain/deviceTelemetry.ts), with the same daily rhythm and ranges; a battery drains
 * slowly, the signal (0-31) wanders, the device's temperature follows the day. Now and then a
 * device crosses a threshold of the demo alarm rules (server/seed/alarms.ts) for a few minutes,
 * long enough for the rules with a duration to fire, then comes back within bounds; or reports a
 * fault code (1-12, the demo's 设备故障告警 fires on any) for a while, then an empty list.
 */
import { demandAt } from '../../server/domain/deviceTelemetry';


/** A report as devices send it (the body of POST /api/device/telemetry/_report and of an MQTT publish). */
export interface SimulatedReport {
  reportedAt: string;
  batteryLevel?: number;
  signalStrength?: number;
  temperature?: number;
  metrics: Record<string, number>;
  /** During a fault crossing its code; `[]` on the first report after it (the fault is gone). */
  faultCodes?: number[];
}

/** Where a device starts: what dev.device.credentials answers besides its secret. */
export interface DeviceStart {
  code: string;
  productCode: string;
  batteryLevel: number | null;
  signalStrength: number | null;
  temperature: number | null;
}

/** A way out of bounds, named after the metric it moves: the rules of server/seed/alarms.ts watch these. */
export type CrossingKind = 'smoke' | 'pressureHigh' | 'pressureLow' | 'level' | 'ph' | 'turbidity' | 'heat' | 'humidity' | 'frost' | 'flow' | 'signal' | 'fault';

/** The crossings each product can make (every product's signal can drop too, and any can report a fault). */
export const PRODUCT_CROSSINGS: Readonly<Record<string, readonly CrossingKind[]>> = {
  'PRD-WM-NB': ['frost'],
  'PRD-FM-4G': ['flow'],
  'PRD-PG-NB': ['pressureHigh', 'pressureLow'],
  'PRD-LV-LR': ['level'],
  'PRD-WQ-MB': ['ph', 'turbidity'],
  'PRD-TH-LR': ['heat', 'humidity'],
  'PRD-SD-NB': ['smoke'],
  'PRD-GW-4G': [],
};

/** Products with a battery (the seed's batteryPowered). */
const BATTERY_PRODUCTS = new Set(['PRD-WM-NB', 'PRD-PG-NB', 'PRD-LV-LR', 'PRD-TH-LR', 'PRD-SD-NB']);

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
/** The business zone's offset (Asia/Shanghai has no daylight saving): the daily rhythm follows its clock. */
const BUSINESS_OFFSET_HOURS = 8;

const round = (value: number, digits: number) => Math.round(value * 10 ** digits) / 10 ** digits;
const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value));


interface Crossing {
  kind: CrossingKind;
  until: number;
  /** The fault code a fault crossing reports. */
  faultCode: number;
}

/** One simulated device: its state between reports. */
export class SimulatedDevice {
  readonly code: string;
  readonly productCode: string;
  private battery: number | null;
  private signal: number;
  private readonly homeSignal: number;
  private readonly baseTemperature: number;
  private readonly base: number;
  private totalFlow: number;
  private crossing: Crossing | null = null;
  private lastReportedAt = 0;
  /** A water meter's valve once a command moved it (valve_open / valve_close; told in its metrics from then on); null before. */
  private valveOpen: boolean | null = null;
  /** How often it reports when told (command report_interval); null: at the simulation's pace. */
  private everyMs: number | null = null;

  constructor(
    start: DeviceStart,
    private readonly random: () => number = Math.random,
  ) {
    this.code = start.code;
    this.productCode = start.productCode;
    this.battery = BATTERY_PRODUCTS.has(start.productCode) ? (start.batteryLevel ?? 40 + Math.floor(random() * 60)) : null;
    this.homeSignal = start.signalStrength ?? 12 + Math.floor(random() * 18);
    this.signal = this.homeSignal;
    this.baseTemperature = start.temperature ?? 12 + random() * 22;
    switch (start.productCode) {
      case 'PRD-WM-NB':
        this.base = 0.05 + random() * 0.08;
        this.totalFlow = 120 + random() * 4700;
        break;
      case 'PRD-FM-4G':
        this.base = 40 + random() * 60;
        this.totalFlow = 20_000 + random() * 880_000;
        break;
      case 'PRD-PG-NB':
        this.base = 0.3 + random() * 0.15;
        this.totalFlow = 0;
        break;
      case 'PRD-LV-LR':
        this.base = 1.5 + random() * 2;
        this.totalFlow = 0;
        break;
      case 'PRD-TH-LR':
        this.base = 55 + random() * 20;
        this.totalFlow = 0;
        break;
      case 'PRD-GW-4G':
        this.base = 35 + random() * 25;
        this.totalFlow = 0;
        break;
      default:
        this.base = 0;
        this.totalFlow = 0;
    }
  }

  /** Opens or closes its valve; false when it has none (only water meters do). */
  setValve(open: boolean): boolean {
    if (this.productCode !== 'PRD-WM-NB') return false;
    this.valveOpen = open;
    return true;
  }

  /** Whether it has a siren to silence (only smoke detectors do). */
  hasSiren(): boolean {
    return this.productCode === 'PRD-SD-NB';
  }

  /** Reports once every `ms` from now on (report_interval). */
  reportEveryMs(ms: number): void {
    this.everyMs = ms;
  }

  /** Whether a report is due at `now`: always at the simulation's pace, else once its interval has passed since the last. */
  due(now: number): boolean {
    return this.everyMs === null || this.lastReportedAt === 0 || now - this.lastReportedAt >= this.everyMs;
  }

  /** The crossings this device can make. */
  crossings(): readonly CrossingKind[] {
    return [...(PRODUCT_CROSSINGS[this.productCode] ?? []), 'signal', 'fault'];
  }

  /** Whether a crossing is under way at `now`. */
  crossingAt(now: number): CrossingKind | null {
    return this.crossing && this.crossing.until > now ? this.crossing.kind : null;
  }

  /** Goes past a threshold from `now` for `seconds` (the product's first crossing unless told). */
  cross(now: number, seconds: number, kind: CrossingKind = this.crossings()[0]): void {
    this.crossing = { kind, until: now + seconds * 1000, faultCode: 1 + Math.floor(this.random() * 12) };
  }

  /** The next report, taken at `now` (strictly after the previous one, so none is a duplicate instant). */
  report(now: number): SimulatedReport {
    const at = Math.max(now, this.lastReportedAt + 1);
    this.lastReportedAt = at;
    const crossing = this.crossingAt(at);
    const faultCode = this.crossing?.faultCode ?? 0;
    // The first report after a fault says it is gone: a fault rule's alarm recovers on it.
    const faultEnded = this.crossing?.kind === 'fault' && !crossing;
    if (this.crossing && !crossing) this.crossing = null;
    const hourOfDay = ((at / HOUR_MS + BUSINESS_OFFSET_HOURS) % 24 + 24) % 24;
    const demand = demandAt(hourOfDay);
    const noise = () => this.random() - 0.5;
    const pick = (low: number, high: number) => low + this.random() * (high - low);

    const metrics: Record<string, number> = {};
    switch (this.productCode) {
      case 'PRD-WM-NB': {
        // Nothing flows through a closed valve.
        const flowRate = this.valveOpen === false ? 0 : round(clamp(this.base * demand + noise() * 0.02, 0, 5), 3);
        // The readings come every few seconds, not hourly: the meter's total moves by that share of an hour.
        this.totalFlow = round(this.totalFlow + flowRate / 720, 3);
        Object.assign(metrics, { totalFlow: this.totalFlow, flowRate, ...(this.valveOpen === null ? {} : { valveOpen: this.valveOpen ? 1 : 0 }) });
        break;
      }
      case 'PRD-FM-4G': {
        const flowRate = crossing === 'flow' ? round(pick(125, 260), 2) : round(clamp(this.base * (0.4 + demand) + noise() * 6, 0, 400), 2);
        this.totalFlow = round(this.totalFlow + flowRate / 720, 2);
        Object.assign(metrics, { totalFlow: this.totalFlow, flowRate });
        break;
      }
      case 'PRD-PG-NB':
        metrics.pressure =
          crossing === 'pressureHigh' ? round(pick(0.82, 1.2), 3) : crossing === 'pressureLow' ? round(pick(0.03, 0.14), 3) : round(clamp(this.base - 0.08 * demand + noise() * 0.01, 0.16, 0.74), 3);
        break;
      case 'PRD-LV-LR':
        metrics.level = crossing === 'level' ? round(pick(4.6, 5.6), 2) : round(clamp(this.base + Math.sin((at / DAY_MS) * 2 * Math.PI) * 0.4 + noise() * 0.05, 0.2, 3.7), 2);
        break;
      case 'PRD-WQ-MB':
        metrics.ph = crossing === 'ph' ? round(this.random() < 0.5 ? pick(8.6, 9.6) : pick(5.4, 6.4), 2) : round(7.2 + noise() * 0.4, 2);
        metrics.turbidity = crossing === 'turbidity' ? round(pick(1.1, 4.8), 2) : round(clamp(0.35 + noise() * 0.3, 0.05, 0.95), 2);
        metrics.chlorine = round(clamp(0.5 + noise() * 0.2, 0.1, 1), 2);
        break;
      case 'PRD-TH-LR':
        metrics.humidity = crossing === 'humidity' ? round(pick(86, 98), 1) : round(clamp(this.base - 12 * Math.sin(((hourOfDay - 8) / 24) * 2 * Math.PI) + noise() * 4, 20, 84), 1);
        break;
      case 'PRD-SD-NB':
        metrics.smoke = crossing === 'smoke' ? round(pick(0.1, 0.45), 3) : round(0.01 + this.random() * 0.02, 3);
        break;
      case 'PRD-GW-4G':
        Object.assign(metrics, {
          cpu: round(clamp(18 + demand * 25 + noise() * 8, 1, 99), 1),
          memory: round(clamp(this.base + noise() * 3, 10, 95), 1),
          subDevices: 8 + Math.floor(this.random() * 17),
        });
        break;
    }

    // The signal wanders a step at a time, pulled back towards where the device is installed.
    if (this.random() < 0.3) {
      const home = Math.sign(this.homeSignal - this.signal);
      const step = home === 0 ? (this.random() < 0.5 ? 1 : -1) : this.random() < 0.75 ? home : -home;
      this.signal += step;
    }
    this.signal = clamp(this.signal, 0, 31);
    const signalStrength = crossing === 'signal' ? 2 + Math.floor(this.random() * 6) : this.signal;

    // About one percent every hundred reports; a flat battery is replaced.
    if (this.battery !== null) {
      this.battery -= this.random() * 0.02;
      if (this.battery < 0) this.battery = 100;
    }
    const daily = -3 + 6 * Math.sin(((hourOfDay - 9) / 24) * 2 * Math.PI);
    const temperature =
      crossing === 'heat' ? round(pick(41, 58), 1) : crossing === 'frost' ? round(pick(-6, 1.8), 1) : round(clamp(this.baseTemperature + daily + noise(), 2.5, 37.5), 1);

    return {
      reportedAt: new Date(at).toISOString(),
      ...(this.battery === null ? {} : { batteryLevel: Math.round(this.battery) }),
      signalStrength,
      temperature,
      metrics,
      ...(crossing === 'fault' ? { faultCodes: [faultCode] } : faultEnded ? { faultCodes: [] } : {}),
    };
  }
}
