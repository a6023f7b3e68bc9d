import type { RuntimeFailure } from '../lib/runtime-api';

// Why a table could not be loaded: the reason (which names HELIOS_API_TOKEN on a 401) and the URL tried.
export function ApiErrorPanel({
  title,
  failure,
  error,
  url,
  testId,
}: {
  readonly title: string;
  readonly failure: RuntimeFailure;
  readonly error: string;
  readonly url: string;
  readonly testId: string;
}) {
  return (
    <section className="card card--error" role="alert" data-testid={testId} data-failure={failure}>
      <h2 className="card-title">{title}</h2>
      <p className="error-text">{error}</p>
      <p className="muted">Tried {url}</p>
    </section>
  );
}
