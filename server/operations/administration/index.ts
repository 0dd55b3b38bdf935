import { accountOperations } from './accounts';
import { loginLogOperations } from './loginLog';
import { loginUserOperations } from './loginUsers';
import { statisticsOperations } from './statistics';
import { usageRecordOperations } from './usageRecords';
import { userOperations } from './users';

/** System administration: users and their accounts, the login log, login users and the usage statistics. */
export const administrationOperations = [
  ...userOperations,
  ...accountOperations,
  ...loginLogOperations,
  ...loginUserOperations,
  ...statisticsOperations,
  ...usageRecordOperations,
];
