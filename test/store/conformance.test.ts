import { describePg, pgLocation, sqliteLocation } from '../support/fixtures/store.js';
import { personTokenConformance } from '../support/person-token-conformance.js';
import { storeConformance } from '../support/store-conformance.js';

storeConformance('SQLite', sqliteLocation);

describePg('PostgreSQL', () => {
  storeConformance('PostgreSQL', pgLocation);
});

personTokenConformance('SQLite', sqliteLocation);
describePg('PostgreSQL, people’s own tokens', () => {
  personTokenConformance('PostgreSQL', pgLocation);
});
