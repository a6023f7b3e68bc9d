/** The observability tables' entities: annotations and the prompt registry. */
import { AnnotationEntity } from './annotation.entity.js';
import { PromptEntity, PromptLabelEntity } from './prompt.entities.js';

export { AnnotationEntity, type AnnotationRow } from './annotation.entity.js';
export { PromptEntity, PromptLabelEntity, type PromptLabelRow, type PromptRow } from './prompt.entities.js';

export const OBSERVABILITY_ENTITIES = [AnnotationEntity, PromptEntity, PromptLabelEntity] as const;
