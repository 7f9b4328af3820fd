import type { Logger } from '../log.js';
import type { MetricsExposure, StoreFigures, ThreadMetrics } from './exposure.js';

export interface MetricsSetup {
  settings: { port: number | 'off'; host: string };
  readStore(): Promise<StoreFigures>;
  otherThreads(): Promise<ThreadMetrics[]>;
  logger: Logger;
}

/**
 * Serves the metrics unless they are off. A port already taken is logged and the bot runs without them:
 * the bot's work is Slack's, and a scrape that fails tells Prometheus's own alerting.
 */
export async function startMetrics(o: MetricsSetup): Promise<MetricsExposure | undefined> {
  const { port, host } = o.settings;
  if (port === 'off') return undefined;
  const { startMetricsExposure } = await import('./exposure.js');
  const log = o.logger.child({ part: 'metrics' });
  try {
    const exposure = await startMetricsExposure({
      host,
      port,
      readStore: o.readStore,
      otherThreads: o.otherThreads,
      onStoreError: (e) =>
        log.warn({ err: e instanceof Error ? e.message : String(e) }, 'a scrape could not read the store'),
    });
    log.info({ host, port: exposure.port() }, 'metrics served at /metrics');
    return exposure;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code !== 'EADDRINUSE' && code !== 'EADDRNOTAVAIL' && code !== 'EACCES') throw e;
    log.error(
      { host, port, code },
      'the metrics port is not available, so /metrics is not served; set TSAI_METRICS_PORT to a free port or off',
    );
    return undefined;
  }
}
