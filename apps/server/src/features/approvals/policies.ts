/** Who decides: an admin decides everything, a BRM the items of the organizations it manages. */
export interface Decider {
  isAdmin: boolean;
  isEmployeeBrm: boolean;
  managedOrganizationIds: ReadonlySet<string>;
}

/** A request item, as far as the decision rule cares. */
export interface DecidableItem {
  organizationId: string;
}

/** Whether the person may approve or reject the item. Checked by the server, whatever the UI shows. */
export function canDecide(actor: Decider, item: DecidableItem): boolean {
  if (actor.isAdmin) return true;
  return actor.isEmployeeBrm && actor.managedOrganizationIds.has(item.organizationId);
}
