import { api } from './client';
import type { OperationContracts } from './contracts.gen';
import type { CallOptions, HttpClient, PageRequest, PageResult, SortParam } from './http';

/**
 * The console's calls typed by the operations' contracts (issue 23): `src/api/contracts.gen.ts`
 * is generated from schemas/contracts.json, which is generated from the server's own param
 * schemas and answers, so a misspelt or missing param field fails `tsc` here. Opt-in by name:
 * `typedApi.call('user.password.update', {...})` is checked, while `api.call(name, param)` with a
 * name the console only knows at run time (page schemas) stays untyped.
 */

export type OperationName = keyof OperationContracts;
type NamesOfKind<K extends string> = { [N in OperationName]: OperationContracts[N]['kind'] extends K ? N : never }[OperationName];
/** Operations of kind `call` or `get`. */
export type CallName = NamesOfKind<'call' | 'get'>;
/** Operations of kind `page`. */
export type PageName = NamesOfKind<'page'>;

/** What an operation takes as `param`. */
export type ParamOf<N extends OperationName> = OperationContracts[N]['param'];
/** What a successful answer holds in `data` (`unknown` where the contract does not describe it). */
export type DataOf<N extends OperationName> = OperationContracts[N]['data'];
/** A row of a `page` operation. */
export type RecordOf<N extends PageName> = DataOf<N> extends { records: Array<infer R> } ? R : unknown;

/** The param may be left out where every field is optional; otherwise it is required. */
type ParamArguments<N extends OperationName, O> = Record<string, never> extends ParamOf<N> ? [param?: ParamOf<N>, options?: O] : [param: ParamOf<N>, options?: O];

export interface TypedClient {
  /** kind `call` or `get`: resolves the answer's `data`. */
  call<N extends CallName>(operation: N, ...args: ParamArguments<N, CallOptions>): Promise<DataOf<N>>;
  /** kind `page`: one page of the operation's records. */
  page<N extends PageName>(operation: N, pageParam: PageRequest, param?: ParamOf<N>, sortParamList?: SortParam[], options?: CallOptions): Promise<PageResult<RecordOf<N>>>;
}

/**
 * The same client, each call checked against its operation's contract. The client is looked up at
 * each call and given exactly the arguments given, so a test that replaces `api` sees the calls.
 */
export function typedClient(client: () => Pick<HttpClient, 'call' | 'page'>): TypedClient {
  return {
    call: (operation, ...args) => client().call(operation, ...args),
    page: (operation, ...args) => client().page(operation, ...args),
  };
}

/** The console's client (src/api/client.ts) with each call checked against its operation's contract. */
export const typedApi: TypedClient = typedClient(() => api);
