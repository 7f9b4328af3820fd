import { describePg, pgLocation, sqliteLocation } from '../support/fixtures/store.js';
import { personTokenConformance } from '../support/person-token-conformance.js';
import { storeConformance } from '../support/store-conformance.js';
import { tenantSecretConformance } from '../support/tenant-secret-conformance.js';

storeConformance('SQLite', sqliteLocation);

describePg('PostgreSQL', () => {
  storeConformance('PostgreSQL', pgLocation);
});

personTokenConformance('SQLite', sqliteLocation);
describePg('PostgreSQL, people’s own tokens', () => {
  personTokenConformance('PostgreSQL', pgLocation);
});

tenantSecretConformance('SQLite', sqliteLocation);
describePg('PostgreSQL, tenants’ secrets', () => {
  tenantSecretConformance('PostgreSQL', pgLocation);
});
