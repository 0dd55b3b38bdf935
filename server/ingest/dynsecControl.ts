import { randomUUID } from 'node:crypto';
import type { MqttClient } from 'mqtt';

/**
 * Mosquitto's dynamic-security plugin, spoken to over its topic API (issue 36): a message on
 * `$CONTROL/dynamic-security/v1` carries `{"commands":[…]}`, and the plugin answers on
 * `$CONTROL/dynamic-security/v1/response` with `{"responses":[…]}`, one response per command in the
 * same order, each naming its command and, when it failed, an `error` sentence ("Client not
 * found", "Role already exists"…). Every command here carries a correlationData of its request, so
 * an answer meant for another request (or another admin connection) is never taken for this one.
 *
 * Found on Debian's Mosquitto 2.0.11 and kept to here: every successful change rewrites the
 * plugin's whole JSON file (a failed command writes nothing), so a change costs more the more
 * clients there are; deleting a role while a client still holds it leaves that client pointing at
 * freed memory (the broker can crash later), so a client is always deleted before its role;
 * `addClientRole` for a role the client already has answers "Internal error"; `createClient`
 * ignores `disabled`; ACL topics take no `%u`/`%c` substitution, so each device has a role of its own.
 */

export const DYNSEC_TOPIC = '$CONTROL/dynamic-security/v1';
export const DYNSEC_RESPONSE_TOPIC = `${DYNSEC_TOPIC}/response`;
/** How long an answer may take before the request counts as failed. */
export const DYNSEC_TIMEOUT_MS = 15_000;

export type DynsecCommand = { command: string } & Record<string, unknown>;

export interface DynsecResponse {
  command: string;
  error?: string;
  data?: Record<string, unknown>;
}

/** A request the plugin did not answer, or answered with a shape it never uses. */
export class DynsecUnanswered extends Error {}

export interface DynsecControl {
  /** Sends the commands in one message; answers one response per command, in order (errors included). */
  send(commands: readonly DynsecCommand[]): Promise<DynsecResponse[]>;
  close(): Promise<void>;
}

interface Waiting {
  count: number;
  resolve: (responses: DynsecResponse[]) => void;
  reject: (error: Error) => void;
  timer: ReturnType<typeof setTimeout>;
}

function responsesOf(payload: Buffer): Array<DynsecResponse & { correlationData?: unknown }> {
  try {
    const value = JSON.parse(payload.toString('utf8')) as { responses?: unknown };
    return Array.isArray(value.responses) ? (value.responses.filter((item) => item && typeof item === 'object') as Array<DynsecResponse & { correlationData?: unknown }>) : [];
  } catch {
    return [];
  }
}

/**
 * The plugin's API through `client` (the platform's own connection, whose account has the plugin's
 * admin rights): subscribes to the answers and matches them to their requests.
 */
export async function dynsecControl(client: MqttClient): Promise<DynsecControl> {
  const waiting = new Map<string, Waiting>();
  const onMessage = (topic: string, payload: Buffer) => {
    if (topic !== DYNSEC_RESPONSE_TOPIC) return;
    const responses = responsesOf(payload);
    const first = responses[0]?.correlationData;
    const request = typeof first === 'string' ? first.split(':')[0] : '';
    const entry = waiting.get(request);
    if (!entry) return;
    waiting.delete(request);
    clearTimeout(entry.timer);
    if (responses.length !== entry.count) entry.reject(new DynsecUnanswered(`动态安全插件的应答条数不符（${responses.length}/${entry.count}）`));
    else entry.resolve(responses.map(({ command, error, data }) => ({ command, ...(typeof error === 'string' ? { error } : {}), ...(data ? { data } : {}) })));
  };
  client.on('message', onMessage);
  await client.subscribeAsync(DYNSEC_RESPONSE_TOPIC, { qos: 1 });
  return {
    send: (commands) => {
      if (commands.length === 0) return Promise.resolve([]);
      const request = randomUUID();
      const message = JSON.stringify({ commands: commands.map((command, index) => ({ ...command, correlationData: `${request}:${index}` })) });
      return new Promise<DynsecResponse[]>((resolve, reject) => {
        const timer = setTimeout(() => {
          waiting.delete(request);
          reject(new DynsecUnanswered(`动态安全插件 ${DYNSEC_TIMEOUT_MS} ms 内无应答`));
        }, DYNSEC_TIMEOUT_MS);
        waiting.set(request, { count: commands.length, resolve, reject, timer });
        client.publishAsync(DYNSEC_TOPIC, message, { qos: 1 }).catch((error: unknown) => {
          waiting.delete(request);
          clearTimeout(timer);
          reject(error instanceof Error ? error : new Error(String(error)));
        });
      });
    },
    close: async () => {
      client.removeListener('message', onMessage);
      for (const entry of waiting.values()) {
        clearTimeout(entry.timer);
        entry.reject(new DynsecUnanswered('连接已关闭'));
      }
      waiting.clear();
    },
  };
}
