/**
 * Step 1, admission: the reserved metadata key and the size caps on arguments and metadata, before
 * anything is stored or decided. What passes becomes the call every later step reads.
 */
import { normaliseSessionId } from '../../engine/decide.js';
import { identityJsonBytes } from '../../util/canonical-json.js';
import { failure, type Failure } from '../results.js';
import { type ServiceContext } from '../service-context.js';
import { type EvaluateRequest } from '../../wire/wire-types.js';
import { type EvaluationCall } from './evaluation.js';

/** The origin of a call that names none. */
export const DEFAULT_ORIGIN = 'sideband';

export function admitRequest(context: ServiceContext, request: EvaluateRequest): Failure | EvaluationCall {
  const { limits, identifiers } = context;
  const origin = identifiers.intern(request.origin ?? DEFAULT_ORIGIN);
  const metadata = request.metadata ?? null;
  if (metadata !== null && Object.hasOwn(metadata, 'agent_id')) {
    return failure({ error: 'reserved_metadata_key', key: 'agent_id' });
  }
  const args = request.arguments;
  // Measured as text, kept as text: parsed again for the stored copies (cheaper than structuredClone).
  const argsJson = JSON.stringify(args ?? {});
  const inputBytes = Buffer.byteLength(argsJson, 'utf8');
  if (inputBytes > limits.maxToolInputBytes) return failure({ error: 'tool_input_too_large' });
  const metadataJson = metadata === null ? '{}' : JSON.stringify(metadata);
  const metadataBytes = Buffer.byteLength(metadataJson, 'utf8');
  if (metadataBytes > limits.maxMetadataBytes) return failure({ error: 'metadata_too_large' });

  const toolName = identifiers.intern(request.tool.name);
  const agentId = request.agent_id ?? null;
  const session = normaliseSessionId(request.session_id);
  const senderId = metadata?.['sender_id'];
  return {
    type: 'Admitted',
    origin,
    toolName,
    args,
    sessionId: session === undefined ? undefined : identifiers.intern(session),
    senderId: typeof senderId === 'string' ? senderId : undefined,
    agentId,
    metadata,
    argsJson,
    metadataJson,
    entryBytes:
      inputBytes + metadataBytes + identityJsonBytes(toolName, agentId, request.session_id ?? null, origin),
  };
}
