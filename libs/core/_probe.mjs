import { Ajv2020 } from 'ajv/dist/2020.js';
import { Ajv } from 'ajv';
import Def from 'ajv';
const a = new Ajv2020({ allErrors: true, verbose: true, strict: false });
const show = (v, x) => { v(x); console.log(JSON.stringify(x), JSON.stringify((v.errors??[]).map(e => [e.instancePath, e.schemaPath, e.keyword, e.params, e.message]))); };
show(a.compile({ $defs: { A: { type: 'string' } }, anyOf: [{ $ref: '#/$defs/A' }, { type: 'null' }] }), 1);
const rec = { $defs: { N: { type: 'object', properties: { v: {type:'integer'}, kids: { type: 'array', items: { $ref: '#/$defs/N' } } }, required: ['v'] } }, anyOf: [{ $ref: '#/$defs/N' }, { type: 'null' }] };
show(a.compile(rec), { v: 'x', kids: [{ v: 1 }, {}] });
show(a.compile({ type: 'object', properties: { name: { type: 'string' }, tags: { type: 'array', items: { type: 'string' } } }, required: ['name'], additionalProperties: false }), { tags: [1], other: true });
show(a.compile({ minimum: 6, maximum: 4 }), 5);
show(a.compile({ type: 'string', enum: ['a'] }), 1);
show(a.compile({ type: 'string', minLength: 3, pattern: '^a' }), 'bb');
show(a.compile({ type: 'integer' }), undefined);
show(a.compile({ if: { properties: { k: { const: 1 } } }, then: { required: ['x'] } }), { k: 1 });
show(a.compile({ uniqueItems: true, contains: {type:'string'} }), [1, 1]);
show(a.compile({ propertyNames: { pattern: '^a' } }), { b: 1 });
show(a.compile({ format: 'email' }), 'x');
show(a.compile({ prefixItems: [{type:'string'}], items: false }), ['a', 1]);
show(a.compile({ dependentRequired: { a: ['b'] } }), { a: 1 });
show(a.compile({ type: 'object', unevaluatedProperties: false, properties: {a: {}} }), { a: 1, z: 2 });
console.log(typeof Ajv, typeof Def, typeof Def.default);
try { a.compile({ type: 'strin' }) } catch (e) { console.log('ERR', e.message) }
try { a.compile({ $ref: '#/$defs/X' }) } catch (e) { console.log('ERR', e.message) }
try { a.compile({ minimum: 'x' }) } catch (e) { console.log('ERR', e.message) }
try { a.compile({ pattern: '(' }) } catch (e) { console.log('ERR', e.message) }
console.log(a._cache.size);
