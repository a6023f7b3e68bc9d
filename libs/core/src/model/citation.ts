/** A source the model cited, with the span of its answer the citation supports when known. */
export interface Citation {
  readonly sourceId?: string;
  readonly title?: string;
  readonly url?: string;
  readonly content?: string;
  readonly startIndex?: number;
  readonly endIndex?: number;
  readonly metadata: Readonly<Record<string, string>>;
}
