import { ANALYSER_LABELS, type Analyser, VERDICT_LABELS, type Verdict } from '@sitewatch/contracts/analysis';

export const analyserLabel = (a: Analyser) => ANALYSER_LABELS[a];
export const verdictLabel = (v: Verdict | null) => (v ? VERDICT_LABELS[v] : 'Pending');
export const verdictColor = (v: Verdict | null) => (v === 'TRUE_POSITIVE' ? 'error' : v === 'FALSE_POSITIVE' ? 'success' : 'default');
