import { gateMatrix } from '../support/gate-matrix.js';

// Every guarantee of the gate against every surface, with one bot token (test/support/gate-matrix.ts).
gateMatrix('single-token');
