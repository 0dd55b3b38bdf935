import { CONSOLE_COMMAND_TYPES, commandSupported, REPORT_INTERVAL_MINUTES, type CommandState, type CommandType } from '../../domain/deviceCommands';
import { expireCommands, queueCommand } from '../../ingest/commandDelivery';
import { describeMetrics } from '../../domain/deviceTelemetry';
import { fail } from '../../http/envelope';
import { callerOf } from '../../core/context';
import { defineOperation, type OperationDefinition } from '../../core/operation';
import { objectOf, timeRange, timeRangeOf, deviceCode } from '../../core/params';
import { Conditions, pageOf, type Listing } from '../../core/listQuery';
import { deviceScope, findScopedDevice } from '../../core/deviceScope';

/** A device's reports (历史数据) and the commands generated for it (下发指令). */

interface TelemetryRow {
  reported_at: Date;
  metrics: Record<string, number | string>;
  battery_level: number | null;
  signal_strength: number | null;
  temperature: string | null;
}

/** A device's reports, newest first (one table: the device, found in scope beforehand, is the WHERE). */
const telemetryListing: Listing<TelemetryRow, Record<string, unknown>> = {
  from: 'device_telemetry t',
  columns: 't.reported_at, t.metrics, t.battery_level, t.signal_strength, t.temperature',
  sorts: { reportTime: 't.reported_at' },
  fallback: 't.reported_at DESC',
  record: (row) => ({
    id: row.reported_at.toISOString(),
    reportTime: row.reported_at.toISOString(),
    summary: describeMetrics(row.metrics),
    ...row.metrics,
    batteryLevel: row.battery_level,
    signalStrength: row.signal_strength,
    temperature: row.temperature === null ? null : Number(row.temperature),
  }),
};

const dataPage = defineOperation('device.data.page', {
  paramSchema: objectOf({ code: deviceCode, timeRange }, ['code']),
  handler: async (context) => {
    const device = await findScopedDevice(context.db, await deviceScope(context), context.param.code);
    const where = new Conditions().add('t.device_id = $?', device.id);
    if (context.param.timeRange) {
      const [start, end] = timeRangeOf(context.param.timeRange, context.config.timeZone);
      where.add('t.reported_at >= $?', start).add('t.reported_at <= $?', end);
    }
    return pageOf(context, telemetryListing, where);
  },
});

const generateCommand = defineOperation('deviceAccess.command.generate', {
  paramSchema: objectOf(
    {
      code: deviceCode,
      commandType: { type: 'string', enum: [...CONSOLE_COMMAND_TYPES] },
      intervalMinutes: { type: 'integer', minimum: REPORT_INTERVAL_MINUTES.min, maximum: REPORT_INTERVAL_MINUTES.max },
    },
    ['code', 'commandType'],
  ),
  handler: async (context) => {
    const { commandType, intervalMinutes } = context.param;
    if (commandType === 'report_interval' && intervalMinutes === undefined) throw fail.badField('intervalMinutes（不能为空）');
    if (commandType !== 'report_interval' && intervalMinutes !== undefined) throw fail.badField('intervalMinutes（仅设置上报周期时使用）');
    const device = await findScopedDevice(context.db, await deviceScope(context), context.param.code);
    const [state] = await context.db.query<{ online_state: string; category_code: string }>(
      'SELECT d.online_state, p.category_code FROM device d JOIN product p ON p.code = d.product_code WHERE d.id = $1',
      [device.id],
    );
    if (state.online_state === 'inactive') throw fail.badRequest('设备未激活，无法下发指令');
    if (!commandSupported(commandType, state.category_code)) throw fail.badRequest('该设备不支持此指令');
    // Pending until it is out: a connected device gets it at once, the others when they connect or next report (ingest/commandDelivery.ts).
    const parameters = intervalMinutes === undefined ? {} : { intervalMinutes };
    return context.db.transaction((tx) => queueCommand(tx, { deviceId: device.id, type: commandType, parameters, createdBy: callerOf(context).loginName }, context));
  },
});

interface CommandDetailRow {
  id: number;
  code: string;
  command_type: CommandType;
  state: CommandState;
  created_at: Date;
  sent_at: Date | null;
  replied_at: Date | null;
  result: 'ok' | 'failed' | null;
  reply_message: string | null;
}

/** Where one command stands (issue 31), for the console and the open API: scoped like its device (in the recycle bin too). */
const commandDetail = defineOperation('deviceAccess.command.detail', {
  paramSchema: objectOf({ id: { type: 'integer', minimum: 1, maximum: 2_147_483_647 } }, ['id']),
  handler: async (context) => {
    const scope = await deviceScope(context);
    const read = () =>
      context.db.query<CommandDetailRow>(
        `SELECT c.id, d.code, c.command_type, c.state, c.created_at, c.sent_at, c.replied_at, c.result, c.reply_message
           FROM device_command c JOIN device d ON d.id = c.device_id
          WHERE c.id = $1 AND d.organization_code = ANY($2::text[])`,
        [context.param.id, scope.organizationCodes],
      );
    let [row] = await read();
    if (!row) throw fail.notFound('指令不存在');
    // Past its expiry without a reply: expired now, not at the sweep's next turn.
    if ((row.state === 'pending' || row.state === 'sent') && (await expireCommands(context.db, context.now, [row.id])) > 0) [row] = await read();
    return {
      id: row.id,
      code: row.code,
      commandType: row.command_type,
      state: row.state,
      createTime: row.created_at.toISOString(),
      sentTime: row.sent_at?.toISOString() ?? null,
      replyTime: row.replied_at?.toISOString() ?? null,
      result: row.result,
      message: row.reply_message,
    };
  },
});

export const fleetCommandOperations: OperationDefinition[] = [dataPage, generateCommand, commandDetail];
