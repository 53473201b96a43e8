export * from './forms/index.ts';
