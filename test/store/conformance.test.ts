import { describePg, pgLocation, sqliteLocation } from '../support/fixtures/store.js';
import { storeConformance } from '../support/store-conformance.js';

storeConformance('SQLite', sqliteLocation);

describePg('PostgreSQL', () => {
  storeConformance('PostgreSQL', pgLocation);
});
