/**
 * Step 2, drift observation: the call's tool definition goes to the baseline store (first sight is the
 * baseline, later ones update current), which also enforces the origin and per-origin tool caps.
 */
import { effectiveAnnotations, type ToolAnnotations } from '../../engine/annotations.js';
import { type ObservedToolDefinition } from '../../drift/observed-tool-definition.js';
import { type BaselineObservation } from '../../stores/tool-baseline-store.js';
import { failure, type Failure } from '../results.js';
import { type ServiceContext } from '../service-context.js';
import { type EvaluateRequest } from '../../wire/wire-types.js';
import { type EvaluationCall } from './evaluation.js';

/** Stores may answer synchronously (the in-memory one does): the caller awaits only a promise. */
export function observeTool(
  context: ServiceContext,
  call: EvaluationCall,
  request: EvaluateRequest,
): BaselineObservation | Promise<BaselineObservation> {
  return context.stores.baselines.observe(
    call.origin,
    call.toolName,
    toolDefinition(request),
    context.limits,
  );
}

/** The refusal a cap the store enforced means on the wire. */
export function observationFailure(observed: Exclude<BaselineObservation, { type: 'Observed' }>): Failure {
  switch (observed.type) {
    case 'OriginLimit':
      return failure({ error: 'origin_limit_exceeded' });
    case 'ToolLimit':
      return failure({ error: 'tool_baseline_limit' });
    case 'DefinitionTooLarge':
      return failure({ error: 'tool_definition_too_large' });
  }
}

function toolDefinition(request: EvaluateRequest): ObservedToolDefinition | undefined {
  const tool = request.tool;
  const definition: Record<string, unknown> = { name: tool.name };
  if (tool.description !== undefined) definition['description'] = tool.description;
  if (tool.input_schema !== undefined) definition['inputSchema'] = tool.input_schema;
  if (tool.output_schema !== undefined) definition['outputSchema'] = tool.output_schema;
  if (tool.title !== undefined) definition['title'] = tool.title;
  if (tool.annotations !== undefined) definition['annotations'] = tool.annotations;
  // The baseline store keeps its own copy when the definition is new or changed.
  return Object.keys(definition).length > 1 ? (definition as unknown as ObservedToolDefinition) : undefined;
}

/** Stored definitions are stable objects (the store copies on change), so their hints are read once. */
const annotationsByDefinition = new WeakMap<ObservedToolDefinition, ToolAnnotations>();

export function annotationsOf(definition: ObservedToolDefinition): ToolAnnotations {
  let annotations = annotationsByDefinition.get(definition);
  if (annotations === undefined) {
    annotations = effectiveAnnotations(definition.annotations);
    annotationsByDefinition.set(definition, annotations);
  }
  return annotations;
}
