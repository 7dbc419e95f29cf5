import type { PasswordCheck } from '@pra/contracts';
import { CheckIcon, CrossIcon } from '../icons';

interface PasswordChecklistProps {
  id: string;
  checks: PasswordCheck[];
  /** False before anything is typed: the rules are listed neutrally, not all marked as failed. */
  isStarted: boolean;
}

/** The live list of password rules; each item says "met"/"not met" in text, not only by icon and colour. */
export function PasswordChecklist({ id, checks, isStarted }: PasswordChecklistProps) {
  const unmet = checks.filter((check) => !check.ok).length;
  if (!isStarted) {
    return (
      <div id={id} className="password-checklist">
        <p className="small fw-semibold mb-1">Password requirements</p>
        <ul className="small mb-1 ps-3">
          {checks.map((check) => (
            <li key={check.rule}>{check.message}</li>
          ))}
        </ul>
      </div>
    );
  }
  return (
    <div id={id} className="password-checklist">
      <p className="small fw-semibold mb-1">Password requirements</p>
      <ul className="list-unstyled small mb-1">
        {checks.map((check) => (
          <li key={check.rule} className={check.ok ? 'text-success' : 'text-danger'}>
            {check.ok ? <CheckIcon className="me-1" /> : <CrossIcon className="me-1" />}
            {check.message}
            <span className="visually-hidden">{check.ok ? ' (met)' : ' (not met)'}</span>
          </li>
        ))}
      </ul>
      <p className="visually-hidden" role="status">
        {unmet === 0 ? 'All password requirements met' : `${unmet} password requirements not met`}
      </p>
    </div>
  );
}
