import { Ajv2020 } from 'ajv/dist/2020.js';
import { z } from 'zod';
const Node = z.object({ v: z.number(), get kids() { return z.array(Node).optional(); } });
const Addr = z.object({ street: z.string() }).meta({ id: 'Address' });
const samples = {
  basic: z.object({ a: z.string().email(), b: z.number().int().min(0), c: z.enum(['x','y']).nullable(), d: z.string().uuid().optional(), t: z.tuple([z.string(), z.number()]), dt: z.iso.datetime(), rec: z.record(z.string(), z.number()), lit: z.literal('k'), u: z.union([z.string(), z.number()]), di: z.discriminatedUnion('k', [z.object({k: z.literal('a')}), z.object({k: z.literal('b'), n: z.number()})]) }).describe('desc'),
  recursive: Node,
  registered: z.object({ home: Addr.nullable(), work: Addr }),
  meta: z.string().meta({ title: 'T', examples: ['e'], 'x-foo': 1 }),
};
for (const [name, s] of Object.entries(samples)) {
  const js = z.toJSONSchema(s);
  if (name !== 'basic') console.log(name, JSON.stringify(js));
  for (const strict of [true, 'log']) {
    const a = new Ajv2020({ allErrors: true, strict, logger: { log(){}, warn: (m) => console.log('  WARN', strict, m), error: console.error } });
    try { a.compile(js); console.log(name, strict, 'ok'); } catch (e) { console.log(name, strict, 'ERR', e.message); }
  }
}
console.log(JSON.stringify(z.toJSONSchema(samples.basic)));
