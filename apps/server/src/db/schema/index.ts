export * from './records';
export * from './media';
export * from './users';
export * from './audit';
export * from './jobs';
export * from './campaign';
export * from './captures';
export * from './duplicates';
