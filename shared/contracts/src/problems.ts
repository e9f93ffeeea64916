/**
 * Extension members of problem documents (DESIGN §2 "Errors"), by error code. The gateway renders them
 * through these schemas, so decimals inside a problem are JSON numbers like everywhere else.
 */

import { z } from './primitives.js';
import { OperationCanceledProblem } from './warehouse/issue-cards.contract.js';

/** Error code → schema of the problem's extension members. */
export const problemExtensions: Readonly<Record<string, z.ZodType>> = {
  OperationCanceledException: OperationCanceledProblem,
  /** Issue #35: the company's access point answered with an error (`POST /1.6/company/access-point/test`). */
  AccessPointError: z.object({
    providerCode: z.string(),
    category: z.string(),
    retryable: z.boolean(),
    httpStatus: z.number().int(),
  }),
};
