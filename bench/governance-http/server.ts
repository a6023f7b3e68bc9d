/**
 * One server process for the governance HTTP benchmark: `helios` serves the real adapter listener with
 * the engine (in-memory stores) behind it; `bare` is Fastify with one route that parses the same body
 * and returns a fixed decision. Prints `LISTENING <url>` once ready.
 */
import Fastify from 'fastify';
import type * as GovernanceModule from '@helios/governance';
import type * as HandlerModule from '../../apps/api/src/governance/adapter-handler.ts';
import type * as ListenerModule from '../../apps/api/src/governance/adapter-listener/adapter-listener.ts';

// The built code, as the API runs it (`npm run bench` builds first): run from source through tsx, every
// closure would carry esbuild's name-keeping helper, a cost the product does not have. That holds for the
// engine too: `@helios/governance` would resolve to its sources through the workspace's tsconfig paths.
const {
  GovernanceService,
  loadPolicy,
  MemoryApprovalTicketStore,
  MemoryAuditSink,
  MemoryEvidenceStore,
  MemoryLimitStore,
  MemoryPendingEvaluationStore,
  MemoryToolBaselineStore,
} = (await import(
  new URL('../../libs/governance/dist/index.js', import.meta.url).href
)) as typeof GovernanceModule;
const apiDist = (path: string): string =>
  new URL(`../../apps/api/dist/governance/${path}`, import.meta.url).href;
const { adapterHandler } = (await import(apiDist('adapter-handler.js'))) as typeof HandlerModule;
const { startAdapterListener } = (await import(
  apiDist('adapter-listener/adapter-listener.js')
)) as typeof ListenerModule;

export const TOKEN = 'bench-adapter-token-000000000000000000000001';
export const POLICY = `
version: '1'
sdk: { enabled: true }
policies:
  default: allow
  rules:
    - { name: no-rm, match: { tool: shell, input: { command: { contains: 'rm -rf' } } }, action: deny }
    - { name: reads, match: { tool: "read_*" }, action: allow }
`;

async function helios(): Promise<string> {
  const service = await GovernanceService.create({
    policy: loadPolicy(POLICY, { env: {} }).policy,
    stores: {
      limits: new MemoryLimitStore(),
      pending: new MemoryPendingEvaluationStore(),
      approvals: new MemoryApprovalTicketStore(),
      baselines: new MemoryToolBaselineStore(),
      audit: new MemoryAuditSink(),
      evidence: new MemoryEvidenceStore(),
    },
    // Audits are not sent in this run; a large backlog keeps the comparison about /evaluate alone.
    limits: { maxPendingEvaluations: 10_000_000, maxPendingBytes: 4 * 1024 * 1024 * 1024 },
  });
  const listener = await startAdapterListener({
    host: '127.0.0.1',
    port: 0,
    tokens: { adapter: TOKEN, sdk: `${TOKEN}-sdk` },
    handler: adapterHandler(service),
  });
  return listener.url;
}

async function bare(): Promise<string> {
  const app = Fastify({ logger: false });
  app.post('/evaluate', async () => ({
    evaluation_id: 'fixed',
    decision: 'allow',
    reason: 'fixed',
    matched_rule: null,
    matched_rule_index: null,
  }));
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  return `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
}

/** The adapter listener (Origin check, auth, JSON, schema) with a fixed answer: the transport's own cost. */
async function listenerOnly(): Promise<string> {
  const listener = await startAdapterListener({
    host: '127.0.0.1',
    port: 0,
    tokens: { adapter: TOKEN, sdk: `${TOKEN}-sdk` },
    handler: async () => ({
      status: 200,
      body: {
        evaluation_id: 'fixed',
        decision: 'allow',
        reason: 'fixed',
        matched_rule: null,
        matched_rule_index: null,
      },
    }),
  });
  return listener.url;
}

const mode = process.argv[2];
const url = mode === 'bare' ? await bare() : mode === 'listener' ? await listenerOnly() : await helios();
process.stdout.write(`LISTENING ${url}\n`);
// Exit through process.exit so `--cpu-prof` can write its profile when the benchmark stops us.
process.on('SIGTERM', () => process.exit(0));
