import { describePg, pgLocation, sqliteLocation } from '../support/fixtures/store.js';
import { trackingConformance } from '../support/tracking-conformance.js';

trackingConformance('SQLite', sqliteLocation);

describePg('PostgreSQL', () => {
  trackingConformance('PostgreSQL', pgLocation);
});
