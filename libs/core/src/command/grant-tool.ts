/**
 * The Tool a CommandGrant builds. A call is refused, with no process started, when the session's
 * registry is not the grant's (its output would be redacted against the wrong secrets), when the argv
 * fails its checks, or when the grant already runs its maximum of calls. Otherwise the binary runs
 * and the model gets the report: a success for exit 0, a failure (still showing the output) for
 * anything else. Everything the tool returns is redacted with the registry as it is at that moment.
 */
import { type SecretRegistry } from '../secrets/secret-registry.js';
import { defineTool, type Tool, type ToolArguments } from '../tool/tool.js';
import { type ToolContext } from '../tool/tool-context.js';
import { ToolResult } from '../tool/tool-result.js';
import { type ArgValidator, argvRefusal } from './argv-check.js';
import { runCommand } from './command-run.js';
import { reportText } from './grant-report.js';

/** Everything a built grant holds; validated by the builder. */
export interface GrantSettings {
  readonly name: string;
  readonly description: string;
  readonly binaryPath: string;
  readonly registry: SecretRegistry;
  /** Every variable the child gets besides PATH and the call marker, secret or not. */
  readonly variables: ReadonlyMap<string, string>;
  readonly path: string;
  readonly timeoutMs: number;
  readonly maxOutputBytes: number;
  readonly stderrToModel: boolean;
  readonly argValidator: ArgValidator | undefined;
  readonly maxConcurrent: number;
}

export function grantTool(settings: GrantSettings): Tool {
  let running = 0;
  const execute = async (input: ToolArguments, context: ToolContext): Promise<ToolResult> => {
    const args = input['args'] as readonly string[];
    const refusal = callRefusal(settings, args, context) ?? concurrencyRefusal(settings, running);
    if (refusal !== undefined) {
      return ToolResult.failure(
        settings.registry.redactor().redactText(`[${settings.name} refused] ${refusal}`),
      );
    }
    running += 1;
    try {
      return await runGranted(settings, args, context);
    } finally {
      running -= 1;
    }
  };
  return defineTool({
    name: settings.name,
    description: settings.description,
    parameters: [
      {
        name: 'args',
        type: 'array',
        required: true,
        description:
          'The arguments after the program name, one string per argv entry (no shell: quotes, globs and pipes are not interpreted).',
        items: { name: 'arg', type: 'string' },
      },
    ],
    execute,
  });
}

function callRefusal(
  settings: GrantSettings,
  args: readonly string[],
  context: ToolContext,
): string | undefined {
  if (context.sessionContext.secrets !== settings.registry) {
    return "the session's SecretRegistry is not the one this grant was built with, so its output could not be redacted; build the grant with the session's registry";
  }
  return argvRefusal(args, settings.registry.redactor(), settings.argValidator);
}

function concurrencyRefusal(settings: GrantSettings, running: number): string | undefined {
  return running < settings.maxConcurrent
    ? undefined
    : `${running} calls are already running, the grant's maximum; try again when one has finished`;
}

async function runGranted(
  settings: GrantSettings,
  args: readonly string[],
  context: ToolContext,
): Promise<ToolResult> {
  const outcome = await runCommand({
    binaryPath: settings.binaryPath,
    args,
    path: settings.path,
    variables: settings.variables,
    timeoutMs: settings.timeoutMs,
    maxOutputBytes: settings.maxOutputBytes,
    keepStderr: settings.stderrToModel,
    signal: context.signal,
  });
  const text = reportText(outcome, settings, settings.registry.redactor());
  const succeeded = outcome.end.type === 'Exited' && outcome.end.code === 0;
  return succeeded ? ToolResult.success(text) : ToolResult.failure(text);
}
