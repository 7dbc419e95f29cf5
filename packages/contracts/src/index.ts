export * from './errors';
export * from './paths';
export * from './session';
export * from './system';
export * from './user';
export * from './approvals-count';
