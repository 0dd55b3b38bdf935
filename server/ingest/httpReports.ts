import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import type { OperationRouteConfig } from '../http/operability';
import { API_PREFIX } from '../http/routes';
import type { ServerServices } from '../operations/define';
import { authenticateDevice } from './deviceCredentials';
import { parseReport, REPORT_BODY_LIMIT, ReportRefused, storeAdmitted, type ReportOutcome } from './deviceReports';

/** Where a device posts its readings over HTTP (the MQTT topic carries the same body). */
export const HTTP_REPORT_PATH = `${API_PREFIX}/device/telemetry/_report`;

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
 * that a body that is not JSON is refused and counted like any other bad message.
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
          return { code: '200', message: '成功', data: stored };
        } catch (error) {
          if (!(error instanceof ReportRefused)) throw error;
          return refuse(reply, error);
        }
      },
    });
  });
}
