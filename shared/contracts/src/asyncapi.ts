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
import { ownerOf, requestContracts } from './catalogue.js';
import { Headers } from './contract.js';
import {
  CONSUMING_SERVICES,
  DeadLetterHeaders,
  deadLetterSubject,
  EVENT_CONTRACTS,
  EVENT_VERSION_HEADER,
} from './events.js';
import { EVENTS_BUCKET, EVENTS_STREAM_NAME, MESSAGES_BUCKET } from './permissions.js';
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

type Json = Record<string, unknown>;

/** A draft-07 JSON Schema of `schema` as it travels: requests as the sender writes them, replies as parsed. */
function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): Json {
  const { $schema: _, ...rest } = toJSONSchema(schema, {
    target: 'draft-7',
    io,
    unrepresentable: 'any',
  }) as Json;
  return rest;
}

const str = (description: string, extra: Json = {}): Json => ({ type: 'string', description, ...extra });

const LARGE_PAYLOAD = `Name of the object in the JetStream object store that holds a payload above the server's message limit (the message body is then empty): bucket \`${MESSAGES_BUCKET}\` for requests and replies`;

const BATCH_FRAMES =
  "Each frame is a 4-byte big-endian length, a JSON object of the headers that message would carry alone (a refused request's `Nats-Service-Error-Code` and `Nats-Service-Error` among them), a 4-byte big-endian length and the body.";
const BATCH = `Set when the message carries several requests to this subject as frames (request coalescing, issue #24): their number. The body is then the frames, one per request; the per-request headers above travel in each frame, not on the message. ${BATCH_FRAMES} A message marked so that is not well-formed frames is refused whole (400 BadRequest). Without this header the body is one request.`;

/** Headers every request carries (DESIGN §1 "Every message carries headers"). */
const requestHeaders: Json = {
  type: 'object',
  properties: {
    [Headers.companyId]: str(
      'The company the request acts for (GUID); the service scopes every read and write to it',
      {
        format: 'uuid',
      },
    ),
    [Headers.userId]: str('The authenticated user (API user of the company)'),
    [Headers.requestId]: str('Correlation id of the HTTP request; echoed in logs and problem documents'),
    [Headers.timeZone]: str('The company\'s IANA time zone, for its "today" (e.g. Europe/Bratislava)'),
    [Headers.timeoutMs]: str(
      'Milliseconds left for the request when it was sent (decimal integer); the service stores nothing past it and answers 504',
      { pattern: '^[0-9]+$' },
    ),
    [Headers.traceparent]: str(
      `W3C trace context of the sender's span: the service continues its trace (00-<trace id>-<span id>-<flags>), present while tracing is on (docs/operations.md "Traces")`,
      { pattern: '^[0-9a-f]{2}-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}$' },
    ),
    'Payload-Object': str(LARGE_PAYLOAD),
    [Headers.batchSize]: str(BATCH, { pattern: '^[0-9]+$' }),
  },
};

const replyHeaders: Json = {
  type: 'object',
  properties: {
    [Headers.instance]: str('Id of the service replica that answered'),
    'Payload-Object': str(LARGE_PAYLOAD),
    [Headers.batchSize]: str(
      `On the reply to a batch: the number of frames, one per request in the same order. ${BATCH_FRAMES}`,
      {
        pattern: '^[0-9]+$',
      },
    ),
  },
};

const errorHeaders: Json = {
  type: 'object',
  required: ['Nats-Service-Error-Code', 'Nats-Service-Error'],
  properties: {
    'Nats-Service-Error-Code': str('HTTP-like status of the error (400, 404, 409, 422, 429, 503, 504, …)', {
      pattern: '^[0-9]{3}$',
    }),
    'Nats-Service-Error': str('The error code, as in the body'),
    [Headers.instance]: str('Id of the service replica that answered'),
  },
};

const eventHeaders: Json = {
  type: 'object',
  required: ['Nats-Msg-Id', EVENT_VERSION_HEADER, Headers.companyId],
  properties: {
    'Nats-Msg-Id': str(
      `The event id (equals the payload's \`eventId\`): the stream drops a duplicate publish within 2 minutes`,
      { format: 'uuid' },
    ),
    [EVENT_VERSION_HEADER]: str(
      'Major version of the payload schema (decimal integer); see "Event versions" in docs/decisions.md',
      { pattern: '^[0-9]+$' },
    ),
    [Headers.companyId]: str('The company the event belongs to (GUID)', { format: 'uuid' }),
    [Headers.traceparent]: str(
      `W3C trace context of the request that wrote the event: its consumers continue that trace (00-<trace id>-<span id>-<flags>), present while tracing is on (docs/operations.md "Traces")`,
      { pattern: '^[0-9a-f]{2}-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}$' },
    ),
    'Payload-Object': str(
      `Set when the payload was above the server's message limit: the object in bucket \`${EVENTS_BUCKET}\` that holds it (the message body is then empty)`,
    ),
    'Payload-Bucket': str(`The object store bucket of \`Payload-Object\` (\`${EVENTS_BUCKET}\`)`),
  },
};

const DELIVERY = `Published through the producer's transactional outbox to the JetStream stream \`${EVENTS_STREAM_NAME}\` (subjects \`events.>\`, kept 30 days), with the event id as \`Nats-Msg-Id\`. Delivery is at least once: the same event can arrive again (after a crash between publish and bookkeeping, or a redelivery), so a consumer de-duplicates by \`eventId\`. Order is per subject as published, not across subjects.`;

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
