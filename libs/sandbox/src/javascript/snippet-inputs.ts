/**
 * What a JAVASCRIPT or TYPESCRIPT snippet gets of its request's inputs. The sandbox has no process of
 * the snippet's own, so they are exposed to that one execute as read-only globals instead: `args` (an
 * array of strings), `env` (the request's environment only — never the host's, which the sandbox child
 * does not have) and `stdin` (a string; '' when the request gave none). A working directory means
 * nothing without a file system, so a request naming one is refused.
 */
import { type SnippetInputs } from '../child/protocol.js';
import { type ExecutionRequest } from '../execution/execution-types.js';
import { carriesInputs, requestInputsProblem } from '../execution/request-inputs.js';

/** The inputs to expose, undefined when the request carried none, or why the request is refused. */
export function snippetInputs(request: ExecutionRequest): SnippetInputs | undefined | string {
  if (!carriesInputs(request)) return undefined; // the common request
  const problem = requestInputsProblem(request);
  if (problem !== undefined) return problem;
  const { args, environment, stdin, workingDirectory } = request;
  if (workingDirectory !== undefined) {
    return `workingDirectory is not supported for ${request.runtime}: the sandbox has no file system (use args, environment or stdin to pass data in)`;
  }
  return { args: [...(args ?? [])], env: { ...environment }, stdin: stdin ?? '' };
}
