import type { FunctionDefinition, WorkflowRunView } from '../../localslack/function-types.js';
import { control } from './api.js';
import { h, paneHeader, replaceChildren } from './dom.js';

/** An input of a step being built: typed, or an output of an earlier step. */
type Given = { kind: 'typed'; value: string } | { kind: 'from'; step: number; output: string };
interface DraftStep {
  callbackId: string;
  inputs: Record<string, Given>;
}

/** Inputs Slack fills itself: the person who runs the workflow. */
const filledBySlack = (type: string) => type === 'slack#/types/user_context';

/** The sandbox's demo data (the emulator's seed): a learn, then a score with what the learn produced. */
const EXAMPLE: DraftStep[] = [
  {
    callbackId: 'tsai_learn',
    inputs: {
      workspace: { kind: 'typed', value: '1030000000000000001' },
      signals: { kind: 'typed', value: '1050000000000000001:temperature' },
      range: { kind: 'typed', value: 'last week' },
      channel: { kind: 'typed', value: 'C0OPS' },
    },
  },
  {
    callbackId: 'tsai_score',
    inputs: {
      model: { kind: 'from', step: 0, output: 'model_id' },
      workspace: { kind: 'from', step: 0, output: 'workspace_id' },
      dataspec: { kind: 'from', step: 0, output: 'dataspec_id' },
      prefix: { kind: 'typed', value: 'pump-scores' },
      channel: { kind: 'typed', value: 'C0OPS' },
    },
  },
];

/**
 * A model's whole life (the demo data's vibration signal, which no demo model assesses): learn it, take
 * it live (an approver decides), backfill what it would have said over past days, stop it (decided too).
 * Each step after the learn takes the learned model, and the backfill its assessment (its signal).
 */
const LIFE: DraftStep[] = [
  {
    callbackId: 'tsai_learn',
    inputs: {
      workspace: { kind: 'typed', value: '1030000000000000001' },
      signals: { kind: 'typed', value: '1050000000000000003:vibration' },
      range: { kind: 'typed', value: 'last week' },
      channel: { kind: 'typed', value: 'C0OPS' },
    },
  },
  {
    callbackId: 'tsai_live_start',
    inputs: {
      model: { kind: 'from', step: 0, output: 'model_id' },
      reason: { kind: 'typed', value: 'the new vibration model goes live' },
      channel: { kind: 'typed', value: 'C0OPS' },
    },
  },
  {
    callbackId: 'tsai_eval',
    inputs: {
      assessment: { kind: 'from', step: 0, output: 'assessment_id' },
      model: { kind: 'from', step: 0, output: 'model_id' },
      datastream: { kind: 'typed', value: '1040000000000000001' },
      entities: { kind: 'typed', value: 'pump-1, pump-2' },
      range: { kind: 'typed', value: 'yesterday' },
      channel: { kind: 'typed', value: 'C0OPS' },
    },
  },
  {
    callbackId: 'tsai_live_stop',
    inputs: {
      model: { kind: 'from', step: 0, output: 'model_id' },
      reason: { kind: 'typed', value: 'backfilled; stopping it' },
      channel: { kind: 'typed', value: 'C0OPS' },
    },
  },
];

const STATE_LABEL: Record<string, string> = {
  'not started': 'not started',
  running: 'waiting…',
  completed: 'completed',
  failed: 'failed',
};

/**
 * "Workflows": Workflow Builder in small. A person builds a workflow of the app's steps (the manifest's
 * functions), each input typed or taken from an earlier step's output, runs it as themselves, and watches
 * each step wait, complete or fail, with what it handed on.
 */
export class WorkflowPanel {
  isOpen = false;
  private functions: Record<string, FunctionDefinition> = {};
  private draft: DraftStep[] = [];
  private runs: WorkflowRunView[] = [];
  private name = 'My workflow';
  private timer: ReturnType<typeof setInterval> | undefined;
  private lastRuns = '';

