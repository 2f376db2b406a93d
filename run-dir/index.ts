/**
 * The run directory (`runs/<run-id>/`): its layout, its files' formats, their readers and writers, and the
 * lock every writer takes — by type: each writer's first argument is the `RunLock`. Shared by the
 * orchestrator (which writes a run) and the evaluator (which reads and annotates one); it imports neither
 * (test/boundaries/rules.ts).
 */
export { RUN_DIR_NAMES, RunPaths } from './paths.js';
export { CASSETTES_DIR, cassettePath, cassetteRoot, policyCassettes, type Tape } from './cassette-layout.js';
export { RUN_JSON_VERSION, ModeStats, RecordedRunConfig, RunCost, RunJson, RunStats, readRunJson, writeRunJson, type RunJsonInput, type RunJsonRead } from './run-json.js';
export { EvalBatch, sameJudging } from './eval-batches.js';
export { appendEpisode, episodeLines, readEpisodes, recordsWithAppended, repairTail, rewriteEpisodes, type EpisodeLines, type EpisodeRow, type EpisodesRead } from './episodes-file.js';
export { readJsonlFile, type JsonlRead } from './jsonl-file.js';
export { judgeFormatFallbacks, recordJudgeFormatFallbacks } from './judge-fallbacks.js';
export { episodeMatchProblem, matchEpisodeId, type EpisodeMatch } from './episode-match.js';
export { appendJudgement, clearJudgementJournal, readJudgementJournal, type JournalLine } from './judgement-journal.js';
export { missingScenarioIds, missingScenariosMessage, readRunScenarios, writeRunScenarios, type RunScenariosRead } from './scenarios-file.js';
export { runJsonSnapshot, undoRunStart } from './run-start.js';
export { acquireRunLock, describeHolder, RunDirBusyError, type LockHolder, type LockOptions, type RunDirWriter, type RunLock } from './lock.js';
export { writeRunDirFile } from './added-file.js';
export { openLedgerFile, type Ledger } from './ledger-file.js';
export { compareVerdictsName, listCompareVerdicts, readCompareVerdicts, type CompareVerdictsFile, type CompareVerdictsRead } from './compare-verdicts.js';
export { appendCompareVerdict, clearCompareJournal, compareJournalFile, readSavedVerdicts } from './compare-journal.js';
export { discardEpisodeFiles, isEpisodeFile, readEpisodeFiles, writeEpisodeFile, type EpisodeFile } from './episode-files.js';
export { CompareBatch, ComparisonKey, compareBatchesFile, compareBatchesText, readCompareBatches, sameComparison } from './compare-batches.js';
export { drawCountLines, drawCounts, generatorLabel, type DrawCounts } from './draw-counts.js';
