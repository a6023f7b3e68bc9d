/**
 * POST /install-scan: first-match-wins over `policies.install`; observational (always allow) when the
 * policy has no install block. Always terminal: the record is written now.
 */
import { evaluateMetadataConditions } from '../engine/conditions.js';
import { type CompiledInstallRule } from '../engine/compiled-policy.js';
import { ruleLabel } from '../engine/match-rules.js';
import { normaliseSessionId } from '../engine/decide.js';
import { jsonByteLength } from '../util/canonical-json.js';
import { DEFAULT_ORIGIN } from './evaluate/admit-request.js';
import { buildRecord } from './record-builder.js';
import { failure, type InstallScanResult } from './results.js';
import { appendRecord, nowIso, type ServiceContext } from './service-context.js';
import { type FeedbackBlock, type InstallScanRequest } from '../wire/wire-types.js';

interface InstallVerdict {
  readonly decision: 'allow' | 'deny';
  readonly reason: string;
  readonly rule: CompiledInstallRule | undefined;
}

export async function installScan(
  context: ServiceContext,
  request: InstallScanRequest,
): Promise<InstallScanResult> {
  const metadata = request.metadata ?? null;
  if (metadata !== null && Object.hasOwn(metadata, 'agent_id')) {
    return failure({ error: 'reserved_metadata_key', key: 'agent_id' });
  }
  if (jsonByteLength(metadata ?? {}) > context.limits.maxMetadataBytes)
    return failure({ error: 'metadata_too_large' });
  const verdict = judge(context, request, metadata);
  const evaluationId = context.newId();
  const auditRecordId = context.newId();
  const timestampIso = nowIso(context);
  const origin = request.origin ?? DEFAULT_ORIGIN;
  const record = buildRecord({
    id: auditRecordId,
    timestampIso,
    createdAtIso: timestampIso,
    environment: context.policy.environment,
    origin,
    agentId: request.agent_id ?? null,
    sessionId: normaliseSessionId(request.session_id) ?? null,
    toolName: `install:${request.package.source ?? 'pkg'}:${request.package.name}`,
    toolInput: structuredClone(request.package),
    metadata: metadata === null ? null : structuredClone(metadata),
    policyDecision: verdict.decision,
    blockReason: verdict.decision === 'deny' ? 'install_denied' : null,
    matchedRule: verdict.rule?.name ?? null,
    matchedRuleIndex: verdict.rule?.index ?? null,
    evidenceChain: null,
    flaggedDestructive: false,
    dryRun: false,
    recordKind: 'install_scan',
  });
  await appendRecord(context, record);
  await context.stores.pending.remember({
    evaluationId,
    auditRecordId,
    finalizedBy: 'evaluate',
    payloadHash: null,
    expiresAtMs: context.clock.now() + context.policy.evaluationTtlMs,
    record,
  });
  const feedback: FeedbackBlock | undefined =
    verdict.decision === 'deny'
      ? {
          message: verdict.rule?.feedback?.message ?? verdict.reason,
          ...(verdict.rule?.feedback?.suggestion === undefined
            ? {}
            : { suggestion: verdict.rule.feedback.suggestion }),
        }
      : undefined;
  return {
    type: 'Scanned',
    body: {
      evaluation_id: evaluationId,
      decision: verdict.decision,
      reason: verdict.reason,
      matched_rule: verdict.rule?.name ?? null,
      matched_rule_index: verdict.rule?.index ?? null,
      ...(feedback === undefined ? {} : { feedback }),
    },
  };
}

function judge(
  context: ServiceContext,
  request: InstallScanRequest,
  metadata: Readonly<Record<string, unknown>> | null,
): InstallVerdict {
  const install = context.policy.install;
  if (install === undefined)
    return { decision: 'allow', reason: 'no install-time rules defined', rule: undefined };
  for (const rule of install.rules) {
    if (rule.packageName !== undefined && !rule.packageName(request.package.name)) continue;
    if (rule.source !== undefined && rule.source !== request.package.source) continue;
    const matched = evaluateMetadataConditions(rule.metadata, metadata, request.agent_id);
    if (matched === false) continue;
    // A condition that could not be tested (a value past the regex input bound): fail closed.
    if (matched !== true)
      return {
        decision: 'deny',
        reason: `Denied: ${ruleLabel(rule)} cannot be evaluated (${matched.unevaluable})`,
        rule,
      };
    return {
      decision: rule.action === 'deny_install' ? 'deny' : 'allow',
      reason: `Matched ${ruleLabel(rule)} → ${rule.action}`,
      rule,
    };
  }
  return {
    decision: install.defaultAction,
    reason: `No matching install rule; default ${install.defaultAction}`,
    rule: undefined,
  };
}
