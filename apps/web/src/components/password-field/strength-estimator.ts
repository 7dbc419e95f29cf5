/** A 0 (very weak) to 4 (strong) estimate of how hard a password is to guess. */
export type StrengthScore = 0 | 1 | 2 | 3 | 4;

export type StrengthEstimator = (password: string, userInputs: string[]) => StrengthScore;

let loading: Promise<StrengthEstimator> | undefined;

/**
 * Loads zxcvbn-ts and its dictionaries on first use only: they weigh hundreds of kilobytes and
 * only the password screens need them, so they stay out of every other page's chunks.
 */
export function loadStrengthEstimator(): Promise<StrengthEstimator> {
  loading ??= Promise.all([import('@zxcvbn-ts/core'), import('@zxcvbn-ts/language-common')]).then(
    ([core, common]) => {
      const zxcvbn = new core.ZxcvbnFactory({
        dictionary: { ...common.dictionary },
        graphs: common.adjacencyGraphs,
      });
      return (password, userInputs) => zxcvbn.check(password, userInputs).score;
    },
  );
  return loading;
}

export const strengthLabels: Record<StrengthScore, string> = {
  0: 'Very weak',
  1: 'Weak',
  2: 'Fair',
  3: 'Good',
  4: 'Strong',
};
