import { existsSync } from 'node:fs';

/**
 * Configuration: every environment variable the bot reads, in one table (config/variables.ts), read and
 * checked by `loadConfig` (config/load.ts). docs/configuration.md shows the same table.
 */
export { formatDuration, parseDuration } from './config/duration.js';
export { loadConfig } from './config/load.js';
export type { ConfigNotice, ConfigProblem } from './config/read.js';
export {
  type Config,
  ConfigError,
  type InstallSettings,
  type SecretKeyring,
  type ServiceConfig,
  type SlackConfig,
  type SlackMode,
} from './config/types.js';
export { RETIRED, VARIABLES, type VariableName } from './config/variables.js';

/** Loads `.env` from the working directory when present; variables already set win. */
export function loadDotEnv(path = '.env'): boolean {
  if (!existsSync(path)) return false;
  if (typeof process.loadEnvFile !== 'function') return false;
  process.loadEnvFile(path);
  return true;
}