  constructor(
    private readonly pane: HTMLElement,
    private readonly viewer: () => string,
    private readonly onToggle: () => void,
    private readonly toast: (message: string) => void,
  ) {}

  async toggle(open = !this.isOpen): Promise<void> {
    this.isOpen = open;
    this.pane.classList.toggle('hidden', !open);
    clearInterval(this.timer);
    if (open) {
      const got = (await (await fetch('/_local/functions')).json()) as {
        functions: Record<string, FunctionDefinition>;
      };
      this.functions = got.functions;
      this.lastRuns = '';
      await this.refresh();
      this.timer = setInterval(() => void this.refresh(), 1000);
    }
    this.render();
    this.onToggle();
  }

  private async refresh(): Promise<void> {
    const got = (await (await fetch('/_local/workflows')).json()) as { workflows: WorkflowRunView[] };
    const key = JSON.stringify(got.workflows);
    if (key === this.lastRuns) return;
    this.lastRuns = key;
    this.runs = got.workflows;
    this.renderRuns();
  }

  private render(): void {
    if (!this.isOpen) return;
    replaceChildren(
      this.pane,
      paneHeader('Workflows', ' the app’s steps in Workflow Builder', 'Close', () => void this.toggle(false)),
      h(
        'div',
        { class: 'workflow-builder', 'data-role': 'workflow-builder' },
        h('input', {
          class: 'wf-name',
          'aria-label': 'Workflow name',
          value: this.name,
          oninput: (e: Event) => {
            this.name = (e.target as HTMLInputElement).value;
          },
        }),
        this.draft.map((st, i) => this.stepEditor(st, i)),
        h(
          'div',
          { class: 'wf-actions' },
          h(
            'select',
            { 'aria-label': 'Add a step', 'data-role': 'wf-add', onchange: (e: Event) => this.add(e) },
            h('option', { value: '' }, 'Add a step…'),
            Object.entries(this.functions).map(([id, f]) => h('option', { value: id }, f.title)),
          ),
          h(
            'button',
            {
              type: 'button',
              'data-role': 'wf-example',
              onclick: () => this.example('Learn, then score', EXAMPLE),
            },
            'Example: learn, then score',
          ),
          h(
            'button',
            {
              type: 'button',
              'data-role': 'wf-example-life',
              onclick: () => this.example('A model’s life', LIFE),
            },
            'Example: a model’s life',
          ),
          h(
            'button',
            {
              type: 'button',
              class: 'primary',
              'data-role': 'wf-run',
              disabled: this.draft.length === 0,
              onclick: () => void this.run(),
            },
            'Run workflow',
          ),
        ),
      ),
      h('div', { class: 'workflow-runs', 'data-role': 'workflow-runs' }),
    );
    this.renderRuns();
  }

