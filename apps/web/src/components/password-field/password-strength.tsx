import { useEffect, useState } from 'react';
import { loadStrengthEstimator, strengthLabels, type StrengthScore } from './strength-estimator';

interface Estimate {
  password: string;
  score: StrengthScore;
}

/** Below every rule met the meter shows at most 'Fair': it never praises a password the rules refuse. */
const MAX_SCORE_WITH_UNMET_RULE: StrengthScore = 2;

/** The score shown: the estimate, capped while a rule of the checklist is unmet. */
export function shownScore(estimate: StrengthScore, meetsRules: boolean): StrengthScore {
  return meetsRules ? estimate : (Math.min(estimate, MAX_SCORE_WITH_UNMET_RULE) as StrengthScore);
}

interface PasswordStrengthProps {
  password: string;
  userInputs: string[];
  /** Whether the checklist shows every rule met. */
  meetsRules: boolean;
}

/**
 * An advisory strength meter (zxcvbn). It never blocks a password: only the server's rules decide
 * validity. Names and the username count as guessable words.
 */
export function PasswordStrength({ password, userInputs, meetsRules }: PasswordStrengthProps) {
  const [estimate, setEstimate] = useState<Estimate>();
  const inputsKey = userInputs.join('\n');

  useEffect(() => {
    if (!password) return;
    let isCurrent = true;
    loadStrengthEstimator()
      .then((estimator) => {
        if (isCurrent) setEstimate({ password, score: estimator(password, inputsKey.split('\n')) });
      })
      .catch(() => undefined); // The meter is optional; without it the checklist still guides.
    return () => {
      isCurrent = false;
    };
  }, [password, inputsKey]);

  const estimated = password && estimate?.password === password ? estimate.score : undefined;
  if (estimated === undefined) return null;
  const score = shownScore(estimated, meetsRules);
  const label = strengthLabels[score];
  return (
    <div className="password-strength small mb-2">
      <meter
        className={`password-strength-meter strength-${score}`}
        min={0}
        max={4}
        low={2}
        high={3}
        optimum={4}
        value={score}
        aria-label="Password strength"
        aria-valuetext={label}
      />
      <span className="ms-2">
        Strength: <strong>{label}</strong>
      </span>
    </div>
  );
}
