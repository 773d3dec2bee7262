import Fastify from 'fastify';
import { SMTPServer } from 'smtp-server';
import { listen, urlHost } from './listen.js';
import { MailStore } from './mail-store.js';
import { mailboxListPage, mailboxMessagePage, notFoundPage } from './mailbox-pages.js';
import { refuseProduction } from './production-guard.js';

export const SMTP_DEFAULTS = {
  port: 4025,
  mailboxPort: 4026,
  capacity: 200,
} as const;

/** Larger mails are refused with SMTP's own 552, as a real server with a size limit does. */
const MAX_MESSAGE_BYTES = 10 * 1024 * 1024;

export interface SmtpServerOptions {
  /** SMTP port; 0 picks a free port. */
  port?: number;
  /** Dev mailbox HTTP port; 0 picks a free port. */
  mailboxPort?: number;
  host?: string;
  /** How many messages to keep; older ones are dropped. */
  capacity?: number;
}

export interface RunningSmtpServer {
  /** `smtp://host:port`, ready for the API's SMTP_URL. */
  url: string;
  /** The dev mailbox: `GET /` page, `GET /api/messages?to=`, `DELETE /api/messages`. */
  mailboxUrl: string;
  close(): Promise<void>;
}

function createSmtp(store: MailStore): SMTPServer {
  const server = new SMTPServer({
    // Local plain-text SMTP like a dev relay: no TLS to negotiate, no login to configure.
    disabledCommands: ['AUTH', 'STARTTLS'],
    authOptional: true,
    size: MAX_MESSAGE_BYTES,
    banner: 'Boat shop dev SMTP: messages stay in memory',
    logger: false,
    // Stopping the dev services should not wait on an idle pooled connection from the API.
    closeTimeout: 1000,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('error', callback);
      stream.on('end', () => {
        if (stream.sizeExceeded) {
          callback(Object.assign(new Error('Message exceeds fixed maximum message size'), { responseCode: 552 }));
          return;
        }
        const recipients = session.envelope.rcptTo.map((recipient) => recipient.address);
        store.receive(Buffer.concat(chunks), recipients).then(
          () => callback(),
          (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
        );
      });
    },
  });
  // A client that goes away mid-session (an API process killed while sending) resets its
  // connection: that ends the session, not the server. Without a listener the error would stop
  // the whole dev-services process, the payment stand-in with it.
  server.on('error', (error: Error & { code?: string }) => {
    if (error.code !== 'ECONNRESET' && error.code !== 'EPIPE') console.warn(`[smtp stand-in] ${error.message}`);
  });
  return server;
}

function createMailbox(store: MailStore) {
  const app = Fastify({ logger: false });

  app.get('/', async (_request, reply) => reply.type('text/html; charset=utf-8').send(mailboxListPage(store.list())));

  app.get<{ Params: { id: string } }>('/messages/:id', async (request, reply) => {
    const message = store.find(request.params.id);
    if (!message) return reply.code(404).type('text/html; charset=utf-8').send(notFoundPage());
    return reply.type('text/html; charset=utf-8').send(mailboxMessagePage(message));
  });

  app.get<{ Params: { id: string; index: string } }>('/messages/:id/attachments/:index', async (request, reply) => {
    const attachment = store.find(request.params.id)?.attachments[Number(request.params.index)];
    if (!attachment) return reply.code(404).type('text/html; charset=utf-8').send(notFoundPage());
    return reply
      .type(attachment.contentType)
      .header('content-disposition', `attachment; filename="${attachment.filename.replace(/["\\\r\n]/g, '_')}"`)
      .send(Buffer.from(attachment.content, 'base64'));
  });

  app.get<{ Querystring: { to?: string } }>(
    '/api/messages',
    { schema: { querystring: { type: 'object', properties: { to: { type: 'string' } } } } },
    async (request) => ({ messages: store.list(request.query.to) }),
  );

  app.delete('/api/messages', async (_request, reply) => {
    store.clear();
    return reply.code(204).send();
  });

  return app;
}

export async function startSmtpServer(options: SmtpServerOptions = {}): Promise<RunningSmtpServer> {
  refuseProduction('The SMTP stand-in');
  const host = options.host ?? '127.0.0.1';
  const store = new MailStore(options.capacity ?? SMTP_DEFAULTS.capacity);

  const smtp = createSmtp(store);
  const smtpPort = await listen(smtp.server, options.port ?? SMTP_DEFAULTS.port, host);

  const mailbox = createMailbox(store);
  try {
    await mailbox.listen({ port: options.mailboxPort ?? SMTP_DEFAULTS.mailboxPort, host });
  } catch (error) {
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
    throw error;
  }
  const mailboxPort = mailbox.server.address();
  if (!mailboxPort || typeof mailboxPort === 'string') throw new Error('The dev mailbox has no TCP port');

  return {
    url: `smtp://${urlHost(host)}:${smtpPort}`,
    mailboxUrl: `http://${urlHost(host)}:${mailboxPort.port}`,
    async close() {
      await Promise.all([new Promise<void>((resolve) => smtp.close(() => resolve())), mailbox.close()]);
    },
  };
}
