import { allSteps, type StepParameter, type StepParameterType } from '../../core/workflows/steps.js';
import type { ManifestFunction, ManifestParameter, ManifestPart } from '../manifest/part.js';

export type { ManifestFunction, ManifestParameter };

/** Slack's types for what a step's parameters hold. */
const SLACK_TYPE: Record<StepParameterType, string> = {
  text: 'string',
  flag: 'boolean',
  person: 'slack#/types/user_context',
  channel: 'slack#/types/channel_id',
};

function parameters(list: readonly StepParameter[]): ManifestFunction['input_parameters'] {
  const properties: Record<string, ManifestParameter> = {};
  for (const p of list)
    properties[p.name] = {
      type: SLACK_TYPE[p.type],
      title: p.title,
      description: p.description,
      ...(p.hint ? { hint: p.hint } : {}),
    };
  return { properties, required: list.filter((p) => p.required).map((p) => p.name) };
}

/**
 * The workflows feature's part of the manifest: its steps, and the settings without which Workflow
 * Builder does not offer them.
 */
export function workflowsManifest(): ManifestPart {
  return {
    functions: manifestFunctions(),
    settings: {
      set: { org_deploy_enabled: true, function_runtime: 'remote' },
      why:
        "Workflow Builder offers an app's steps only when the app is org-ready (installed at the org level); " +
        "the steps run in this bot (remote), not on Slack's own runtime",
    },
  };
}

/**
 * manifest.yml's `functions`, generated from the steps (themselves read from the registry), in major
 * version 2's form: each parameter under `properties`, the required ones listed in `required`.
 */
export function manifestFunctions(): Record<string, ManifestFunction> {
  return Object.fromEntries(
    allSteps().map((st) => [
      st.callbackId,
      {
        title: st.title,
        description: st.description,
        input_parameters: parameters(st.inputs),
        output_parameters: parameters(st.outputs),
      },
    ]),
  );
}

/**
 * The table of docs/workflows.md: each step, what it takes and what it hands on, from the same steps
 * as the manifest (a test keeps the docs in step).
 */
export function stepsTable(): string {
  const names = (ps: readonly StepParameter[], required: boolean) =>
    ps
      .filter((p) => p.required === required && p.type !== 'person')
      .map((p) => `\`${p.name}\``)
      .join(', ') || '—';
  const rows = allSteps().map((st) => {
    const waits = { flow: 'its flow ends', approval: 'approved and its flow ends', nothing: 'at once' }[
      st.waits
    ];
    const cells = [
      `\`${st.callbackId}\` ${st.title}`,
      names(st.inputs, true),
      names(st.inputs, false),
      st.outputs.map((o) => `\`${o.name}\``).join(', '),
      waits,
    ];
    return `| ${cells.map((c) => c.replaceAll('|', '\\|')).join(' | ')} |`;
  });
  return [
    '| Step | Needs | May take | Hands on | Completes when |',
    '| --- | --- | --- | --- | --- |',
    ...rows,
  ].join('\n');
}
