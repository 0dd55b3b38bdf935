// One contract per operation (issue 23): schemas/contracts.json and the console's types are
// generated from the server (npm run contracts) and must not be stale.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadCatalogue } from '../../server/catalogue';
import { answerMismatches, loadContracts } from '../../server/contracts';
import { OPERATIONS } from '../../server/operations/index';
import { buildContracts, buildContractTypes, contractsText, CONTRACT_TYPES_FILE, CONTRACTS_FILE } from '../../scripts/contracts';

const read = (file: string) => readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8');
const STALE = '已过期：运行 npm run contracts 重新生成';

describe('the generated contracts', () => {
  const contracts = buildContracts();

  it('schemas/contracts.json is what npm run contracts writes from the server', () => {
    expect(read(CONTRACTS_FILE) === contractsText(contracts), `${CONTRACTS_FILE} ${STALE}`).toBe(true);
  });

  it('src/api/contracts.gen.ts is generated from them', async () => {
    expect(read(CONTRACT_TYPES_FILE) === (await buildContractTypes(contracts)), `${CONTRACT_TYPES_FILE} ${STALE}`).toBe(true);
  }, 60_000);

  it('names every catalogued operation, with the param schema its handler validates', () => {
    const catalogue = loadCatalogue();
    expect(Object.keys(contracts.operations)).toEqual(Object.keys(catalogue));
    for (const definition of OPERATIONS) expect(contracts.operations[definition.name].param, definition.name).toEqual(definition.paramSchema);
  });

  it('describes the data of every implemented operation but files', () => {
    const undescribed = Object.entries(contracts.operations)
      .filter(([, contract]) => contract.param && contract.kind !== 'blob' && !contract.data)
      .map(([name]) => name);
    // A name is followed through factories that pass it on (monitoring.alarm.handle: sourceOperations,
    // then handleOperation; the field work's reads: fieldWorkOperations, then fieldReadOperations).
    // brand.user.insert, listed here while it answered another operation's untyped answer, writes
    // through core/userAccounts.ts's insertUser since issue 32 and is described. A new operation
    // answering `unknown` (or `any`) would be listed here: give its handler a return type.
    expect(undescribed).toEqual([]);
    expect(contracts.operations['monitoring.alarm.handle'].data).toEqual({
      type: 'object',
      properties: { code: { type: 'string' }, state: { type: 'string', enum: ['ignored', 'resolved'] } },
      required: ['code', 'state'],
      additionalProperties: false,
    });
  });

  it('finds an answer that departs from its contract, by operation and pointer', () => {
    expect(loadContracts().operations['auth.login'].data).toBeDefined();
    const answer = { code: '200', message: '操作成功', data: { accessToken: 'a', refreshToken: 'b', expiresIn: '7200', refreshExpiresIn: 1, extra: 1 } };
    expect(answerMismatches('auth.login', answer).map((mismatch) => `${mismatch.operation} ${mismatch.pointer} ${mismatch.message}`)).toEqual([
      'auth.login /data must NOT have additional properties：extra',
      'auth.login /data/expiresIn must be number',
    ]);
    expect(answerMismatches('auth.login', { code: '400', message: '参数错误', data: null })).toEqual([]);
  });
});
