/** The columns of a list of audit events: the audit trail's and the weekly activity review's. */
export function AuditTableHead() {
  return (
    <thead>
      <tr>
        <th scope="col">Time</th>
        <th scope="col">Action</th>
        <th scope="col">Actor</th>
        <th scope="col">Target</th>
        <th scope="col">Organization</th>
        <th scope="col">Details</th>
      </tr>
    </thead>
  );
}
