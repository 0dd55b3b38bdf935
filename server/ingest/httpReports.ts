import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import type { OperationRouteConfig } from '../http/operability';
import { API_PREFIX } from '../http/routes';
import type { ServerServices } from '../core/context';
import { takeWaitingCommands } from './commandDelivery';
import { parseCommandReply, REPLY_BODY_LIMIT, ReplyRefused, settleCommand } from './commandReplies';
import type { ReplyOutcome } from '../domain/platformEvents';
import { authenticateDevice } from './deviceCredentials';
import { parseReport, REPORT_BODY_LIMIT, ReportRefused, storeAdmitted, type ReportOutcome } from './deviceReports';

/** Where a device posts its readings over HTTP (the MQTT topic carries the same body). */
export const HTTP_REPORT_PATH = `${API_PREFIX}/device/telemetry/_report`;
/** Where a device posts its answer to a command over HTTP (the MQTT reply topic carries the same body). */
export const HTTP_REPLY_PATH = `${API_PREFIX}/device/commands/_reply`;

const REPLY_STATUS: Record<Exclude<ReplyOutcome, 'acknowledged' | 'failed'>, number> = { malformed: 400, 'unknown command': 404, late: 409 };

const HTTP_STATUS: Record<Exclude<ReportOutcome, 'accepted'>, number> = {
  'unknown device': 401,
  'bad credentials': 401,
  'bad json': 400,
  'out of range': 400,
  'too large': 413,
};

function header(value: string | string[] | undefined): string {
  return (Array.isArray(value) ? value[0] : value) ?? '';
}

/**
 * `POST /api/device/telemetry/_report` with headers `x-device-code` and `x-device-secret` and a JSON
 * report (deviceReports.ts). A device is a machine, not the console: the answer's HTTP status
 * matches its code (200; 400, 401 and 413 refused), and the envelope says why. The body is read as bytes, so
 * that a body that is not JSON is refused and counted like any other bad message. A taken report's
 * answer carries the device's waiting commands (`data.commands`, in the MQTT wire format, `sent`
 * from then on: issue 31).
 *
 * `POST /api/device/commands/_reply` with the same headers and a command reply (commandReplies.ts)
 * settles one command: 200 with `{id, state}`; 400 malformed, 404 no command of this device, 409
 * settled or expired already (each changes nothing and is counted).
 */
export function registerHttpReports(app: FastifyInstance, services: ServerServices): void {
  void app.register(async (scoped) => {
    scoped.removeAllContentTypeParsers();
    scoped.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: REPORT_BODY_LIMIT }, (_request, body, done) => done(null, body));
    const refuse = (reply: FastifyReply, refusal: ReportRefused) => {
      services.events.deviceReported('http', refusal.outcome);
      const status = HTTP_STATUS[refusal.outcome];
      return reply.code(status).send({ code: String(status), message: refusal.message, data: null });
    };
    // A body past the limit is refused by Fastify before the handler: counted and answered the same way.
    scoped.setErrorHandler((error: FastifyError, _request, reply) => {
      if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return refuse(reply, new ReportRefused('too large'));
      throw error;
    });
    scoped.route<{ Body: unknown }, OperationRouteConfig>({
      method: 'POST',
      url: HTTP_REPORT_PATH,
      config: { operation: 'device.telemetry.report' },
      bodyLimit: REPORT_BODY_LIMIT,
      handler: async (request, reply: FastifyReply) => {
        const now = services.config.now();
        try {
          const device = await authenticateDevice(services.db, header(request.headers['x-device-code']), header(request.headers['x-device-secret']));
          const report = parseReport(Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0), now);
          const stored = await storeAdmitted(services, device, report, now);
          services.events.deviceReported('http', 'accepted');
          // What waits for the device goes with the answer (the device has no session to receive it on).
          const commands = await takeWaitingCommands(services.db, device.id, services.config.now());
          return { code: '200', message: '成功', data: { ...stored, commands } };
        } catch (error) {
          if (!(error instanceof ReportRefused)) throw error;
          return refuse(reply, error);
        }
      },
    });
  });
  registerHttpReplies(app, services);
}

/** `POST /api/device/commands/_reply`: a device's answer to one of its commands. */
function registerHttpReplies(app: FastifyInstance, services: ServerServices): void {
  void app.register(async (scoped) => {
    scoped.removeAllContentTypeParsers();
    scoped.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: REPLY_BODY_LIMIT }, (_request, body, done) => done(null, body));
    const refuse = (reply: FastifyReply, refusal: ReplyRefused) => {
      services.events.commandReplied('http', refusal.outcome);
      const status = REPLY_STATUS[refusal.outcome];
      return reply.code(status).send({ code: String(status), message: refusal.message, data: null });
    };
    scoped.setErrorHandler((error: FastifyError, _request, reply) => {
      if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return refuse(reply, new ReplyRefused('malformed'));
      throw error;
    });
    scoped.route<{ Body: unknown }, OperationRouteConfig>({
      method: 'POST',
      url: HTTP_REPLY_PATH,
      config: { operation: 'device.command.reply' },
      bodyLimit: REPLY_BODY_LIMIT,
      handler: async (request, reply: FastifyReply) => {
        let device;
        try {
          device = await authenticateDevice(services.db, header(request.headers['x-device-code']), header(request.headers['x-device-secret']));
        } catch (error) {
          if (!(error instanceof ReportRefused)) throw error;
          // Counted with the reports' refused sign-ins: the same credential, the same guessers.
          services.events.deviceReported('http', error.outcome);
          return reply.code(401).send({ code: '401', message: error.message, data: null });
        }
        try {
          const answer = parseCommandReply(Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0));
          const settled = await settleCommand(services.db, device.id, answer, services.config.now());
          services.events.commandReplied('http', settled.state);
          return { code: '200', message: '成功', data: settled };
        } catch (error) {
          if (!(error instanceof ReplyRefused)) throw error;
          return refuse(reply, error);
        }
      },
    });
  });
}
