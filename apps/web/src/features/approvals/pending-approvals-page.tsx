import { useState } from 'react';
import Spinner from 'react-bootstrap/Spinner';
import { approvalMessages } from '@pra/contracts/approvals';
import { DataTable } from '../../components/data-table/data-table';
import { useServerTable } from '../../components/data-table/use-server-table';
import { queryKeys } from '../../lib/query-keys';
import { ApprovalDetails } from './approval-details';
import { approvalPersonName } from './approval-person';
import { approvalColumns } from './approval-columns';
import { DecisionModal } from './decision-modal';
import {
  fetchPendingApprovalsPage,
  useDecideApproval,
  type DecisionSelection,
} from './use-pending-approvals';

/** Spec section 9: approvals page size. */
const APPROVALS_PAGE_SIZE = 5;

/** Approvals and Provisioning (/brm/pending-approvals): approve or reject requests of one's organizations. */
export function PendingApprovalsPage() {
  const [pending, setPending] = useState<DecisionSelection>();
  const [isModalShown, setIsModalShown] = useState(false);

  // The server filters, sorts and pages (thousands of requests may be pending).
  const approvals = useServerTable({
    queryKey: queryKeys.pendingApprovalsList,
    fetchPage: fetchPendingApprovalsPage,
    columns: approvalColumns((item, decision) => {
      setPending({ item, decision });
      setIsModalShown(true);
    }),
    pageSize: APPROVALS_PAGE_SIZE,
  });
  const table = approvals.table;

  const decide = useDecideApproval(() => {
    setIsModalShown(false);
    table.setPage(1);
  });

  return (
    <>
      <h1 className="page-title">Approvals and Provisioning</h1>
      <p>Approve or deny new user and access requests for your organizations.</p>
      {approvals.isPending ? (
        <p role="status">
          <Spinner as="span" animation="border" size="sm" className="me-2" aria-hidden="true" />
          Loading approval tasks…
        </p>
      ) : (
        <DataTable
          table={table}
          caption="Approval tasks"
          filterLabel="Filter by name, email or organization"
          emptyText={approvalMessages.empty}
          getRowKey={(item) => `${item.requestId}/${item.workItemId}`}
          renderDetails={(item) => <ApprovalDetails item={item} />}
          detailsLabel={(item) => `Details for ${approvalPersonName(item)}`}
        />
      )}
      <DecisionModal
        show={isModalShown}
        decision={pending?.decision}
        item={pending?.item}
        isSubmitting={decide.isPending}
        onCancel={() => setIsModalShown(false)}
        onConfirm={(comment, accessEndsOn) => decide.mutate({ selection: pending, comment, accessEndsOn })}
      />
    </>
  );
}
