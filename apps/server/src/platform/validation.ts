import { findNul, NUL_MESSAGE } from '@sitewatch/contracts';
import type { FastifySchemaCompiler } from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import type { ZodType } from 'zod';

/** The marker the error handler reads to answer a validation failure as a 400 with field paths. */
const ZOD_VALIDATION_ERROR = Symbol.for('ZodFastifySchemaValidationError');

/**
 * The zod validator of every route, plus the rule no schema can forget: no NUL anywhere in params, query or body
 * (PostgreSQL text cannot hold it, and a `%00` in a query string would otherwise become a 500).
 */
export const safeValidatorCompiler: FastifySchemaCompiler<ZodType> = (route) => {
  const validate = validatorCompiler(route);
  return (data: unknown) => {
    const nul = findNul(data);
    if (nul) {
      const path = `/${nul.join('/')}`;
      return {
        error: [
          {
            [ZOD_VALIDATION_ERROR]: true,
            keyword: 'custom',
            instancePath: path,
            schemaPath: `#${path}/custom`,
            message: NUL_MESSAGE,
            params: {},
          },
        ] as never,
      };
    }
    return validate(data);
  };
};
