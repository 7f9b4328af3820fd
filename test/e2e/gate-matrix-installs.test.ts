import { gateMatrix } from '../support/gate-matrix.js';

// Every guarantee of the gate against every surface with "Add to Slack": two tenants, one of them an
// organisation installed org-wide, each with its own service account (test/support/gate-matrix.ts).
gateMatrix('add-to-slack');
