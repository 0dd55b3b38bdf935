// The contract test of the answers (issue 23): every answer a server of the test suites gives is
// checked against its operation's documented `data` (schemas/contracts.json); a server's close()
// fails its test file with each departure, by operation and JSON pointer.
import type { FastifyInstance } from 'fastify';
import { answerMismatches, type AnswerMismatch } from '../../server/contracts';
import type { OperationRouteConfig } from '../../server/http/operability';

/** The open API's routes name their operation `open:<name>` (server/openApi/routes.ts). */
const OPEN_PREFIX = 'open:';

/** Checks every JSON answer of `app`'s operations as it is sent; answers the list it fills. */
export function watchAnswers(app: FastifyInstance): AnswerMismatch[] {
  const found: AnswerMismatch[] = [];
  app.addHook('onSend', async (request, reply, payload) => {
    const operation = (request.routeOptions.config as OperationRouteConfig | undefined)?.operation;
    if (typeof operation !== 'string' || typeof payload !== 'string') return payload;
    if (!String(reply.getHeader('content-type') ?? '').includes('json')) return payload;
    let body: unknown;
    try {
      body = JSON.parse(payload);
    } catch {
      return payload;
    }
    const name = operation.startsWith(OPEN_PREFIX) ? operation.slice(OPEN_PREFIX.length) : operation;
    found.push(...answerMismatches(name, body));
    return payload;
  });
  return found;
}

/** The departures as lines (each once): `device.page /data/records/0/id must be integer`. */
export function mismatchLines(found: readonly AnswerMismatch[]): string[] {
  return [...new Set(found.map((mismatch) => `${mismatch.operation} ${mismatch.pointer.replace(/\/\d+(?=\/|$)/g, '/*')} ${mismatch.message}`))];
}
