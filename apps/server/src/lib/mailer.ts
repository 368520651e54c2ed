import fs from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import writeFileAtomic from 'write-file-atomic';
import type { FastifyBaseLogger } from 'fastify';
import { withoutAddresses } from './log-redaction.js';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  /** The same mail as HTML, beside the text part (lib/mail-template.ts makes both). */
  html?: string;
  /** The one link a person must follow, logged when mail goes to the outbox folder. */
  link?: string;
}

export interface Mailer {
  /** `outboxId` is the mail's `mail_outbox` row, which names its file in the outbox folder. */
  send(mail: Mail, outboxId?: number): Promise<void>;
}

/** The folder mail is written to without SMTP_URL. */
export const outboxFolder = (dataDir: string) => path.join(dataDir, 'outbox');

/** `2026-11-28T05-31-28-000Z-m0000000042.json`: oldest first by name, and the row it is the copy of. */
const OUTBOX_FILE = /-m(\d+)\.json$/;

/**
 * How the mail sender of the outbox (plugins/mail-outbox.ts) delivers one mail: SMTP when
 * SMTP_URL is set; otherwise each mail is written as JSON to DATA_DIR/outbox and its
 * link is logged, so a demo or a test can follow it (DESIGN D6).
 */
export function createMailer(options: { smtpUrl?: string; from: string; dataDir: string; log: FastifyBaseLogger }): Mailer {
  if (options.smtpUrl) {
    // Bounded, so one attempt ends well within the outbox's lease (plugins/mail-outbox.ts) when
    // the mail server hangs instead of refusing.
    const transport = nodemailer.createTransport({
      url: options.smtpUrl,
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 30_000,
    });
    return {
      async send(mail) {
        await transport.sendMail({ from: options.from, to: mail.to, subject: mail.subject, text: mail.text, html: mail.html });
      },
    };
  }
  const outbox = outboxFolder(options.dataDir);
  return {
    async send(mail, outboxId) {
      await fs.mkdir(outbox, { recursive: true });
      const tail = outboxId === undefined ? Math.random().toString(36).slice(2, 8) : `m${String(outboxId).padStart(10, '0')}`;
      const file = path.join(outbox, `${new Date().toISOString().replace(/[:.]/g, '-')}-${tail}.json`);
      // Written whole, then renamed into place: a reader never sees half a mail.
      await writeFileAtomic(file, JSON.stringify({ from: options.from, ...mail, sentAt: new Date().toISOString() }, null, 2));
      // The address is not logged: the file holds it for whoever runs the server.
      options.log.info({ file, link: mail.link }, `e-post sparad i utkorgen: ${mail.subject}`);
    },
  };
}

/**
 * What to log when a mail could not be sent: the reason, with every address in it blanked out.
 * SMTP servers name the recipient in their refusals, and addresses are never logged.
 */
export function mailFailureForLog(error: unknown): { reason: string; code?: string } {
  const reason = withoutAddresses(error instanceof Error ? error.message : String(error));
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? { reason, code } : { reason };
}

/**
 * Deletes the outbox folder's copies of mail that is gone: each file whose `mail_outbox` row no
 * longer exists (erased with its person, or deleted once sent), and every file older than
 * `olderThan`, whatever wrote it. The folder holds addresses and names: it keeps no more than the
 * table does (issue 28). Returns how many files went.
 */
export async function forgetOutboxFiles(
  dataDir: string,
  options: { existingRows: (ids: number[]) => Promise<Set<number>>; olderThan: Date },
): Promise<number> {
  const outbox = outboxFolder(dataDir);
  let names: string[];
  try {
    names = (await fs.readdir(outbox)).filter((name) => name.endsWith('.json'));
  } catch (error) {
    // No folder (or something else in its place, which the sender reports when it writes): nothing to forget.
    if (['ENOENT', 'ENOTDIR'].includes((error as NodeJS.ErrnoException).code ?? '')) return 0;
    throw error;
  }
  const idOf = (name: string) => {
    const match = OUTBOX_FILE.exec(name);
    return match ? Number(match[1]) : null;
  };
  const ids = names.map(idOf).filter((id): id is number => id !== null);
  const existing = ids.length > 0 ? await options.existingRows(ids) : new Set<number>();
  let removed = 0;
  for (const name of names) {
    const file = path.join(outbox, name);
    const id = idOf(name);
    let gone = id !== null && !existing.has(id);
    if (!gone) {
      const stat = await fs.stat(file).catch(() => null);
      gone = stat !== null && stat.mtime < options.olderThan;
    }
    if (gone) {
      await fs.rm(file, { force: true });
      removed += 1;
    }
  }
  return removed;
}
