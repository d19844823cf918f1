export * from './categories/types';
export * from './categories/registry';
export * from './categories/schemas';
export * from './permissions';
export * from './api';
export * from './paths';
export * from './constants';
export * from './text';
