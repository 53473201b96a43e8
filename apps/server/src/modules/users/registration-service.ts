import {
  type ApproveInput,
  LOGIN_MESSAGES,
  REGISTRATION_MESSAGES,
  type RegisterInput,
  type RegistrationRequest,
  USER_PERMISSIONS,
} from '@sitewatch/contracts';
import type { FastifyRequest } from 'fastify';
import { writeAudit } from '../../platform/audit.ts';
import type { AuthContext } from '../../platform/auth/context.ts';
import { hashPassword, isCommonPassword } from '../../platform/auth/passwords.ts';
import { randomToken, sha256 } from '../../platform/crypto.ts';
import type { Db } from '../../platform/db.ts';
import { badRequest, conflict, forbidden, HttpError, notFound } from '../../platform/errors.ts';
import type { MailSender } from '../../platform/mail.ts';
import type { Clock } from '../../platform/module.ts';
import type { UserAdminService } from './admin-service.ts';
import * as repo from './registration-repository.ts';

const CONFIRM_HOURS = 48;

export interface RegistrationDeps {
  db: Db;
  clock: Clock;
  mail: MailSender;
  admin: UserAdminService;
  /** The tenant's e-mail domain allow-list (customer settings). */
  allowedDomains(tenantId: number): Promise<string[]>;
  verifyCaptcha(tenantId: number, captchaId: string, answer: string): Promise<'ok' | 'expired' | 'wrong'>;
}

const toRequest = (r: repo.RequestRow): RegistrationRequest => ({
  id: r.id,
  username: r.username,
  email: r.email,
  firstname: r.firstname,
  lastname: r.lastname,
  mobile: r.mobile,
  status: r.status,
  createdAt: r.created_at.toISOString(),
  confirmedAt: r.confirmed_at?.toISOString() ?? null,
  decidedAt: r.decided_at?.toISOString() ?? null,
  reason: r.reason,
  userId: r.user_id,
});

