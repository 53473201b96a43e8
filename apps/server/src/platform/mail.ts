import type { FastifyBaseLogger } from 'fastify';
import type { Transporter } from 'nodemailer';
import type { Db } from './db.ts';

/** Where the product's e-mails go (set-password links, registration notices). */
export interface MailSender {
  send(tenantId: number, message: { to: string; subject: string; body: string }): Promise<void>;
}

/** The built-in sender: each e-mail is written to the log and kept in an outbox that sysadmins can read. */
export function createOutboxMailSender(db: Db, log: FastifyBaseLogger): MailSender {
  return {
    async send(tenantId, { to, subject, body }) {
      await db.insertInto('mail_outbox').values({ tenant_id: tenantId, to, subject, body }).execute();
      log.info({ tenantId, to, subject }, `Mail to ${to}: ${subject}`);
    },
  };
}

/**
 * Sends through an SMTP server (SMTP_URL, e.g. smtps://user:pass@mail.example.com); the outbox keeps a copy.
 * nodemailer (2 MB of heap) is loaded with the first e-mail.
 */
export function createSmtpMailSender(url: string, from: string, outbox: MailSender): MailSender {
  let transport: Promise<Transporter> | undefined;
  return {
    async send(tenantId, message) {
      await outbox.send(tenantId, message);
      transport ??= import('nodemailer').then(({ createTransport }) => createTransport(url));
      await (await transport).sendMail({ from, to: message.to, subject: message.subject, text: message.body });
    },
  };
}

export function createMailSender(db: Db, log: FastifyBaseLogger, smtp: { url?: string; from: string }): MailSender {
  const outbox = createOutboxMailSender(db, log);
  return smtp.url ? createSmtpMailSender(smtp.url, smtp.from, outbox) : outbox;
}
