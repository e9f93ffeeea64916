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

/**
 * `reportId` is the report's GUID or its code; `recordId` the record to print; `renderId` (optional) a
 * fresh GUID under which the caller may cancel the render ({@link PRINTOUT_CANCEL_SUBJECT}). 404 for an
 * unknown report or record.
 */
export const renderPrintout = defineContract({
  subject: 'reporting.printouts.render',
  request: z.object({ reportId: z.string().min(1).max(50), recordId: Guid(), renderId: Guid().optional() }),
  reply: z.object({
    objectName: z.string(),
    size: z.number().int(),
    fileName: z.string(),
    contentType: z.literal('application/pdf'),
    pages: z.number().int(),
  }),
});

/**
 * Cancels a render whose client has gone (issue #22): the gateway publishes `{ renderId }` here (core
 * NATS, no reply) when the HTTP client closes the connection or the request times out. Every reporting
 * replica listens (no queue group); the one rendering it stops the render and frees its admission slot
 * at once, a render not started yet is refused when it arrives (ids are remembered for a minute).
 */
export const PRINTOUT_CANCEL_SUBJECT = 'reporting.printouts.cancel';
export const CancelPrintout = z.object({ renderId: Guid() });
export type CancelPrintout = z.infer<typeof CancelPrintout>;
