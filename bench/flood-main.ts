// The flooder of the bench's flood phase, in its own process so that its work does not share the driver's
// CPU time slice: a bounded number of connections, each sending the next hostile body as soon as the
// previous one is answered or cut, until SIGTERM; then it prints what the target answered, as JSON.
import { Pool } from 'undici';
import { FLOOD_BODIES, nestedBody } from './flood.js';

async function main(): Promise<void> {
  const origin = process.env.FLOOD_ORIGIN;
  const connections = Number(process.env.FLOOD_CONNECTIONS ?? 8);
  if (!origin) throw new Error('FLOOD_ORIGIN is required');
  const unsigned = nestedBody(FLOOD_BODIES.unsignedBytes, true);
  const falselySigned = nestedBody(FLOOD_BODIES.falselySignedBytes, false);
  const pool = new Pool(origin, { connections, pipelining: 1, headersTimeout: 10_000, bodyTimeout: 10_000 });
  const outcomes: Record<string, number> = {};
  let stopping = false;
  const one = async (i: number) => {
    const signed = i % 2 === 1;
    const headers: Record<string, string> = {
      'content-type': signed ? 'application/json' : 'application/x-www-form-urlencoded',
    };
    if (signed) {
      headers['x-slack-request-timestamp'] = String(Math.floor(Date.now() / 1000));
      headers['x-slack-signature'] = `v0=${'ab'.repeat(32)}`;
    }
    let outcome: string;
    try {
      const r = await pool.request({
        path: '/slack/events',
        method: 'POST',
        headers,
        body: signed ? falselySigned : unsigned,
      });
      await r.body.dump();
      outcome = String(r.statusCode);
    } catch (err) {
      outcome = (err as { code?: string }).code ?? 'error';
    }
    const key = `${signed ? 'falsely signed' : 'unsigned'} ${outcome}`;
    outcomes[key] = (outcomes[key] ?? 0) + 1;
  };
  let next = 0;
  const worker = async () => {
    while (!stopping) await one(next++);
  };
  const workers = Array.from({ length: connections }, worker);
  process.once('SIGTERM', () => {
    stopping = true;
  });
  process.stdout.write('flooding\n');
  await Promise.all(workers);
  await pool.destroy();
  process.stdout.write(`${JSON.stringify(outcomes)}\n`);
}

main().catch((e: unknown) => {
  console.error(e);
  process.exitCode = 1;
});
