import { parseArgs } from 'node:util';
import { startEmulator } from './index.js';

const usage =
  'usage: node dist/standins/emulator/main.js [--port 8787] [--host 127.0.0.1] [--token T] [--account ID] [--state FILE]';

async function main(): Promise<void> {
  let values: {
    port?: string;
    host?: string;
    token?: string;
    account?: string;
    state?: string;
    help?: boolean;
  };
  try {
    ({ values } = parseArgs({
      options: {
        port: { type: 'string' },
        host: { type: 'string' },
        token: { type: 'string' },
        account: { type: 'string' },
        state: { type: 'string' },
        help: { type: 'boolean' },
      },
    }));
  } catch (err) {
    console.error(`${(err as Error).message}\n${usage}`);
    process.exit(2);
  }
  if (values.help) return void console.log(usage);
  const port = Number(values.port ?? process.env.EMULATOR_PORT ?? '8787');
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`--port must be an integer from 0 to 65535, e.g. --port 8787\n${usage}`);
    process.exit(2);
  }
  const emu = await startEmulator({
    port,
    host: values.host ?? '127.0.0.1',
    ...(values.token ? { token: values.token } : {}),
    ...(values.account ? { accountId: values.account } : {}),
    ...(values.state ? { stateFile: values.state, onStateProblem: (p: string) => console.error(p) } : {}),
  });
  console.log(`emulator listening at ${emu.url}`);
  console.log(`TSAI_BASE_URL=${emu.url}`);
  console.log(`TSAI_ACCOUNT_ID=${emu.accountId}`);
  console.log(`TSAI_TOKEN=${emu.token}`);
  if (values.state) console.log(`state kept in ${values.state}`);
  const stop = () => void emu.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((err: unknown) => {
  console.error(`emulator failed to start: ${(err as Error).message}`);
  process.exit(1);
});