/** /register, the e-mail confirmation and the approval list of customer admins. */
export function createRegistrationService(deps: RegistrationDeps) {
  const { db, clock, mail, admin } = deps;
  const need = (auth: AuthContext) => {
    if (!auth.permissions.has(USER_PERMISSIONS.add)) throw forbidden();
  };
  const isUniqueViolation = (error: unknown) => (error as { code?: string }).code === '23505';

  async function pendingOf(auth: AuthContext, id: number) {
    const row = await repo.find(db, auth.tenantId, id);
    if (!row) throw notFound();
    if (row.status !== 'pending') throw conflict(REGISTRATION_MESSAGES.alreadyDecided);
    return row;
  }

  return {
    async register(request: FastifyRequest, tenantId: number, input: RegisterInput, origin: string) {
      const captcha = await deps.verifyCaptcha(tenantId, input.captchaId, input.captcha);
      if (captcha === 'expired') throw badRequest(LOGIN_MESSAGES.captchaVerificationFailed, 'captcha_expired');
      if (captcha === 'wrong') throw badRequest(LOGIN_MESSAGES.invalidCaptcha, 'captcha_wrong');
      const email = input.email.toLowerCase();
      const domain = email.split('@')[1] ?? '';
      const allowed = await deps.allowedDomains(tenantId);
      if (allowed.length > 0 && !allowed.includes(domain)) throw badRequest(REGISTRATION_MESSAGES.domainNotAllowed, 'domain');
      if (isCommonPassword(input.password) || input.password.toLowerCase() === input.username.toLowerCase()) {
        throw badRequest('Password must be at least 8 characters and not a common password', 'weak_password');
      }
      if ((await admin.clashes(tenantId, { ...input, email })) || (await repo.openClash(db, tenantId, input.username, email))) {
        throw conflict(REGISTRATION_MESSAGES.exists);
      }
      const token = randomToken(32);
      try {
        await repo.insertRequest(db, {
          tenant_id: tenantId,
          username: input.username,
          email,
          firstname: input.firstname,
          lastname: input.lastname,
          mobile: input.mobile,
          password_hash: await hashPassword(input.password),
          confirm_token_hash: sha256(token),
          confirm_expires_at: new Date(clock.now().getTime() + CONFIRM_HOURS * 3600_000),
        });
      } catch (error) {
        if (isUniqueViolation(error)) throw conflict(REGISTRATION_MESSAGES.exists);
        throw error;
      }
      await mail.send(tenantId, {
        to: email,
        subject: 'Confirm your e-mail address',
        body: [
          `Hello ${input.firstname},`,
          '',
          'Confirm your e-mail address to send your request to an administrator:',
          `${origin}/email-done?token=${token}`,
          '',
          `The link expires in ${CONFIRM_HOURS} hours.`,
        ].join('\n'),
      });
      await writeAudit(db, request, { tenantId, username: input.username, action: 'registration.request', outcome: 'success' });
      return { message: REGISTRATION_MESSAGES.requested };
    },

    async confirm(request: FastifyRequest, tenantId: number, token: string) {
      const row = await repo.confirm(db, tenantId, sha256(token));
      if (!row) throw new HttpError(400, REGISTRATION_MESSAGES.invalidLink, 'invalid_token');
      await writeAudit(db, request, {
        tenantId,
        action: 'registration.confirm',
        outcome: 'success',
        detail: { object: { type: 'registration', id: row.id } },
      });
      return { message: REGISTRATION_MESSAGES.confirmed };
    },

    async list(auth: AuthContext, q: { status: string; page: number; limit: number }) {
      need(auth);
      const { rows, total } = await repo.list(db, auth.tenantId, q);
      return { contents: rows.map(toRequest), totalCount: total };
    },

    async detail(auth: AuthContext, id: number) {
      need(auth);
      const row = await repo.find(db, auth.tenantId, id);
      if (!row) throw notFound();
      return toRequest(row);
    },

    /** Creates the user with the role, group and sites chosen, in one step with marking the request approved. */
    async approve(request: FastifyRequest, auth: AuthContext, id: number, input: ApproveInput) {
      need(auth);
      const row = await pendingOf(auth, id);
      await admin.createWithHash(
        request,
        auth,
        {
          username: row.username,
          email: row.email,
          firstname: row.firstname,
          lastname: row.lastname,
          mobile: row.mobile,
          userRole: input.userRole,
          groupId: input.groupId,
          assetIds: input.assetIds,
          notificationConfig: { popup: true },
        },
        row.password_hash,
        async (trx, newId) => {
          if (!(await repo.decide(trx, auth.tenantId, id, { status: 'approved', by: auth.userId, userId: newId }))) {
            throw conflict(REGISTRATION_MESSAGES.alreadyDecided);
          }
          await writeAudit(trx, request, {
            tenantId: auth.tenantId,
            userId: auth.userId,
            action: 'registration.approve',
            outcome: 'success',
            detail: { object: { type: 'registration', id }, after: { userId: newId, roles: input.userRole, groupId: input.groupId } },
          });
        },
      );
      await mail.send(auth.tenantId, {
        to: row.email,
        subject: 'Your account is ready',
        body: `Hello ${row.firstname},\n\nYour request was approved. Sign in with the username ${row.username} and the password you chose.`,
      });
      return toRequest((await repo.find(db, auth.tenantId, id)) as repo.RequestRow);
    },

    async reject(request: FastifyRequest, auth: AuthContext, id: number, reason: string) {
      need(auth);
      const row = await pendingOf(auth, id);
      await db.transaction().execute(async (trx) => {
        if (!(await repo.decide(trx, auth.tenantId, id, { status: 'rejected', by: auth.userId, reason }))) {
          throw conflict(REGISTRATION_MESSAGES.alreadyDecided);
        }
        await writeAudit(trx, request, {
          tenantId: auth.tenantId,
          userId: auth.userId,
          action: 'registration.reject',
          outcome: 'success',
          detail: { object: { type: 'registration', id }, after: { reason } },
        });
      });
      await mail.send(auth.tenantId, {
        to: row.email,
        subject: 'Your registration request',
        body: `Hello ${row.firstname},\n\nYour request was not approved: ${reason}`,
      });
      return toRequest((await repo.find(db, auth.tenantId, id)) as repo.RequestRow);
    },
  };
}
export type RegistrationService = ReturnType<typeof createRegistrationService>;