  private stepEditor(st: DraftStep, i: number): HTMLElement {
    const f = this.functions[st.callbackId];
    const inputs = Object.entries(f?.input_parameters.properties ?? {}).filter(
      ([, p]) => !filledBySlack(p.type),
    );
    const required = new Set(f?.input_parameters.required ?? []);
    return h(
      'fieldset',
      { class: 'wf-step', 'data-step': String(i) },
      h(
        'legend',
        null,
        `${i + 1}. ${f?.title ?? st.callbackId}`,
        h(
          'button',
          { type: 'button', class: 'icon-btn', title: 'Remove this step', onclick: () => this.remove(i) },
          '✕',
        ),
      ),
      inputs.map(([name, p]) => {
        const given = st.inputs[name] ?? { kind: 'typed', value: '' };
        const earlier = this.draft.slice(0, i).flatMap((prev, k) =>
          Object.entries(this.functions[prev.callbackId]?.output_parameters.properties ?? {}).map(
            ([out, o]) => ({
              value: `${k}:${out}`,
              label: `Step ${k + 1}: ${o.title ?? out}`,
            }),
          ),
        );
        return h(
          'label',
          { class: 'wf-input' },
          h('span', null, `${p.title ?? name}${required.has(name) ? ' *' : ''}`),
          earlier.length
            ? h(
                'select',
                {
                  'data-input': name,
                  'data-role': 'wf-source',
                  onchange: (e: Event) => {
                    const v = (e.target as HTMLSelectElement).value;
                    const [k, out] = v.split(':');
                    st.inputs[name] = v
                      ? { kind: 'from', step: Number(k), output: out! }
                      : { kind: 'typed', value: '' };
                    this.render();
                  },
                },
                h('option', { value: '', selected: given.kind === 'typed' }, 'Type a value'),
                earlier.map((o) =>
                  h(
                    'option',
                    {
                      value: o.value,
                      selected: given.kind === 'from' && `${given.step}:${given.output}` === o.value,
                    },
                    o.label,
                  ),
                ),
              )
            : null,
          given.kind === 'typed'
            ? h('input', {
                'data-input': name,
                placeholder: p.hint ?? '',
                value: given.value,
                oninput: (e: Event) => {
                  st.inputs[name] = { kind: 'typed', value: (e.target as HTMLInputElement).value };
                },
              })
            : null,
        );
      }),
    );
  }

  private add(e: Event): void {
    const id = (e.target as HTMLSelectElement).value;
    if (!id) return;
    this.draft.push({ callbackId: id, inputs: {} });
    this.render();
  }

  private remove(i: number): void {
    this.draft.splice(i, 1);
    // Inputs taken from the removed step, or from steps after it, are typed again.
    for (const st of this.draft)
      for (const [name, g] of Object.entries(st.inputs))
        if (g.kind === 'from' && g.step >= i) st.inputs[name] = { kind: 'typed', value: '' };
    this.render();
  }

  private example(name: string, steps: DraftStep[]): void {
    this.name = name;
    this.draft = structuredClone(steps).filter((st) => this.functions[st.callbackId]);
    this.render();
  }

  private async run(): Promise<void> {
    const steps = this.draft.map((st) => ({
      callbackId: st.callbackId,
      inputs: Object.fromEntries(
        Object.entries(st.inputs)
          .filter(([, g]) => g.kind === 'from' || g.value.trim() !== '')
          .map(([name, g]) => [
            name,
            g.kind === 'from' ? { fromStep: g.step, output: g.output } : g.value.trim(),
          ]),
      ),
    }));
    try {
      await control('workflow', { user: this.viewer(), workflow: { name: this.name, steps } });
      await this.refresh();
    } catch (err) {
      this.toast(`The workflow did not start: ${String(err)}`);
    }
  }

  private renderRuns(): void {
    const list = this.pane.querySelector('[data-role="workflow-runs"]');
    if (!list) return;
    replaceChildren(
      list,
      this.runs.length === 0 ? h('div', { class: 'empty' }, 'No workflow has run yet.') : null,
      this.runs.map((run) =>
        h(
          'section',
          { class: ['wf-run', run.state], 'data-run': run.id },
          h(
            'div',
            { class: 'wf-run-head' },
            h('b', null, run.name),
            h('span', { class: 'wf-run-state' }, run.state),
          ),
          h(
            'ol',
            null,
            run.steps.map((st) =>
              h(
                'li',
                { class: ['wf-step-state', st.state], 'data-state': st.state },
                h('span', null, st.title),
                h('span', { class: 'wf-state' }, STATE_LABEL[st.state] ?? st.state),
                st.outputs
                  ? h(
                      'dl',
                      null,
                      Object.entries(st.outputs).map(([k, v]) => [
                        h('dt', null, k),
                        h('dd', null, String(v)),
                      ]),
                    )
                  : null,
                st.error ? h('p', { class: 'wf-error' }, st.error) : null,
              ),
            ),
          ),
        ),
      ),
    );
  }
}
