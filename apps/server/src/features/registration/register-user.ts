import { approvalMessages, emailDomain, registrationMessages, type RegistrationBody } from '@pra/contracts';
import type { AppContext } from '../../platform/app-context';
import { AppError } from '../../platform/app-error';
import { isUniqueViolation } from '../../platform/db-errors';
import { isBrmOrAdmin } from '../../store/account-kinds';
import { recordAudit } from '../../identity/audit';
import { routeToDeciders, submission } from '../../identity/deciders';
import { loadActor } from '../../policies/actor';
import * as organizationPolicy from '../../policies/organization';
import { awaitingDecisionMail, mailSite, registrationReceivedMail } from '../../identity/mail-templates';
import { enqueueMail } from '../../identity/outbox';
import { provisionAccount } from '../../identity/provision-account';
import type { Account } from '../../platform/db-schema';
import { emailUse, lockEmail } from '../../identity/email-use';
import { activeOrganizationsForDomain } from '../../store/organizations';
import { insertRegistration } from '../../store/requests';

/** The unique index allowing one pending `New Account` request per email (migration 0001). */
const PENDING_EMAIL_INDEX = 'requests_pending_new_account_email_key';

/**
 * A concurrent duplicate of a pending registration. `lockEmail` already serializes registrations
 * of one address; the index is the backstop should anything insert without that lock.
 */
const isPendingDuplicate = (error: unknown) => isUniqueViolation(error, PENDING_EMAIL_INDEX);

/**
 * A registration. Self-registrations (anonymous, vendors, plain employees) become a pending
 * `New Account` request for the organization's BRMs; a BRM of the organization or an admin
 * registers on the vendor's behalf, so the request is recorded as approved by them and the
 * account is created at once.
 */
export async function registerUser(options: {
  ctx: AppContext;
  caller: Account | null;
  body: RegistrationBody;
  clientAddress: string;
}): Promise<{ requestId: string; expiresAt: Date | null }> {
  const { ctx, caller, body, clientAddress } = options;
  const domain = emailDomain(body.email);
  const organizations = await activeOrganizationsForDomain(ctx.db, domain);
  if (organizations.length === 0) {
    throw new AppError('badRequest', registrationMessages.noOrganizations(domain));
  }
  const organization = organizations.find((o) => o.name.toLowerCase() === body.org.toLowerCase());
  if (!organization) throw new AppError('badRequest', registrationMessages.emailMismatch);

  // Registering on a vendor's behalf approves the registration: managing the organization, as deciding it.
  const onBehalf = caller !== null && isBrmOrAdmin(caller);
  if (
    onBehalf &&
    !organizationPolicy.can(await loadActor(ctx.db, caller), 'manage', { id: organization.id })
  ) {
    await recordAudit(ctx.db, {
      action: 'registration.on-behalf',
      outcome: 'denied',
      actor: { id: caller.id, username: caller.username },
      target: { id: null, username: body.email },
      organizationId: organization.id,
      clientAddress,
      details: { reason: 'notYourOrganization' },
    });
    throw new AppError('forbidden', approvalMessages.notYourOrganization);
  }

  try {
    return await ctx.db.transaction().execute(async (tx) => {
      await lockEmail(tx, body.email);
      const use = await emailUse(tx, body.email);
      if (use === 'activeAccount') {
        throw new AppError(
          'conflict',
          onBehalf ? registrationMessages.emailInUseAdmin : registrationMessages.emailInUse,
        );
      }
      if (use === 'pendingApproval') throw new AppError('conflict', registrationMessages.pending);

      const { now, deadlines } = await submission(tx, ctx, [organization.id]);
      const expiresAt = deadlines.get(organization.id)!;
      const { requestId, itemId } = await insertRegistration(tx, {
        status: onBehalf ? 'approved' : 'pending',
        requesterId: caller?.id ?? null,
        firstName: body.firstName,
        lastName: body.lastName,
        email: body.email,
        comment: onBehalf ? `Registered on the vendor's behalf by ${caller.username}` : 'Self-registration',
        organizationId: organization.id,
        decidedBy: onBehalf ? caller.id : null,
        now,
        expiresAt,
      });
      await recordAudit(tx, {
        action: onBehalf ? 'registration.on-behalf' : 'registration.submit',
        outcome: 'success',
        actor: caller ? { id: caller.id, username: caller.username } : { id: null, username: body.email },
        organizationId: organization.id,
        clientAddress,
        details: { requestId },
      });

      const site = mailSite(ctx);
      if (onBehalf) {
        await provisionAccount(tx, ctx, {
          actor: caller,
          registration: {
            requestId,
            firstName: body.firstName,
            lastName: body.lastName,
            email: body.email,
            jobTitle: '',
            manager: '',
          },
          grants: [{ organizationId: organization.id, requestItemId: itemId }],
          clientAddress,
        });
      } else {
        await enqueueMail(tx, {
          to: body.email,
          ...registrationReceivedMail(site, { firstName: body.firstName, organization: organization.name }),
        });
        const mail = awaitingDecisionMail(site, { ...body, organization: organization.name });
        const deciders = await routeToDeciders(
          tx,
          ctx.config,
          { id: itemId, organizationId: organization.id },
          now,
        );
        for (const to of deciders) await enqueueMail(tx, { to, ...mail });
      }
      return { requestId, expiresAt: onBehalf ? null : expiresAt };
    });
  } catch (error) {
    if (isPendingDuplicate(error)) throw new AppError('conflict', registrationMessages.pending);
    throw error;
  }
}
