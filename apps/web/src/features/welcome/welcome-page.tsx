import Alert from 'react-bootstrap/Alert';
import Col from 'react-bootstrap/Col';
import Row from 'react-bootstrap/Row';
import { fullName } from '@pra/contracts/user-names';
import { actionItems } from '../../lib/action-items';
import { isBrmOrAdmin, isVendor } from '../../lib/account-kinds';
import { AccessEndingAlert } from './access-ending-alert';
import { AupAlert } from './aup-alert';
import { useCurrentUser } from '../../lib/use-current-user';
import { ActionCard } from './action-card';
import { usePendingApprovalsCount } from './use-pending-approvals-count';
import { useReviewsCount, VendorReviewAlert } from './use-reviews-count';

/** The signed-in home: a card for each action the person may take. */
export function WelcomePage() {
  const { data: user } = useCurrentUser();
  const isManager = user !== undefined && isBrmOrAdmin(user);
  const { data: approvals } = usePendingApprovalsCount(isManager && !!user.username && user.iiqAvailable);
  const { data: reviews } = useReviewsCount(isManager && !!user.username);
  const name = user ? fullName(user) : '';

  return (
    <>
      <h1 className="page-title">{name ? `Welcome ${name}` : 'Welcome'}</h1>
      <p className="lead">Manage your profile, request additional access or access applications</p>
      {user && !user.iiqAvailable && (
        <Alert variant="warning">
          {isManager
            ? 'IIQ is currently unavailable'
            : 'Account management features are currently unavailable'}
        </Alert>
      )}
      {user && isVendor(user) && user.iiqAvailable && <AccessEndingAlert username={user.username} />}
      {user?.type === 'vendor' && <VendorReviewAlert />}
      {user?.type === 'vendor' && <AupAlert />}
      {user && (
        <Row xs={1} md={2} className="g-3">
          {actionItems(user).map((item) => (
            <Col key={item.key} md={6}>
              <ActionCard
                item={item}
                // The spec passes the current user along; /new-user itself reads the fetched record.
                state={item.key === 'newUser' ? { currentUser: user } : undefined}
                count={
                  item.key === 'approvals'
                    ? approvals?.count
                    : item.key === 'accessReviews'
                      ? reviews?.undecided
                      : undefined
                }
              />
            </Col>
          ))}
        </Row>
      )}
    </>
  );
}
