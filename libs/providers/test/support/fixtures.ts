/** Recorded provider answers from `test/fixtures/<provider>/<scenario>`, ready for the stream server. */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { toolDefinition } from '@helios/core';
import { parseSseFixture, type RecordedEvent, type RecordedResponse } from '@helios/testing';

const FIXTURES = resolve(import.meta.dirname, '..', 'fixtures');

export function fixtureText(provider: string, file: string): string {
  return readFileSync(resolve(FIXTURES, provider, file), 'utf8');
}

export function sseEvents(provider: string, scenario: string): RecordedEvent[] {
  return parseSseFixture(fixtureText(provider, `${scenario}.sse`));
}

/** A 200 event stream replaying the scenario's `.sse` fixture. */
export function sseResponse(provider: string, scenario: string): RecordedResponse {
  return { format: 'sse', events: sseEvents(provider, scenario) };
}

/** A JSON error answer from the scenario's `.json` fixture. */
export function jsonResponse(
  provider: string,
  scenario: string,
  status: number,
  headers: Readonly<Record<string, string>> = {},
): RecordedResponse {
  return { format: 'raw', status, headers, body: fixtureText(provider, `${scenario}.json`) };
}

/** The one client tool the scenarios call: `get_weather(city)`. */
export const WEATHER_TOOL = toolDefinition({
  name: 'get_weather',
  description: 'Current weather for a city',
  inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
});
