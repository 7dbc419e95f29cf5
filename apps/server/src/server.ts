// The portal's entry point (`npm run serve`, production): runs it until SIGTERM or SIGINT.
// `npm start` imports portal.js itself, to create the database while the web app builds.
import { reportStartFailure, runPortal } from './portal';

runPortal().catch(reportStartFailure);
