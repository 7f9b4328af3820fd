import type {
  CompleteResult,
  StepCompleter,
  StepCompletion,
  StepExecution,
} from '../../core/workflows/runner.js';
import type { Bot } from '../bot.js';
import { slackFailure } from '../slack-errors.js';

/** The execution has ended already: completed before (by this bot, another replica, or a person), or timed out. */
const ENDED = new Set(['execution_not_in_running_state', 'function_execution_not_found']);

/**
 * Completes steps with the app's own bot token, never the execution's: that token lasts 15 minutes (or
 * until the step completes), and a flow can run for hours. The `functions.*` methods need no scope.
 */
export function slackCompleter(root: Bot): StepCompleter {
  return {
    async complete(step: StepExecution, completion: StepCompletion): Promise<CompleteResult> {
      // With the token of the installation the workflow ran in; removed since, nobody can be told.
      const bot = await root.forTeam(step.teamId ?? undefined);
      if (!bot) {
        root.logger.info(
          { execution: step.executionId },
          'the app is no longer installed where this step ran',
        );
        return { kind: 'done' };
      }
      try {
        if (completion.kind === 'success')
          await bot.slack.functions.completeSuccess({
            function_execution_id: step.executionId,
            outputs: completion.outputs,
          });
        else
          await bot.slack.functions.completeError({
            function_execution_id: step.executionId,
            error: completion.error,
          });
        return { kind: 'done' };
      } catch (e) {
        const f = slackFailure(e);
        if (ENDED.has(f.error)) {
          bot.logger.info({ execution: step.executionId, error: f.error }, 'the step had ended already');
          return { kind: 'done' };
        }
        if (f.error === 'parameter_validation_failed' || f.error === 'invalid_arguments')
          return { kind: 'invalid', why: f.error };
        bot.logger.warn(
          { execution: step.executionId, error: f.error },
          'Slack did not take a step completion; trying again later',
        );
        return { kind: 'later', notBefore: Date.now() + (f.retryAfterMs ?? 0) };
      }
    },
  };
}
