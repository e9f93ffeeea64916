/**
 * Extension members of problem documents (DESIGN §2 "Errors"), by error code. The gateway renders them
 * through these schemas, so decimals inside a problem are JSON numbers like everywhere else.
 */

import type { z } from './primitives.js';
import { OperationCanceledProblem } from './warehouse/documents.contract.js';

/** Error code → schema of the problem's extension members. */
export const problemExtensions: Readonly<Record<string, z.ZodType>> = {
  OperationCanceledException: OperationCanceledProblem,
};
