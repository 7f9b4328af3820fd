import { runStoreMove } from './store/move/cli.js';

// `npm run store:move`: moves the bot's store to another (docs/moving-the-store.md). The bot is stopped.
process.exitCode = await runStoreMove(process.argv.slice(2), {
  out: (line) => console.log(line),
  err: (line) => console.error(line),
});
