/** The observability tables' entities: annotations, the prompt registry, traces and spans. */
import { AnnotationEntity } from './annotation.entity.js';
import { PromptEntity, PromptLabelEntity } from './prompt.entities.js';
import { SpanEntity, TraceEntity } from './trace.entities.js';

export { AnnotationEntity, type AnnotationRow } from './annotation.entity.js';
export { PromptEntity, PromptLabelEntity, type PromptLabelRow, type PromptRow } from './prompt.entities.js';
export { SpanEntity, TraceEntity, type SpanRow, type TraceRow } from './trace.entities.js';

export const OBSERVABILITY_ENTITIES = [
  AnnotationEntity,
  PromptEntity,
  PromptLabelEntity,
  TraceEntity,
  SpanEntity,
] as const;
