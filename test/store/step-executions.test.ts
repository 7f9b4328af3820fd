import { describePg, pgLocation, sqliteLocation } from '../support/fixtures/store.js';
import { stepConformance } from '../support/step-conformance.js';

stepConformance('SQLite', sqliteLocation);

describePg('PostgreSQL', () => {
  stepConformance('PostgreSQL', pgLocation);
});
