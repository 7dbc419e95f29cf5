import type { ReactElement } from 'react';
import OverlayTrigger from 'react-bootstrap/OverlayTrigger';
import Tooltip from 'react-bootstrap/Tooltip';

/** Spec: tooltips show after 500 ms. They add a description; the child keeps its own visible label. */
const TOOLTIP_DELAY = { show: 500, hide: 0 };

export function WithTooltip({ id, text, children }: { id: string; text: string; children: ReactElement }) {
  return (
    <OverlayTrigger placement="bottom" delay={TOOLTIP_DELAY} overlay={<Tooltip id={id}>{text}</Tooltip>}>
      {children}
    </OverlayTrigger>
  );
}
