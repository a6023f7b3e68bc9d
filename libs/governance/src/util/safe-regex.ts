/**
 * Regexes from a policy run against caller-controlled strings on every decision, so a pattern that
 * can backtrack catastrophically is refused at load (safe-regex2's star-height heuristic).
 */
import safeRegex from 'safe-regex2';

export function compileSafeRegex(source: string): RegExp | string {
  let regex: RegExp;
  try {
    regex = new RegExp(source);
  } catch (error) {
    return `invalid regex: ${(error as Error).message}`;
  }
  if (!safeRegex(regex))
    return `regex ${JSON.stringify(source)} is prone to catastrophic backtracking (ReDoS)`;
  return regex;
}
