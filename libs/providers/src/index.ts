/**
 * @helios/providers — Model implementations for Anthropic, OpenAI, Gemini and OpenAI-compatible servers.
 *
 * The public entry of this package: everything other packages may use is exported from here.
 */
export {};
