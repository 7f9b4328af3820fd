import { describePg, pgLocation } from '../support/pg.js';
import { sqliteLocation } from '../support/sqlite.js';
import { storeConformance } from '../support/store-conformance.js';

storeConformance('SQLite', sqliteLocation);

describePg('PostgreSQL', () => {
  storeConformance('PostgreSQL', pgLocation);
});
