import { packageVersion } from '../../disk/package-version.js';
import { mdText } from './markdown-text.js';

/** The paper Parley reproduces, as CITATION.cff lists it. */
export const PAPER_CITATION =
  'Zhou, Su, Eisape, Kim and Sap (2024), "Is this the real life? Is this just fantasy? The Misleading Success of Simulating Social Interactions With LLMs", EMNLP 2024, doi:10.18653/v1/2024.emnlp-main.1208';

/** The report's footer: how to cite the software that made it (its version) and the paper it reproduces. */
export function citeFooter(): string[] {
  return ['## How to cite', '', mdText(`How to cite: Parley ${packageVersion()} (CITATION.cff in Parley's repository), reproducing ${PAPER_CITATION}.`), ''];
}
