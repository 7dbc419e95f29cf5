import '../styles/toasts.compiled.css';
import Toast from 'react-bootstrap/Toast';
import ToastContainer from 'react-bootstrap/ToastContainer';
import { dismissAlert, useAlerts } from '../lib/alerts';

/** Spec: alerts auto-hide after 6 seconds. */
const ALERT_HIDE_MS = 6000;

/** The toasts at top right; each hides itself or can be dismissed. */
export function AlertToasts() {
  const alerts = useAlerts();
  return (
    <ToastContainer position="top-end" containerPosition="fixed" className="p-3 alert-toasts">
      {alerts.map((alert) => (
        <Toast
          key={alert.id}
          bg={alert.severity}
          autohide
          delay={ALERT_HIDE_MS}
          onClose={() => dismissAlert(alert.id)}
          role={alert.severity === 'danger' ? 'alert' : 'status'}
        >
          <Toast.Header closeLabel="Dismiss">
            <strong className="me-auto">{alert.severity === 'danger' ? 'Error' : 'Success'}</strong>
          </Toast.Header>
          <Toast.Body className="text-white">{alert.message}</Toast.Body>
        </Toast>
      ))}
    </ToastContainer>
  );
}
