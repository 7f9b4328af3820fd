import { describePg, pgLocation, sqliteLocation } from '../support/fixtures/store.js';
import { scheduleConformance } from '../support/schedule-conformance.js';

scheduleConformance('SQLite', sqliteLocation);

describePg('PostgreSQL', () => {
  scheduleConformance('PostgreSQL', pgLocation);
});
