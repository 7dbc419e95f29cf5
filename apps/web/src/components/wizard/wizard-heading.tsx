import { useEffect, useRef } from 'react';

interface WizardHeadingProps {
  title: string;
  /** The current step, counted from 0. */
  step: number;
  stepCount: number;
  stepTitle: string;
}

/**
 * A wizard's page title, 'Step n of N' and the step's heading. When the step changes, focus
 * moves to its heading so screen readers announce it (activation and recovery wizards).
 */
export function WizardHeading({ title, step, stepCount, stepTitle }: WizardHeadingProps) {
  const headingRef = useRef<HTMLHeadingElement>(null);
  const isFirstStep = useRef(true);
  useEffect(() => {
    if (isFirstStep.current) {
      isFirstStep.current = false;
      return;
    }
    headingRef.current?.focus();
  }, [step]);
  return (
    <>
      <h1 className="page-title">{title}</h1>
      <p className="text-body-secondary mb-1">
        Step {step + 1} of {stepCount}
      </p>
      <h2 ref={headingRef} tabIndex={-1} className="h4 mb-3">
        {stepTitle}
      </h2>
    </>
  );
}
