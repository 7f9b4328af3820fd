import { seedRecords } from '../emulator/seed.js';

/**
 * An entry of the bot's catalog of known resources, as its store takes them (the same shape, written
 * out here: the stand-ins share nothing but `wire/` with the bot).
 */
export interface DemoCatalogEntry {
  kind: 'workspace' | 'model' | 'assessment' | 'datastream' | 'signal' | 'dataspec';
  id: string;
  name: string;
  source: 'service';
  links?: { workspace?: string; assessment?: string };
}

/**
 * The emulator's demo resources as the bot's catalog would know them had someone looked each one up:
 * so that in the sandbox the forms' type-ahead fields and names in commands work from the first visit.
 */
export function demoCatalog(): DemoCatalogEntry[] {
  const r = seedRecords();
  const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
  const entry = (
    kind: DemoCatalogEntry['kind'],
    rec: { id: string; name?: unknown },
    links?: DemoCatalogEntry['links'],
  ): DemoCatalogEntry => ({
    kind,
    id: rec.id,
    name: str(rec.name) ?? rec.id,
    source: 'service',
    ...(links ? { links } : {}),
  });
  return [
    ...r.workspaces.map((w) => entry('workspace', w)),
    ...r.datastreams.map((d) => entry('datastream', d)),
    ...r.signals.map((s) => entry('signal', s)),
    ...r.assessments.map((a) => entry('assessment', a)),
    ...r.models.map((m) => {
      const workspace = str(m.workspace);
      const assessment = str(m.assessment);
      return entry('model', m, {
        ...(workspace ? { workspace } : {}),
        ...(assessment ? { assessment } : {}),
      });
    }),
    ...r.dataspecs.map((d) => entry('dataspec', d)),
  ];
}
