import type { FastifyServerOptions } from 'fastify';

/** Query parameters that carry a token (SPEC §4 dlmToken) never reach a log line. */
const SECRET_QUERY = /([?&](?:dlmToken|token|accessToken|refreshToken)=)[^&#]*/gi;

export function redactUrl(url: string): string {
  return url.replace(SECRET_QUERY, '$1[redacted]');
}

interface LoggedRequest {
  method: string;
  url: string;
  ip: string;
}

/** How much the server logs (LOG_LEVEL): `info` has a line per call, `warn` only slow calls and faults. */
export const LOG_LEVELS = ['debug', 'info', 'warn', 'error'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** LOG_LEVEL's value, `info` when unset; anything else is refused at start. */
export function logLevelOf(raw: string | undefined): LogLevel {
  if (raw === undefined || raw === '') return 'info';
  const level = LOG_LEVELS.find((known) => known === raw);
  if (!level) throw new Error(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${raw}"`);
  return level;
}

type LoggerOptions = Exclude<NonNullable<FastifyServerOptions['logger']>, boolean>;

/**
 * Fastify (pino) logger options: headers token/cookie and any password or code in a body are
 * redacted, and urls lose their token query values.
 */
export function loggerOptions(stream?: { write: (line: string) => void }, level: LogLevel = 'info'): LoggerOptions {
  return {
    level,
    redact: {
      paths: [
        'req.headers.token',
        'req.headers.authorization',
        'req.headers.cookie',
        'req.body.param.password',
        'req.body.param.oldPassWord',
        'req.body.param.updatePassWord',
        'req.body.param.code',
        'req.body.param.refreshToken',
      ],
      censor: '[redacted]',
    },
    serializers: {
      req: (request: LoggedRequest) => ({ method: request.method, url: redactUrl(request.url), ip: request.ip }),
    },
    ...(stream ? { stream } : {}),
  };
}

const LEVELS: Record<number, string> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO', 40: 'WARN', 50: 'ERROR', 60: 'FATAL' };

/** A stream that prints pino's JSON lines as `HH:MM:SS LEVEL message` for the terminal. */
export function terminalStream(write: (text: string) => void): { write: (line: string) => void } {
  return {
    write(line: string) {
      try {
        const entry = JSON.parse(line) as { level: number; time: number; msg?: string; req?: LoggedRequest; err?: { stack?: string } };
        const time = new Date(entry.time).toTimeString().slice(0, 8);
        const request = entry.req ? ` ${entry.req.method} ${entry.req.url}` : '';
        const stack = entry.err?.stack ? `\n${entry.err.stack}` : '';
        write(`${time} ${LEVELS[entry.level] ?? entry.level} ${entry.msg ?? ''}${request}${stack}\n`);
      } catch {
        write(line);
      }
    },
  };
}
