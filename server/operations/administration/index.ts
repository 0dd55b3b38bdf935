import { loginLogOperations } from './loginLog';
import { statisticsOperations } from './statistics';
import { userOperations } from './users';

/** System administration: users, the login log and the usage statistics. */
export const administrationOperations = [...userOperations, ...loginLogOperations, ...statisticsOperations];
