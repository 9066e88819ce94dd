import 'i18next';
import type { en } from '../../src-shared/i18n/en.js';

// `t('files.title')` is checked against the English catalog: a key that does not exist, or a missing variable, fails to compile
declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: { translation: typeof en };
  }
}
