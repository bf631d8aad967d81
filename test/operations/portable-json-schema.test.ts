import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { portableJsonSchema } from '../../src/operations/portable-tool-schemas.js';

describe('portable tool schemas', () => {
  it('says a nullable field as anyOf and an open object without additionalProperties', () => {
    const schema = z.toJSONSchema(
      z.object({
        assignee: z.string().max(39).nullable().describe('who holds it'),
        details: z.record(z.string(), z.unknown()),
        // A property named like a keyword is a property, not the keyword.
        additionalProperties: z.unknown(),
      }),
      { io: 'output', target: 'draft-7' },
    );
    expect(portableJsonSchema(schema)).toMatchObject({
      properties: {
        assignee: {
          description: 'who holds it',
          anyOf: [{ type: 'string', maxLength: 39 }, { type: 'null' }],
        },
        details: { type: 'object', propertyNames: { type: 'string' } },
        additionalProperties: {},
      },
      additionalProperties: false,
    });
    const details = (portableJsonSchema(schema) as { properties: { details: object } }).properties
      .details;
    expect(details).not.toHaveProperty('additionalProperties');
  });

  it('splits a list of types into one branch each, the type keeping its own keywords', () => {
    const nullable = portableJsonSchema({ type: ['integer', 'null'], minimum: 1 });
    expect(nullable).toEqual({ anyOf: [{ type: 'integer', minimum: 1 }, { type: 'null' }] });
    expect(portableJsonSchema({ type: 'string' })).toEqual({ type: 'string' });
  });
});
