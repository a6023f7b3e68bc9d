/** A policy file to the policy the engine runs: parse and validate (config/), then compile. */
import { parsePolicyDocument, type LoadPolicyOptions } from '../config/parse-policy.js';
import { compilePolicy, type CompileResult } from './compile-policy.js';

/** Parse, validate and compile in one step; throws the parser's `PolicyConfigError` listing every problem. */
export function loadPolicy(text: string, options: LoadPolicyOptions): CompileResult {
  return compilePolicy(parsePolicyDocument(text, options));
}
