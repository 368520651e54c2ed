import * as contract from '@saljportalen/contract';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { compileResponseSchema, responseSerializerCompiler } from './response-serializer.js';

const route = (schema: unknown) => ({ schema, method: 'GET', url: '/api/test', httpStatus: '200' }) as never;

const Summary = z.object({
  user: z.object({ id: z.number().int(), name: z.string(), role: z.enum(['seller', 'admin']).nullable() }),
  total: z.number(),
  link: z.string().nullable(),
});

describe('the response writer', () => {
  it('compiles every response schema of the contract', () => {
    const schemas = Object.entries(contract).filter(([name]) => name.endsWith('ResponseSchema'));
    expect(schemas.length).toBeGreaterThan(30);
    for (const [name, schema] of schemas) expect(compileResponseSchema(schema), name).not.toBeNull();
  });

  it('writes only the fields the schema names, as zod and JSON.stringify would', () => {
    const write = responseSerializerCompiler({ checkWithZod: false })(route(Summary));
    const answer = { user: { id: 7, name: 'Åsa "Ö" \n', role: null, email: 'hemlig@example.se' }, total: 12.5, link: null, token: 'x' };
    expect(write(answer)).toBe(JSON.stringify({ user: { id: 7, name: 'Åsa "Ö" \n', role: null }, total: 12.5, link: null }));
  });

  it('outside production, refuses an answer the contract refuses', () => {
    const write = responseSerializerCompiler({ checkWithZod: true })(route(Summary));
    expect(() => write({ user: { id: 7.5, name: 'Åsa', role: null }, total: 1, link: null })).toThrow();
    expect(() => write({ user: { id: 7, name: 'Åsa', role: 'rektor' }, total: 1, link: null })).toThrow();
    expect(write({ user: { id: 7, name: 'Åsa', role: 'admin' }, total: 1, link: 'https://x.se' })).toBe(
      '{"user":{"id":7,"name":"Åsa","role":"admin"},"total":1,"link":"https://x.se"}',
    );
  });

  it('outside production, refuses an answer the compiled writer would write otherwise than zod', () => {
    // zod trims as it writes; JSON Schema has no word for it, so the compiled writer does not.
    const write = responseSerializerCompiler({ checkWithZod: true })(route(z.object({ name: z.string().trim() })));
    expect(() => write({ name: ' Åsa ' })).toThrow(/fast-json-stringify skrev \{"name":" Åsa "\}, zod \{"name":"Åsa"\}/);
    expect(write({ name: 'Åsa' })).toBe('{"name":"Åsa"}');
  });

  it('leaves to zod what JSON Schema cannot say', () => {
    const custom = z.object({ code: z.custom<string>((value) => typeof value === 'string' && /^[A-Z]{6}$/.test(value)) });
    expect(compileResponseSchema(custom)).toBeNull();
    const write = responseSerializerCompiler({ checkWithZod: false })(route(custom));
    expect(write({ code: 'ABCDEF', extra: 1 })).toBe('{"code":"ABCDEF"}');
    expect(() => write({ code: 'abc' })).toThrow();
  });
});
