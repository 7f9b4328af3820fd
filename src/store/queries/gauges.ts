import { all, one, statements } from '../sql.js';

/** What operators watch of the shared state: followed flows by status, and pending approval requests. */
export const operatorFigures = () =>
  statements(function* () {
    const flows = yield* all('SELECT status, COUNT(*) AS n FROM tracked_flows GROUP BY status');
    const pending = yield* one("SELECT COUNT(*) AS n FROM approvals WHERE status = 'pending'");
    return {
      flows: flows.map((r) => ({ status: String(r.status), count: Number(r.n) })),
      approvalsPending: Number(pending?.n ?? 0),
    };
  });
