import { APPROVALS } from './approvals/index.js';
import type { Bot } from './bot.js';
import { COMMAND } from './command/index.js';
import type { Feature } from './feature.js';
import { FLOWS } from './flows/index.js';
import { FORMS } from './forms/index.js';
import { HOME } from './home/index.js';
import { IDENTITY } from './identity/index.js';
import { MENTIONS } from './mentions/index.js';
import { PLAIN } from './plain/index.js';
import { SCHEDULES } from './schedules/index.js';
import { TYPEAHEAD } from './typeahead/index.js';
import { WORKFLOWS } from './workflows/index.js';

type Config = Bot['config'];

/**
 * A feature only some deployments run: whether a configuration runs it, and its declaration, loaded only
 * then, so that a deployment loads nothing of what it does not use.
 */
interface ConfiguredFeature {
  readonly runs: (config: Config) => boolean;
  readonly load: () => Promise<Feature>;
}

const addToSlack = (config: Config) => config.slack.mode === 'installs';

/**
 * THE ONE LIST of features, in the order their listeners are asked: every deployment's, and in its place
 * each that only some configurations run.
 */
const FEATURES: readonly (Feature | ConfiguredFeature)[] = [
  COMMAND,
  FORMS,
  TYPEAHEAD,
  APPROVALS,
  FLOWS,
  HOME,
  IDENTITY,
  // Before MENTIONS: of the direct messages, it answers those in threads (the pane's).
  { runs: (c) => c.assistantPane, load: async () => (await import('./assistant/index.js')).ASSISTANT },
  MENTIONS,
  PLAIN,
  SCHEDULES,
  WORKFLOWS,
  { runs: addToSlack, load: async () => (await import('./install/index.js')).INSTALL },
  { runs: addToSlack, load: async () => (await import('./setup/index.js')).SETUP },
];

const configured = (f: Feature | ConfiguredFeature): f is ConfiguredFeature => 'load' in f;

/** The features this thread has loaded: every deployment's, and those of the configurations it runs. */
const loaded: Feature[] = FEATURES.filter((f): f is Feature => !configured(f));

/** These of the list, in its order, each configured one loaded. */
async function load(runs: (f: ConfiguredFeature) => boolean): Promise<readonly Feature[]> {
  const features = await Promise.all(
    FEATURES.map(async (f) => (!configured(f) ? f : runs(f) ? f.load() : undefined)),
  );
  const made = features.filter((f): f is Feature => f !== undefined);
  for (const f of made) if (!loaded.includes(f)) loaded.push(f);
  return made;
}

/**
 * What a deployment runs, by its configuration. The app's listeners and routes (app.ts) and the
 * background work (runtime/background.ts) are read from it.
 */
export function featuresOf(config: Config): Promise<readonly Feature[]> {
  return load((f) => f.runs(config));
}

/** Every feature any deployment runs: the manifest declares them all, whatever one deployment uses. */
export function everyFeature(): Promise<readonly Feature[]> {
  return load(() => true);
}

/**
 * The features this thread has loaded, which make every job it can be handed: the follow-up of each job
 * kind, and whom a lost job's notice goes to, are read from them (runtime/dispatch.ts).
 */
export function featuresLoaded(): readonly Feature[] {
  return loaded;
}
