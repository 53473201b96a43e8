export * from './api.ts';
export * from './formats.ts';
export * from './template.ts';
export * from './validate.ts';
