import { loneSurrogatePaths, LONE_SURROGATE_MESSAGE } from '@pra/contracts';
import type { FastifySchemaCompiler } from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';

/** Refuses, at each path, every string holding a lone surrogate: one rule for every request. */
const wellFormedText = z.unknown().superRefine((value, ctx) => {
  for (const path of loneSurrogatePaths(value)) {
    ctx.addIssue({ code: 'custom', path, message: LONE_SURROGATE_MESSAGE });
  }
});
const checkWellFormed = validatorCompiler({ schema: wellFormedText, method: '', url: '', httpPart: '' });

/**
 * The zod validator of every route's body, query and params, preceded by the one rule no schema
 * has to repeat: no lone surrogate in any string (it would fail where the value is stored, e.g.
 * an audit event's JSON). The refusal is a validation error like any field's: 400 naming it.
 */
export const portalValidatorCompiler: FastifySchemaCompiler<z.ZodType> = (route) => {
  const validate = validatorCompiler(route);
  return (data) => (loneSurrogatePaths(data).length > 0 ? checkWellFormed(data) : validate(data));
};
