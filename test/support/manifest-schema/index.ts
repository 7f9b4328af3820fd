import { readFileSync } from 'node:fs';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';

/**
 * What Slack would refuse in an app manifest, by Slack's own published JSON schemas (README.md beside this
 * file). The schemas are draft-07, so ajv's default class reads them; `strict: false` because they carry
 * keywords of their own (`regex`, `_note`) that ajv does not know and Slack's validator ignores.
 */

type Json = Record<string, unknown>;

const read = (path: string) =>
  JSON.parse(readFileSync(new URL(path, import.meta.url), 'utf8')) as Json & { oneOf?: Json[] };

const ajv = new Ajv({ allErrors: true, strict: false });
ajv.addFormat('uri', (s: string) => URL.canParse(s));

const BY_MAJOR: Record<number, ValidateFunction> = {
  1: ajv.compile(read('./schemas/manifest.schema.1.0.0.json')),
  2: ajv.compile(read('./schemas/manifest.schema.2.0.0.json')),
};

// The top-level schema picks a version by `_metadata.major_version` through `$ref`s to the versioned
// files at their published addresses; those addresses are answered by the copies here, so nothing is
// fetched.
const TOP = read('./manifest.schema.json');
for (const branch of TOP.oneOf ?? []) {
  const ref = ((branch.allOf as Json[] | undefined) ?? []).map((s) => s.$ref).find(Boolean) as string;
  const file = ref.slice(ref.lastIndexOf('/') + 1);
  if (!ajv.getSchema(ref)) ajv.addSchema(read(`./schemas/${file}`), ref);
}
const ANY_VERSION = ajv.compile(TOP);

/** The major version a manifest declares, as Slack reads it: none declared is version 1. */
export function declaredMajor(manifest: Json): number {
  const meta = manifest._metadata as Json | undefined;
  return typeof meta?.major_version === 'number' ? meta.major_version : 1;
}

function describe(errors: ErrorObject[] | null | undefined): string[] {
  return (errors ?? []).map((e) => {
    const extra =
      e.keyword === 'additionalProperties'
        ? ` (${String(e.params.additionalProperty)})`
        : e.keyword === 'required'
          ? ` (${String(e.params.missingProperty)})`
          : '';
    return `${e.instancePath || '/'}: ${e.message ?? e.keyword}${extra}`;
  });
}

/**
 * Every reason Slack's schema gives to refuse `manifest`, checked against the schema of the major version
 * it declares (each error where it is), and against the all-versions schema Slack publishes as its entry
 * point; empty when Slack's schema accepts it.
 */
export function manifestProblems(manifest: Json): string[] {
  const major = declaredMajor(manifest);
  const own = BY_MAJOR[major];
  if (!own) return [`/_metadata/major_version: Slack publishes no schema for major version ${major}`];
  if (!own(manifest)) return describe(own.errors);
  if (!ANY_VERSION(manifest))
    return [`/: refused by manifest.schema.json (${describe(ANY_VERSION.errors).join('; ')})`];
  return [];
}
