/**
 * Printouts (INTERFACE §4.3 "Get invoice printout"; DESIGN §7): the reporting service renders a record
 * with a report definition and leaves the PDF in the JetStream object store bucket `printouts` (a PDF can
 * be larger than the 1 MB NATS message limit, DESIGN §1); the reply names the object.
 */
import { defineContract } from '../contract.js';
import { Guid, z } from '../primitives.js';

/** Object-store bucket of rendered printouts; objects live at most {@link PRINTOUT_TTL_MS}. */
export const PRINTOUT_BUCKET = 'printouts';
export const PRINTOUT_TTL_MS = 10 * 60 * 1000;

/** `reportId` is the report's GUID or its code; `recordId` the record to print. 404 for an unknown report or record. */
export const renderPrintout = defineContract({
  subject: 'reporting.printouts.render',
  request: z.object({ reportId: z.string().min(1).max(50), recordId: Guid() }),
  reply: z.object({
    objectName: z.string(),
    size: z.number().int(),
    fileName: z.string(),
    contentType: z.literal('application/pdf'),
    pages: z.number().int(),
  }),
});
