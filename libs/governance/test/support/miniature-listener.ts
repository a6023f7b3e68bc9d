/**
 * The adapter listener in miniature, for the client's tests: Origin → 403, bearer → 401, JSON → 400,
 * then the service's answer with the status apps/api gives it (its error table and per-type successes)
 * and an approval's `resolve_path`. Test support only: it ships in no build.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { type AddressInfo } from 'node:net';
import { type GovernanceService } from '../../src/service/governance-service.js';
import { type GovernanceResult } from '../../src/service/results.js';
import { wireErrorBody } from '../../src/wire/wire-errors.js';
import { type GovernanceErrorCode } from '../../src/wire/wire-types.js';

export interface Listener {
  readonly url: string;
  readonly seen: IncomingHttpHeaders[];
  readonly paths: string[];
  close(): Promise<void>;
}

/** apps/api/src/errors/error-table.ts for the service's codes. */
const ERROR_STATUS: Readonly<Record<GovernanceErrorCode | 'evidence_key_not_in_policy_allowlist', number>> = {
  invalid_request: 400,
  json_too_deep: 400,
  reserved_metadata_key: 400,
  origin_limit_exceeded: 400,
  tool_baseline_limit: 400,
  resolved_by_required: 400,
  invalid_actual_amount: 400,
  no_spend_rule: 400,
  evidence_key_not_in_policy_allowlist: 400,
  evaluation_unknown: 404,
  evaluation_expired: 404,
  ticket_not_found: 404,
  evaluation_conflict: 409,
  approval_unresolved: 409,
  not_a_native_ticket: 409,
  already_resolved: 409,
  tool_input_too_large: 413,
  metadata_too_large: 413,
  tool_definition_too_large: 413,
  evidence_too_large: 413,
  context_too_large: 413,
  evaluation_backlog_full: 503,
  limit_capacity_exhausted: 503,
  evidence_unavailable: 503,
  sideband_shutting_down: 503,
  session_capacity_exhausted: 503,
};

const SUCCESS_STATUS = {
  Decided: 200,
  Finalized: 201,
  Replayed: 200,
  Resolved: 200,
  Scanned: 200,
  Stored: 201,
  State: 200,
};

function reply(result: GovernanceResult): readonly [number, unknown] {
  if (result.type === 'Error' || result.type === 'Refused')
    return [ERROR_STATUS[result.body.error], wireErrorBody(result.body)];
  const approval = result.type === 'Decided' ? result.body.approval : undefined;
  if (approval === undefined) return [SUCCESS_STATUS[result.type], result.body];
  return [
    200,
    { ...result.body, approval: { ...approval, resolve_path: `/approval/${approval.id}/resolve` } },
  ];
}

export async function serveService(service: GovernanceService, token: string): Promise<Listener> {
  const seen: IncomingHttpHeaders[] = [];
  const paths: string[] = [];
  const server: Server = createServer((req, res) => {
    const send = (status: number, body: unknown): void => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    void (async () => {
      seen.push(req.headers);
      const url = req.url ?? '';
      paths.push(url);
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      if (req.headers.origin !== undefined)
        return send(403, wireErrorBody({ error: 'cross_origin_request' }));
      if (req.headers.authorization !== `Bearer ${token}`)
        return send(401, wireErrorBody({ error: 'unauthorized' }));
      let body: never;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as never;
      } catch {
        return send(400, wireErrorBody({ error: 'invalid_json' }));
      }
      const ticket = /^\/approval\/([^/]+)\/resolve$/.exec(url)?.[1];
      const result =
        url === '/evaluate'
          ? await service.evaluate(body)
          : url === '/audit'
            ? await service.audit(body)
            : url === '/install-scan'
              ? await service.installScan(body)
              : ticket !== undefined
                ? await service.resolveApproval(decodeURIComponent(ticket), body)
                : undefined;
      if (result === undefined) return send(404, { error: 'not_found' });
      send(...reply(result));
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    paths,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
