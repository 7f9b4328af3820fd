import { APPROVALS } from './approvals/index.js';
import type { Bot } from './bot.js';
import { COMMAND } from './command/index.js';
import type { Feature } from './feature.js';
import { FLOWS } from './flows/index.js';
import { FORMS } from './forms/index.js';
import { HOME } from './home/index.js';
import { IDENTITY } from './identity/index.js';
import { MENTIONS } from './mentions/index.js';
import { SCHEDULES } from './schedules/index.js';
import { TYPEAHEAD } from './typeahead/index.js';
import { WORKFLOWS } from './workflows/index.js';

type Config = Bot['config'];

/** The features every deployment runs. */
const EVERYWHERE: readonly Feature[] = [
  COMMAND,
  FORMS,
  TYPEAHEAD,
  APPROVALS,
  FLOWS,
  HOME,
  IDENTITY,
  MENTIONS,
  SCHEDULES,
  WORKFLOWS,
];

/**
 * A feature only some deployments run: whether a configuration runs it, and its declaration, loaded only
 * then, so that a deployment loads nothing of what it does not use.
 */
interface ConfiguredFeature {
  readonly runs: (config: Config) => boolean;
  readonly load: () => Promise<Feature>;
}

const addToSlack = (config: Config) => config.slack.mode === 'installs';

const WHEN_CONFIGURED: readonly ConfiguredFeature[] = [
  { runs: addToSlack, load: async () => (await import('./install/index.js')).INSTALL },
  { runs: addToSlack, load: async () => (await import('./setup/index.js')).SETUP },
];

/** The features this thread has loaded: every deployment's, and those of the configurations it runs. */
const loaded: Feature[] = [...EVERYWHERE];

async function load(features: readonly ConfiguredFeature[]): Promise<Feature[]> {
  const made = await Promise.all(features.map((f) => f.load()));
  for (const f of made) if (!loaded.includes(f)) loaded.push(f);
  return made;
}

/**
 * THE ONE LIST of features: what a deployment runs, by its configuration. The app's listeners and routes
 * (app.ts) and the background work (runtime/background.ts) are read from it.
 */
export async function featuresOf(config: Config): Promise<readonly Feature[]> {
  return [...EVERYWHERE, ...(await load(WHEN_CONFIGURED.filter((f) => f.runs(config))))];
}

/** Every feature any deployment runs: the manifest declares them all, whatever one deployment uses. */
export async function everyFeature(): Promise<readonly Feature[]> {
  return [...EVERYWHERE, ...(await load(WHEN_CONFIGURED))];
}

/**
 * The features this thread has loaded, which make every job it can be handed: the follow-up of each job
 * kind, and whom a lost job's notice goes to, are read from them (runtime/dispatch.ts).
 */
export function featuresLoaded(): readonly Feature[] {
  return loaded;
}
