/** A Messages API citation (document span, page, content block or web result) as core's Citation. */
import { type Citation } from '@helios/core';

export function citationOf(citation: Readonly<Record<string, unknown>>): Citation {
  const text = (name: string): string | undefined =>
    typeof citation[name] === 'string' ? citation[name] : undefined;
  const metadata: Record<string, string> = {};
  for (const [name, value] of Object.entries(citation)) {
    if (name === 'cited_text') continue;
    if (typeof value === 'string' || typeof value === 'number') metadata[name] = String(value);
  }
  const url = text('url');
  const title = text('title') ?? text('document_title');
  const content = text('cited_text');
  return Object.freeze({
    ...(url === undefined ? {} : { sourceId: url, url }),
    ...(title === undefined ? {} : { title }),
    ...(content === undefined ? {} : { content }),
    metadata: Object.freeze(metadata),
  });
}
