import { PasswordField } from '../../components/password-field/password-field';
import type { PasswordPair } from '../../components/password-field/evaluate-password';

interface PasswordStepProps {
  username: string;
  value: PasswordPair;
  onChange: (value: PasswordPair) => void;
  onValidityChange: (isValid: boolean) => void;
}

/** Step 4: the initial password, judged by the server's policy for this account. */
export function PasswordStep({ username, value, onChange, onValidityChange }: PasswordStepProps) {
  return (
    <>
      <p>
        Choose the password for <strong>{username}</strong>.
      </p>
      <PasswordField
        username={username}
        value={value}
        onChange={onChange}
        onValidityChange={onValidityChange}
      />
    </>
  );
}
