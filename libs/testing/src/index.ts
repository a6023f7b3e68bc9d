/**
 * @helios/testing — Test kit: ScriptedModel and local servers that speak providers' wire formats.
 *
 * The public entry of this package: everything other packages may use is exported from here.
 */
export {
  ScriptedModel,
  type ScriptedModelOptions,
  type ScriptedTurn,
  ScriptExhaustedError,
  type TurnOptions,
} from './scripted-model.js';
export {
  parseJsonLinesFixture,
  parseSseFixture,
  type RecordedEvent,
  type RecordedRequest,
  type RecordedResponse,
  type RecordedStreamServer,
  type ResponsePlan,
  serveRecordedStream,
} from './recorded-stream-server.js';
