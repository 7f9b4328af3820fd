import { describePg, pgLocation } from '../support/pg.js';
import { sqliteLocation } from '../support/sqlite.js';
import { trackingConformance } from '../support/tracking-conformance.js';

trackingConformance('SQLite', sqliteLocation);

describePg('PostgreSQL', () => {
  trackingConformance('PostgreSQL', pgLocation);
});
