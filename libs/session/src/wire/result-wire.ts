/** The wire form of ResultMessage: the value's own fields, with micro-USD (cost, microUsdSpent) as decimal strings. */
import { type ResultMessage } from '../result-message.js';
import { unknownVariant } from './wire-error.js';
import {
  citationToWire,
  costToWire,
  errorToWire,
  readCitation,
  readCost,
  readError,
  readUsage,
  usageToWire,
} from './values-wire.js';
import { type Wire } from './wire-type.js';
import { variantNames, WireObject } from './wire-object.js';

export type ResultMessageWire = Wire<ResultMessage>;

const RESULT_TYPES = variantNames<ResultMessage['type']>({
  Success: true,
  ErrorMaxTurns: true,
  ErrorMaxBudgetUsd: true,
  ErrorMaxWallClock: true,
  ErrorDuringExecution: true,
  ErrorTransientStream: true,
  Refusal: true,
  Cancelled: true,
});

export function resultToWire(result: ResultMessage): ResultMessageWire {
  const base = {
    sessionId: result.sessionId,
    runId: result.runId,
    usage: usageToWire(result.usage),
    cost: costToWire(result.cost),
    durationMs: result.durationMs,
  };
  switch (result.type) {
    case 'Success':
      return {
        type: result.type,
        ...base,
        result: result.result,
        citations: result.citations.map(citationToWire),
      };
    case 'ErrorMaxTurns':
      return { type: result.type, ...base, turnsUsed: result.turnsUsed };
    case 'ErrorMaxBudgetUsd':
      return { type: result.type, ...base, microUsdSpent: result.microUsdSpent.toString() };
    case 'ErrorMaxWallClock':
      return { type: result.type, ...base };
    case 'ErrorDuringExecution':
      return { type: result.type, ...base, error: errorToWire(result.error) };
    case 'ErrorTransientStream':
      return {
        type: result.type,
        ...base,
        providerName: result.providerName,
        attemptsMade: result.attemptsMade,
        error: errorToWire(result.error),
      };
    case 'Refusal':
      return { type: result.type, ...base, refusalText: result.refusalText };
    case 'Cancelled':
      return { type: result.type, ...base, reason: result.reason };
    default: {
      const unknown: never = result;
      throw unknownVariant('ResultMessage', unknown);
    }
  }
}

/** Reads a ResultMessage back from its wire form; throws WireFormatError naming the first bad field. */
export function resultFromWire(json: unknown, path = 'result'): ResultMessage {
  const wire = WireObject.at(json, path);
  const type = wire.oneOf('type', RESULT_TYPES);
  const base = {
    sessionId: wire.string('sessionId'),
    runId: wire.string('runId'),
    usage: wire.read('usage', readUsage),
    cost: readCost(wire, 'cost'),
    durationMs: wire.count('durationMs'),
  };
  return Object.freeze(variantFromWire(type, base, wire));
}

type ResultBase = Omit<ResultMessage, 'type'>;

function variantFromWire(type: ResultMessage['type'], base: ResultBase, wire: WireObject): ResultMessage {
  switch (type) {
    case 'Success':
      return {
        type,
        ...base,
        result: wire.string('result'),
        citations: wire.array('citations', readCitation),
      };
    case 'ErrorMaxTurns':
      return { type, ...base, turnsUsed: wire.count('turnsUsed') };
    case 'ErrorMaxBudgetUsd':
      return { type, ...base, microUsdSpent: wire.microUsd('microUsdSpent') };
    case 'ErrorMaxWallClock':
      return { type, ...base };
    case 'ErrorDuringExecution':
      return { type, ...base, error: wire.read('error', readError) };
    case 'ErrorTransientStream':
      return {
        type,
        ...base,
        providerName: wire.string('providerName'),
        attemptsMade: wire.count('attemptsMade'),
        error: wire.read('error', readError),
      };
    case 'Refusal':
      return { type, ...base, refusalText: wire.string('refusalText') };
    case 'Cancelled':
      return { type, ...base, reason: wire.string('reason') };
    default: {
      const unknown: never = type;
      throw unknownVariant('ResultMessage', { type: unknown });
    }
  }
}
