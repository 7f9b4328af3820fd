import { benchParse } from './parse.js';

interface Row {
  section: string;
  metric: string;
  value: string;
}

type Section = { name: string; run: () => Promise<Row[]> };

async function timeParsing(): Promise<Row[]> {
  const r = await benchParse();
  return [
    { section: 'time ranges', metric: 'phrases × zones', value: String(r.phrases) },
    { section: 'time ranges', metric: 'parse median', value: `${r.medianMs.toFixed(3)} ms` },
    { section: 'time ranges', metric: 'parse p99', value: `${r.p99Ms.toFixed(3)} ms` },
  ];
}

/** Each section measures one part; later parts add theirs here. */
const SECTIONS: Section[] = [{ name: 'time ranges', run: timeParsing }];

async function main(): Promise<void> {
  const rows: Row[] = [];
  for (const s of SECTIONS) rows.push(...(await s.run()));
  const w = [
    Math.max(7, ...rows.map((r) => r.section.length)),
    Math.max(6, ...rows.map((r) => r.metric.length)),
  ];
  console.log(`${'section'.padEnd(w[0]!)}  ${'metric'.padEnd(w[1]!)}  value`);
  for (const r of rows) console.log(`${r.section.padEnd(w[0]!)}  ${r.metric.padEnd(w[1]!)}  ${r.value}`);
}

main().catch((e: unknown) => {
  console.error(e);
  process.exitCode = 1;
});
