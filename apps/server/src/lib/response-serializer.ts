import fastJson from 'fast-json-stringify';
import type { FastifySerializerCompiler } from 'fastify';
import { serializerCompiler as zodSerializerCompiler } from 'fastify-type-provider-zod';
import { z, type ZodType } from 'zod';

type Serialize = (data: unknown) => string;

/**
 * The contract's response schema as fast-json-stringify compiles it, or null where zod's JSON
 * Schema cannot say what the schema does (a transform, a custom check): those stay with zod.
 */
export function compileResponseSchema(schema: unknown): Serialize | null {
  if (!(schema instanceof z.ZodType)) return null;
  let jsonSchema: Record<string, unknown>;
  try {
    jsonSchema = z.toJSONSchema(schema, { io: 'output', target: 'draft-7', unrepresentable: 'throw' }) as Record<string, unknown>;
  } catch {
    return null;
  }
  return fastJson(jsonSchema) as Serialize;
}

/**
 * Every answer leaves the server as its contract's zod schema describes it (DESIGN D2), only the
 * fields the schema names. In production fast-json-stringify writes it from the schema's JSON
 * Schema: zod's check and JSON.stringify cost five times as much, on every call (decision 049).
 * Everywhere else (tests, development) zod checks each answer as before, and the compiled writer's
 * text must be the very same, so it cannot drift from the contract unnoticed.
 */
export function responseSerializerCompiler(options: { checkWithZod: boolean }): FastifySerializerCompiler<ZodType> {
  return (route) => {
    const compiled = compileResponseSchema(route.schema);
    if (compiled && !options.checkWithZod) return compiled;
    const zodSerialize = zodSerializerCompiler(route) as Serialize;
    if (!compiled) return zodSerialize;
    return (data) => {
      const checked = zodSerialize(data);
      const written = compiled(data);
      if (written !== checked) {
        throw new Error(`${route.method} ${route.url}: fast-json-stringify skrev ${written}, zod ${checked}`);
      }
      return written;
    };
  };
}
