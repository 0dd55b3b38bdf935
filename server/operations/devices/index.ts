import { alarmsOperations } from './alarms';
import { catalogueOperations } from './catalogue';
import { credentialOperations } from './credentials';
import { distributionOperations } from './distribution';
import { firmwareOperations } from './firmware';
import { fleetOperations } from './fleet';
import { maintenanceOperations } from './maintenance';

/** The device side (issue 5): fleet, maintenance, product catalogue, alarms, firmware and apps. */
export const deviceOperations = [...fleetOperations, ...maintenanceOperations, ...catalogueOperations, ...alarmsOperations, ...firmwareOperations, ...distributionOperations, ...credentialOperations];
