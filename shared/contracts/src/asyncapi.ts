/**
 * The AsyncAPI 3.0 document of the message interface (issue #14), generated from the same zod contracts
 * the services validate with and the OpenAPI document is built from: every request/reply subject of
 * {@link requestContracts} with its request, reply and error messages and headers, and every event of
 * {@link EVENT_CONTRACTS} with its payload, stream, de-duplication id and delivery guarantee.
 *
 * Perspective: the document describes the services. `receive` operations are the subjects a service
 * serves (a client sends a request there and gets the reply on its inbox); `send` operations are the
 * events the services publish (a subscriber receives them from the JetStream stream `EVENTS`).
 * Served at `GET /1.6/asyncapi.json` and committed as `docs/asyncapi.json` (`pnpm generate`).
 */
import { ErrorKind, type WireError } from '@bm/errors';
import { toJSONSchema } from 'zod';
import {
  DELIVERY,
  errorHeaders,
  eventHeaders,
  type Json,
  replyHeaders,
  requestHeaders,
  str,
} from './asyncapi-headers.js';
import { ownerOf, requestContracts } from './catalogue.js';
import { Headers } from './contract.js';
import { CONSUMING_SERVICES, DeadLetterHeaders, deadLetterSubject, EVENT_CONTRACTS } from './events.js';
import { EVENTS_STREAM_NAME } from './permissions.js';
import { z } from './primitives.js';

/** The body of an error reply (`Nats-Service-Error-Code` set): the {@link WireError} of `@bm/errors`. */
export const ErrorReply = z.object({
  kind: z.enum(Object.values(ErrorKind) as [ErrorKind, ...ErrorKind[]]),
  code: z.string().describe('Stable error code, e.g. ValidationFailed, NotFound, PeriodClosed (DESIGN §2)'),
  detail: z.string(),
  errors: z
    .array(z.object({ path: z.string(), message: z.string() }))
    .optional()
    .describe('Field errors: `path` is the dotted path of the field in the request'),
  extensions: z.record(z.string(), z.unknown()).optional().describe('Extra members of the problem document'),
  retryAfterSeconds: z.number().int().optional().describe('After how many seconds a retry may succeed'),
});
// The schema describes exactly what services send: a change to WireError that it misses fails the build.
const _wire: z.ZodType<WireError> = ErrorReply;
void _wire;

/** A draft-07 JSON Schema of `schema` as it travels: requests as the sender writes them, replies as parsed. */
function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): Json {
  const { $schema: _, ...rest } = toJSONSchema(schema, {
    target: 'draft-7',
    io,
    unrepresentable: 'any',
  }) as Json;
  return rest;
}

const ref = (path: string) => ({ $ref: `#/${path}` });

/** Channel, message and operation ids must be JSON-pointer safe; subjects already are. */
const id = (subject: string) => subject;

/**
 * Builds the AsyncAPI 3.0 document. `version` is the interface version (`1.6.0`); `server` the NATS
 * address shown to readers (the local `pnpm start` default unless given).
 */
