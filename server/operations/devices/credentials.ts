import { issueDeviceSecret } from '../../ingest/deviceCredentials';
import { HTTP_REPORT_PATH } from '../../ingest/httpReports';
import { noteBrokerPasswords } from '../../ingest/mosquittoAccounts';
import { callerOf } from '../../core/context';
import { defineOperation, type OperationDefinition } from '../../core/operation';
import { objectOf, deviceCode } from '../../core/params';
import { deviceScope, findScopedDevice } from '../../core/deviceScope';

/**
 * A device's credential for reporting (issue 22): its code and a secret the platform issues. The
 * secret is shown once, in the answer that issues it; the detail says only whether one is issued
 * and when, and where the device reports.
 */

export interface DeviceCredential {
  deviceCode: string;
  issued: boolean;
  issuedTime: string | null;
  /** The path a device posts its readings to over HTTP. */
  reportPath: string;
}

const codeParam = objectOf({ code: deviceCode }, ['code']);

const credentialDetail = defineOperation('device.credential.detail', {
  paramSchema: codeParam,
  handler: async (context): Promise<DeviceCredential> => {
    const device = await findScopedDevice(context.db, await deviceScope(context), context.param.code);
    const [row] = await context.db.query<{ issued_at: Date }>('SELECT issued_at FROM device_credential WHERE device_id = $1', [device.id]);
    return { deviceCode: device.code, issued: Boolean(row), issuedTime: row ? row.issued_at.toISOString() : null, reportPath: HTTP_REPORT_PATH };
  },
});

/**
 * Issues a new secret (the first, or a reset): the old one stops at once, and the device's open MQTT
 * sessions close (on the broker too, with MQTT_DYNSEC: its password there changes). Answers it, once.
 */
const credentialReset = defineOperation('device.credential.reset', {
  paramSchema: codeParam,
  handler: async (context): Promise<DeviceCredential & { secret: string }> => {
    const device = await findScopedDevice(context.db, await deviceScope(context), context.param.code);
    // An open-API key (issue 31: integrators provision devices) is no user: it issues as nobody in particular.
    const { userId } = callerOf(context);
    // With MQTT_DYNSEC the broker's account follows in the same transaction (mosquittoAccounts.ts).
    const secret = await context.db.transaction(async (tx) => {
      const issued = await issueDeviceSecret(tx, device.id, userId > 0 ? userId : null, context.now);
      await noteBrokerPasswords(tx, context.config, [{ code: device.code, secret: issued }]);
      return issued;
    });
    return { deviceCode: device.code, issued: true, issuedTime: context.now.toISOString(), reportPath: HTTP_REPORT_PATH, secret };
  },
});

export const credentialOperations: OperationDefinition[] = [credentialDetail, credentialReset];
