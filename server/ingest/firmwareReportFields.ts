import { OTA_REPORT_STATES, type OtaReportState } from '../domain/upgrades';

/**
 * The firmware fields of a device's report (issue 31), as the report parser checks them
 * (reportChecks.ts): `firmwareVersion`, the version the device runs now, and `ota`, how its upgrade
 * goes. What storing them does: firmwareReports.ts.
 */

export interface OtaReport {
  taskCode: string;
  progress: number;
  state: OtaReportState;
  message?: string;
}

export interface FirmwareReport {
  /** The firmware the device runs now. */
  firmwareVersion?: string;
  ota?: OtaReport;
}

/** The report schema's firmware fields (reportChecks.ts REPORT_SCHEMA). */
export const FIRMWARE_REPORT_PROPERTIES = {
  firmwareVersion: { type: 'string', pattern: '^[\\x21-\\x7e]{1,32}$' },
  ota: {
    type: 'object',
    additionalProperties: false,
    required: ['taskCode', 'progress', 'state'],
    properties: {
      taskCode: { type: 'string', pattern: '^[A-Za-z0-9_-]{1,32}$' },
      progress: { type: 'integer', minimum: 0, maximum: 100 },
      state: { type: 'string', enum: [...OTA_REPORT_STATES] },
      // Shown in the console as the target's failure reason: text of a line, no control characters.
      message: { type: 'string', maxLength: 200, pattern: '^[^\\u0000-\\u001f\\u007f]*$' },
    },
  },
} as const;