export function buildAsyncApiDocument(opts: { version?: string; server?: string } = {}): Json {
  const channels: Json = {};
  const operations: Json = {};
  const messages: Json = {};

  for (const c of requestContracts()) {
    const cid = id(c.subject);
    const owner = ownerOf(c.subject);
    messages[`${cid}.request`] = {
      name: `${cid}.request`,
      title: `Request of ${c.subject}`,
      headers: requestHeaders,
      correlationId: { location: `$message.header#/${Headers.requestId}` },
      payload: jsonSchema(c.request, 'input'),
    };
    messages[`${cid}.reply`] = {
      name: `${cid}.reply`,
      title: `Reply of ${c.subject}`,
      headers: replyHeaders,
      payload: jsonSchema(c.reply, 'output'),
    };
    channels[cid] = {
      address: c.subject,
      title: c.subject,
      description: `Served by the ${owner} service (queue group \`${owner}\`: replicas share the requests).`,
      messages: { request: ref(`components/messages/${cid}.request`) },
    };
    channels[`${cid}.reply`] = {
      address: null,
      description: `The requester's inbox (the NATS reply subject of the request). An error reply has \`Nats-Service-Error-Code\` set.`,
      messages: {
        reply: ref(`components/messages/${cid}.reply`),
        error: ref('components/messages/ServiceError'),
      },
    };
    operations[cid] = {
      action: 'receive',
      title: c.subject,
      summary: `${owner} answers ${c.subject} (request/reply)`,
      channel: ref(`channels/${cid}`),
      messages: [ref(`channels/${cid}/messages/request`)],
      reply: {
        channel: ref(`channels/${cid}.reply`),
        messages: [ref(`channels/${cid}.reply/messages/reply`), ref(`channels/${cid}.reply/messages/error`)],
      },
    };
  }
  messages.ServiceError = {
    name: 'ServiceError',
    title: 'Error reply',
    summary: 'A refused or failed request: the status and code in headers, the details in the body',
    headers: errorHeaders,
    payload: jsonSchema(ErrorReply, 'output'),
  };

  for (const e of EVENT_CONTRACTS) {
    const cid = id(e.subject);
    messages[cid] = {
      name: cid,
      title: e.subject,
      summary: e.summary,
      description: DELIVERY,
      headers: eventHeaders,
      correlationId: { location: '$message.payload#/eventId' },
      payload: jsonSchema(e.payload, 'output'),
      'x-event-version': e.version,
    };
    channels[cid] = {
      address: e.subject,
      title: e.subject,
      description: `${e.summary} Stream \`${EVENTS_STREAM_NAME}\`; version ${e.version}.`,
      messages: { event: ref(`components/messages/${cid}`) },
      'x-stream': EVENTS_STREAM_NAME,
    };
    operations[cid] = {
      action: 'send',
      title: e.subject,
      summary: `${e.producer} publishes ${e.subject}`,
      description: DELIVERY,
      channel: ref(`channels/${cid}`),
      messages: [ref(`channels/${cid}/messages/event`)],
      'x-producer': e.producer,
      'x-delivery': 'at-least-once; de-duplicate by eventId',
    };
  }

  for (const service of CONSUMING_SERVICES) {
    const subject = deadLetterSubject(service);
    const cid = id(subject);
    messages[cid] = {
      name: cid,
      title: subject,
      summary: `An event the ${service} service gave up on, with the original body`,
      headers: {
        type: 'object',
        properties: {
          [DeadLetterHeaders.subject]: str('The subject the event was published on'),
          [DeadLetterHeaders.streamSequence]: str(`Its sequence in the stream \`${EVENTS_STREAM_NAME}\``),
          [DeadLetterHeaders.consumer]: str('The durable consumer that gave up'),
          [DeadLetterHeaders.reason]: str(
            'Why (not JSON, not the contract, newer version, or 5 failed deliveries)',
          ),
          [DeadLetterHeaders.deliveries]: str('How many times it was delivered'),
        },
      },
      payload: { description: 'The original event body, unchanged' },
    };
    channels[cid] = {
      address: subject,
      title: subject,
      description: `Dead letters of the ${service} service's consumers (docs/operations.md "Dead letters"). Stream \`${EVENTS_STREAM_NAME}\`.`,
      messages: { deadLetter: ref(`components/messages/${cid}`) },
      'x-stream': EVENTS_STREAM_NAME,
    };
    operations[cid] = {
      action: 'send',
      title: subject,
      summary: `${service} publishes an event it could not handle`,
      channel: ref(`channels/${cid}`),
      messages: [ref(`channels/${cid}/messages/deadLetter`)],
    };
  }

  return {
    asyncapi: '3.0.0',
    info: {
      title: 'Business management message interface',
      version: opts.version ?? '1.6.0',
      description:
        'NATS subjects of the warehouse, invoicing and reporting services: request/reply subjects (JSON bodies, validated with the same contracts as the HTTP interface 1.6) and the events they publish to the JetStream stream `EVENTS`. Each process connects with its own NATS user and may use only the subjects of docs/operations.md.',
    },
    defaultContentType: 'application/json',
    servers: {
      local: {
        host: opts.server ?? '127.0.0.1:4222',
        protocol: 'nats',
        description:
          'The NATS server of `pnpm start` (JetStream on); each client has its own user and password.',
        security: [ref('components/securitySchemes/userPassword')],
      },
    },
    channels,
    operations,
    components: {
      messages,
      securitySchemes: {
        userPassword: {
          type: 'userPassword',
          description: 'A NATS user and password per process (docs/operations.md "Identities").',
        },
      },
    },
  };
}
