/**
 * Redaction throughput: 100 registered secrets over 1 MiB of text (MB/s), and time per MiB at 1, 4 and
 * 16 MiB to show the scan is linear in text size (ratio ≈ 1), not secrets × text.
 */
import { SecretRegistry } from '../../libs/core/src/index.ts';

const MIB = 1024 * 1024;
const SECRET_COUNT = 100;

/** Deterministic pseudo-random generator so every run scans the same text. */
function generator(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

function secrets(random: () => number): string[] {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-';
  return Array.from({ length: SECRET_COUNT }, (_, i) => {
    let value = `sk_${i}_`;
    while (value.length < 40) value += alphabet[Math.floor(random() * alphabet.length)];
    return value;
  });
}

/** Log-like prose with the secrets sprinkled in (each appears about once per MiB). */
function text(bytes: number, values: readonly string[], random: () => number): string {
  const words = [
    'request',
    'token',
    'user',
    'GET',
    '/v1/sessions',
    'ok',
    'status=200',
    'latency',
    'ms',
    'sk_live',
  ];
  const parts: string[] = [];
  let length = 0;
  let nextSecretAt = MIB / values.length;
  while (length < bytes) {
    const word =
      length >= nextSecretAt
        ? values[Math.floor(random() * values.length)]!
        : words[Math.floor(random() * words.length)]!;
    if (length >= nextSecretAt) nextSecretAt += MIB / values.length;
    parts.push(word, random() < 0.1 ? '\n' : ' ');
    length += word.length + 1;
  }
  return parts.join('').slice(0, bytes);
}

/** Best of `rounds` timings, in milliseconds. */
function time(run: () => void, rounds: number): number {
  let best = Number.POSITIVE_INFINITY;
  for (let i = 0; i < rounds; i += 1) {
    const start = process.hrtime.bigint();
    run();
    best = Math.min(best, Number(process.hrtime.bigint() - start) / 1e6);
  }
  return best;
}

export default async function run(): Promise<{
  metrics: Record<string, number>;
  ratios: Record<string, number>;
}> {
  const random = generator(42);
  const registry = new SecretRegistry();
  const values = secrets(random);
  values.forEach((value, i) => registry.register(`SECRET_${i}`, value));
  const redactor = registry.redactor();

  const timings: Record<number, number> = {};
  let redactedIn1MiB = 0;
  for (const mib of [1, 4, 16]) {
    const input = text(mib * MIB, values, random);
    if (mib === 1) redactedIn1MiB = redactor.redact(input).total;
    redactor.redact(input); // warm-up
    timings[mib] = time(() => redactor.redact(input), mib === 16 ? 3 : 5);
  }
  const ms1 = timings[1]!;
  const ms4 = timings[4]!;
  const ms16 = timings[16]!;
  return {
    metrics: {
      secrets: SECRET_COUNT,
      redactionsPer1MiB: redactedIn1MiB,
      mbPerSecond1MiB: Number((MIB / 1e6 / (ms1 / 1000)).toFixed(1)),
      ms1MiB: Number(ms1.toFixed(2)),
      ms4MiB: Number(ms4.toFixed(2)),
      ms16MiB: Number(ms16.toFixed(2)),
    },
    ratios: {
      msPerMiB4vs1: Number((ms4 / 4 / ms1).toFixed(2)),
      msPerMiB16vs1: Number((ms16 / 16 / ms1).toFixed(2)),
    },
  };
}
