import { useEffect, useRef, useState, type ReactNode, type RefObject } from 'react';

/**
 * The box of a table that may be wider than the screen (a phone). While it is, a line above says
 * so, and the box takes the keyboard's focus under the table's name so that arrow keys scroll it
 * (axe's scrollable-region-focusable: a table of text only has nothing else to focus). While it
 * fits, it is a plain box: no extra tab stop on a desktop.
 */
export function ScrollTable({ label, children }: { label: string; children: ReactNode }) {
  const ref = useRef<HTMLDivElement>(null);
  const isOverflowing = useIsOverflowing(ref);
  return (
    <>
      <ScrollHint isShown={isOverflowing} />
      <div
        className="table-responsive"
        ref={ref}
        {...(isOverflowing && { tabIndex: 0, role: 'region', 'aria-label': label })}
      >
        {children}
      </div>
    </>
  );
}

function useIsOverflowing(ref: RefObject<HTMLElement | null>): boolean {
  const [isOverflowing, setIsOverflowing] = useState(false);
  useEffect(() => {
    const element = ref.current;
    if (!element || typeof ResizeObserver === 'undefined') return;
    const measure = () => setIsOverflowing(element.scrollWidth > element.clientWidth + 1);
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    if (element.firstElementChild) observer.observe(element.firstElementChild);
    return () => observer.disconnect();
  }, [ref]);
  return isOverflowing;
}

/** Says that a table is wider than the screen, so nobody misses the columns off to the side. */
function ScrollHint({ isShown }: { isShown: boolean }) {
  if (!isShown) return null;
  return (
    <p className="small text-body-secondary mb-1 data-table-scroll-hint">
      The table is wider than the screen: scroll it sideways to see every column.{' '}
      <span aria-hidden="true">↔</span>
    </p>
  );
}
