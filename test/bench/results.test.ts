import { describe, expect, it } from 'vitest';
import {
  buildResults,
  formatTable,
  type Measurements,
  markdownFigures,
  runLogLine,
} from '../../bench/results.js';

const machine = { cpus: 2, model: 'Test CPU', memoryMb: 4096, node: 'v20.20.0', os: 'Linux test x64' };
const ms = (from: number, n: number) => Array.from({ length: n }, (_, i) => from + i);

function measurements(over: Partial<Measurements> = {}): Measurements {
  return {
    machine,
    ack: [
      { command: 'help', concurrency: 1, bot: ms(1, 100), bare: ms(1, 100).map((x) => x / 2) },
      { command: 'learn', concurrency: 200, bot: [], bare: ms(10, 100) },
    ],
    viewsOpen: ms(100, 100),
    sustainedCommandsPerSecond: 400,
    coldStart: { bot: [600, 500, 700], bare: [300, 200, 250] },
    peakRss: { botMb: 150.04, bareMb: 100 },
    parse: { medianMs: 0.06612, p99Ms: 0.2011 },
    ...over,
  };
}

describe('bench results', () => {
  it('has exactly the shape the bench publishes, with ratios bot / bare', () => {
    const r = buildResults(measurements());
    expect(Object.keys(r).sort()).toEqual(
      ['ack', 'coldStart', 'machine', 'parse', 'peakRss', 'sustained', 'viewsOpen'].sort(),
    );
    expect(r.machine).toEqual(machine);
    expect(r.ack[0]).toEqual({
      command: 'help',
      concurrency: 1,
      bot: { p50: 50, p99: 99 },
      bare: { p50: 25, p99: 49.5 },
      ratio: { p50: 2, p99: 2 },
    });
    // No bot samples: null figures and ratios, never a made-up number.
    expect(r.ack[1]).toEqual({
      command: 'learn',
      concurrency: 200,
      bot: { p50: null, p99: null },
      bare: { p50: 59, p99: 108 },
      ratio: { p50: null, p99: null },
    });
    expect(r.viewsOpen).toEqual({ concurrency: 50, p50: 149, p99: 198 });
    expect(r.sustained).toEqual({ commandsPerSecond: 400 });
    expect(r.coldStart).toEqual({ botMs: 600, bareMs: 250, ratio: 2.4 });
    expect(r.peakRss).toEqual({ botMb: 150, bareMb: 100, ratio: 1.5 });
    expect(r.parse).toEqual({ medianMs: 0.066, p99Ms: 0.201 });
    expect(JSON.parse(JSON.stringify(r))).toEqual(r);
  });

  it('reports views.open as not available (null) when the bot opens no modal', () => {
    const r = buildResults(measurements({ viewsOpen: null, parse: null, sustainedCommandsPerSecond: null }));
    expect(r.viewsOpen).toEqual({ concurrency: 50, p50: null, p99: null });
    expect(r.parse).toEqual({ medianMs: null, p99Ms: null });
    expect(r.sustained.commandsPerSecond).toBeNull();
    const table = formatTable(r);
    expect(table).toMatch(/views\.open c=50 p99\s+n\/a/);
  });

  it('prints a table with the machine, every measure and a verdict against its target', () => {
    const table = formatTable(buildResults(measurements()));
    expect(table).toContain('machine: 2 × Test CPU, 4096 MB, Node v20.20.0, Linux test x64');
    expect(table).toMatch(/ack help c=1 p50\s+50 ms\s+25 ms\s+2\s+≤ 1.2×\s+MISSED/);
    expect(table).toMatch(/cold start \(median\)\s+600 ms\s+250 ms\s+2.4\s+≤ 1.3×\s+MISSED/);
    expect(table).toMatch(/ack help c=1 p99\s+99 ms\s+49.5 ms\s+2\s+≤ 1.5×\s+MISSED/);
    expect(table).toMatch(/peak RSS, c=200\s+150 MB\s+100 MB\s+1.5\s+≤ 1.5×\s+ok/);
    expect(table).toMatch(/views\.open c=50 p99\s+198 ms.*≤ 500 ms\s+ok/);
    expect(table).toMatch(/sustained, p99 ack < 1 s\s+400 cmd\/s/);
  });
  it("prints the previous run's cold start and peak RSS beside this run's", () => {
    const before = buildResults(
      measurements({ coldStart: { bot: [900], bare: [450] }, peakRss: { botMb: 210, bareMb: 116 } }),
    );
    const table = formatTable(buildResults(measurements()), {
      ...before,
      run: { date: '2026-11-26T04:31:00.000Z', loadAverage: { before: 0.4, after: 0.5 } },
    });
    expect(table).toContain('(previous run: 2026-11-26T04:31:00.000Z)');
    expect(table).toMatch(
      /cold start \(median\)\s+600 ms\s+250 ms\s+2.4\s+≤ 1.3×\s+MISSED\s+900 \/ 450 ms, 2/,
    );
    expect(table).toMatch(/peak RSS, c=200\s+150 MB\s+100 MB\s+1.5\s+≤ 1.5×\s+ok\s+210 \/ 116 MB, 1.81/);
    // Without a previous run, no such column.
    expect(formatTable(buildResults(measurements()))).not.toContain('previous run');
  });

  it('logs a run as one line of the runs log: when, where, and each measured figure with its verdict', () => {
    const run = { date: '2026-12-02T10:15:42.000Z', loadAverage: { before: 0.31, after: 0.52 } };
    const line = runLogLine(buildResults({ ...measurements({ viewsOpen: null }), run }));
    expect(line).not.toContain('\n');
    const logged = JSON.parse(line) as { run: unknown; machine: string; figures: Record<string, string>[] };
    expect(logged.run).toEqual(run);
    expect(logged.machine).toBe('2 × Test CPU, 4096 MB, Node v20.20.0, Linux test x64');
    expect(logged.figures).toContainEqual({
      measure: 'peak RSS, c=200',
      bot: '150 MB',
      bare: '100 MB',
      ratio: '1.5',
      target: '≤ 1.5×',
      verdict: 'ok',
    });
    expect(logged.figures.find((f) => f.measure === 'ack help c=1 p50')?.verdict).toBe('MISSED');
    // A measure the run did not take is left out, not logged as n/a.
    expect(logged.figures.some((f) => f.measure.startsWith('views.open'))).toBe(false);
  });

  it('gives docs/performance.md the same measures, one table, with the run it comes from', () => {
    const r = buildResults({
      ...measurements(),
      run: { date: '2026-12-02T10:15:42.000Z', loadAverage: { before: 0.31, after: 0.52 } },
    });
    const md = markdownFigures(r).split('\n');
    expect(md[0]).toBe(
      'Run of 2026-12-02 10:15 UTC (load average 0.31 before, 0.52 after), on 2 × Test CPU, 4096 MB, Node v20.20.0, Linux test x64.',
    );
    expect(md[2]).toBe('| Measure | bot | bare Bolt | ratio | target | verdict |');
    expect(md).toContain('| cold start (median) | 600 ms | 250 ms | 2.4 | ≤ 1.3× | MISSED |');
    expect(md).toContain('| peak RSS, c=200 | 150 MB | 100 MB | 1.5 | ≤ 1.5× | ok |');
    expect(md.filter((l) => l.startsWith('| ')).length).toBe(formatTable(r).split('\n').length - 1);
  });

  it('reports the flood phase as with / without a flood, per app, and prints it', () => {
    const summary = (p50: number, p99: number) => ({ count: 100, p50, p99, max: p99 });
    const f = (without: number, during: number) => ({
      connections: 8,
      bodies: { unsignedBytes: 4_194_304, falselySignedBytes: 921_600 },
      without: summary(without, without * 2),
      with: summary(during, during * 3),
      flood: { 'unsigned 401': 40 },
    });
    const r = buildResults(measurements({ flood: { bot: f(10, 12), bare: f(10, 40) } }));
    expect(r.flood?.bot?.ratio).toEqual({ p50: 1.2, p99: 1.8 });
    expect(r.flood?.bare?.ratio).toEqual({ p50: 4, p99: 6 });
    expect(r.flood?.bot?.flood).toEqual({ 'unsigned 401': 40 });
    expect(formatTable(r)).toMatch(
      /ack help c=10 p99, without \/ during a flood \(bare\)\s+20 \/ 120 ms\s+6/,
    );
  });
});
