import { lazyPage as page } from '../../app/lazy-page.ts';
import type { AppRoute } from '../../app/route-types.ts';
import { i18n } from '../../lib/i18n/index.ts';
import { canVerifyAnalysis, seesAnalysis } from './access.ts';

i18n.addResourceBundle(
  'en',
  'translation',
  { analysis: { images: 'Image Analysis', verification: 'Result Verification', results: 'Result Analysis' } },
  true,
  false,
);

/** SPEC 2.2 /image-analysis, /result-verification, /result-analysis. */
export const analysisRoutes: AppRoute[] = [
  {
    path: '/image-analysis',
    layout: 'main',
    title: 'analysis.images',
    allow: seesAnalysis,
    page: page(() => import('./ImageAnalysisPage.tsx'), 'ImageAnalysisPage'),
  },
  {
    path: '/result-verification',
    layout: 'main',
    title: 'analysis.verification',
    // a verdict may resolve the AI audit ticket: only those who may change tickets give one
    allow: canVerifyAnalysis,
    page: page(() => import('./VerificationPage.tsx'), 'VerificationPage'),
  },
  {
    path: '/result-analysis',
    layout: 'main',
    title: 'analysis.results',
    allow: seesAnalysis,
    page: page(() => import('./ResultAnalysisPage.tsx'), 'ResultAnalysisPage'),
  },
];
